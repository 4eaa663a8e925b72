import type { App } from '../../http/route-types.js';
import type { ModuleContext } from '../context.js';
import { CashService } from './cash.service.js';
import { analyticsRoutes } from './routes.js';
import { AnalyticsService } from './service.js';

/** Revenue analytics (issue 30, decisions 0097 and 0099): MRR movements kept from the subscription terms log, cash from day rollups, and series of them. */
export function analyticsModule(app: App, { db, clock }: ModuleContext): void {
  analyticsRoutes(app, new AnalyticsService(db, clock), new CashService(db, clock));
}
