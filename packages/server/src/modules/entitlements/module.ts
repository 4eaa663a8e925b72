import type { FastLane } from '../../http/fast-lane.js';
import type { App } from '../../http/route-types.js';
import type { EntitlementCache } from '../../edge-cache/entitlement-cache.js';
import type { ModuleContext } from '../context.js';
import { entitlementRoutes } from './routes.js';
import { EntitlementService, type CachedEntitlements } from './service.js';

/** The Edge API: entitlement checks, answered from the process's cache. */
export function entitlementsModule(
  app: App,
  { db, clock, entitlementCache, fastLane }: ModuleContext & { entitlementCache: EntitlementCache<CachedEntitlements>; fastLane: FastLane },
): void {
  entitlementRoutes(app, new EntitlementService(db, clock, entitlementCache), fastLane);
}
