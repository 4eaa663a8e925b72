import type { App } from '../../http/route-types.js';
import type { ModuleContext } from '../context.js';
import { loadDashboardFiles } from './files.js';
import { dashboardAppRoutes, dashboardCsp } from './routes.js';

/** The seller's dashboard, a single-page application built at install (packages/dashboard), served as files. */
export function dashboardAppModule(app: App, { config }: ModuleContext): void {
  const publicImages = config.media.s3?.publicUrl;
  dashboardAppRoutes(app, loadDashboardFiles(), dashboardCsp(publicImages ? new URL(publicImages).origin : null));
}
