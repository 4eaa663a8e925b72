import type { App } from '../../http/route-types.js';
import { entitlementsChangedNotice, type EntitlementInvalidation } from '../../edge/change-feed.js';
import type { ModuleContext } from '../context.js';
import { usageRoutes } from './routes.js';
import { UsageService } from './service.js';
import { UsageBatchService } from './batch.js';

/** Usage reports and raw events of metered features. */
export function usageModule(app: App, context: ModuleContext & { entitlementCache: EntitlementInvalidation }): void {
  const { db, clock, entitlementCache } = context;
  const options = {
    notice: entitlementsChangedNotice,
    afterCommit: (environmentId: string, customerId: string) => entitlementCache.invalidateCustomer(environmentId, customerId),
  };
  const service = new UsageService(db, clock, options);
  usageRoutes(app, service, new UsageBatchService(db, clock, service, options));
}
