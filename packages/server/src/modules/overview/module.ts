import type { App } from '../../http/route-types.js';
import type { ModuleContext } from '../context.js';
import { overviewRoutes } from './routes.js';
import { OverviewService } from './service.js';

/** The figures of the dashboard's Home page (decision 0080): read-only, over the ledger, subscriptions and events. */
export function overviewModule(app: App, { db, clock }: ModuleContext): void {
  overviewRoutes(app, new OverviewService(db, clock));
}
