import type { App } from '../../http/route-types.js';
import type { ModuleContext } from '../context.js';
import { analyticsRoutes } from './routes.js';
import { subscribersRoutes } from './subscribers-routes.js';
import { AnalyticsService } from './service.js';

/** Revenue analytics (issue 30, decision 0097): MRR movements kept from the subscription terms log, and series of them. */
export function analyticsModule(app: App, { db, clock }: ModuleContext): void {
  const service = new AnalyticsService(db, clock);
  analyticsRoutes(app, service);
  subscribersRoutes(app, service);
}
