import type { App } from '../../http/route-types.js';
import { loadDashboardFiles } from './files.js';
import { dashboardAppRoutes } from './routes.js';

/** The seller's dashboard, a single-page application built at install (packages/dashboard), served as files. */
export function dashboardAppModule(app: App): void {
  dashboardAppRoutes(app, loadDashboardFiles());
}
