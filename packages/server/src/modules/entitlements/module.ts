import type { FastLane } from '../../http/fast-lane.js';
import type { App } from '../../http/route-types.js';
import type { EntitlementCache } from '../../edge-cache/entitlement-cache.js';
import type { ModuleContext } from '../context.js';
import { entitlementRoutes } from './routes.js';
import { changeStreamRoutes } from './change-stream-routes.js';
import { ChangeEvents } from './change-events.js';
import type { EntitlementChangeHub } from '../../edge-cache/change-hub.js';
import { EntitlementService, type CachedEntitlements } from './service.js';

/** The Edge API: entitlement checks, answered from the process's cache, and the stream of their changes. */
export function entitlementsModule(
  app: App,
  { reads, clock, config, entitlementCache, fastLane, changeHub }: ModuleContext & {
    entitlementCache: EntitlementCache<CachedEntitlements>;
    fastLane: FastLane;
    changeHub: EntitlementChangeHub;
  },
): void {
  const service = new EntitlementService(reads, clock, entitlementCache);
  entitlementRoutes(app, service, fastLane);
  changeStreamRoutes(app, changeHub, new ChangeEvents(service), config.changeStreamLimit);
}
