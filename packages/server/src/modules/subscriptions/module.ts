import type { App } from '../../http/route-types.js';
import type { ModuleContext } from '../context.js';
import { subscriptionRoutes } from './routes.js';
import { SubscriptionService } from './service.js';

/** Subscriptions: create, change, cancel, list. */
export function subscriptionsModule(app: App, { db, clock, config, entitlementChanges }: ModuleContext): void {
  subscriptionRoutes(app, new SubscriptionService(db, clock, config.pendingUpdateTtlMs, entitlementChanges));
}
