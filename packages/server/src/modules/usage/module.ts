import type { App } from '../../http/route-types.js';
import { entitlementsChangedNotice, type EntitlementInvalidation } from '../../edge/change-feed.js';
import type { ModuleContext } from '../context.js';
import { usageRoutes } from './routes.js';
import { UsageService } from './service.js';

/** Usage reports and raw events of metered features. */
export function usageModule(app: App, context: ModuleContext & { entitlementCache: EntitlementInvalidation }): void {
  const { db, clock, entitlementCache } = context;
  const service = new UsageService(db, clock, {
    notice: entitlementsChangedNotice,
    afterCommit: (environmentId, customerId) => entitlementCache.invalidateCustomer(environmentId, customerId),
  });
  usageRoutes(app, service);
}
