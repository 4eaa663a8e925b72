import type { App } from '../../http/route-types.js';
import { usageChangedNotice, type EntitlementInvalidation } from '../../edge-cache/change-feed.js';
import type { ModuleContext } from '../context.js';
import { usageRoutes } from './routes.js';
import { UsageService } from './service.js';
import { UsageBatchService } from './batch.js';
import type { ReportRoutes } from './report-route-cache.js';

/** Usage reports and raw events of metered features. */
export function usageModule(app: App, context: ModuleContext & { entitlementCache: EntitlementInvalidation; reportRoutes: ReportRoutes }): void {
  const { db, clock, entitlementCache, reportRoutes } = context;
  const options = {
    // Usage alone: every entitlement cache follows this channel, the report routes do not.
    notice: usageChangedNotice,
    routes: reportRoutes,
    afterCommit: (environmentId: string, customerId: string) => entitlementCache.invalidateCustomer(environmentId, customerId),
  };
  const service = new UsageService(db, clock, options);
  usageRoutes(app, service, new UsageBatchService(db, clock, service, options));
}
