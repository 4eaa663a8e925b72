import type { App } from '../../http/route-types.js';
import type { ModuleContext } from '../context.js';
import { ReportingService } from './reporting.service.js';
import { CashService } from './cash.service.js';
import { analyticsRoutes } from './routes.js';
import { subscribersRoutes } from './subscribers-routes.js';
import { AnalyticsService } from './service.js';
import { reportingRoutes } from './settings-routes.js';

/** Revenue analytics (issue 30, decisions 0097 and 0099): MRR movements kept from the subscription terms log, cash from day rollups, and series of them; the reporting currency (decision 0102). */
export function analyticsModule(app: App, { db, reads, clock }: ModuleContext): void {
  const reporting = new ReportingService(db, clock);
  const service = new AnalyticsService(db, clock, reporting, reads);
  analyticsRoutes(app, service, new CashService(db, clock, reporting, reads));
  subscribersRoutes(app, service);
  reportingRoutes(app, reporting);
}
