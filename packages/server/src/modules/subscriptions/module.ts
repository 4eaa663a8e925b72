import type { App } from '../../http/route-types.js';
import type { ModuleContext } from '../context.js';
import type { PendingChangeCheckout } from './pending-change.js';
import { subscriptionRoutes } from './routes.js';
import { SubscriptionService } from './service.js';

/** Subscriptions: create, change, cancel, list; a change waiting for its payment gets a hosted page (handed in by app.ts). */
export function subscriptionsModule(app: App, context: ModuleContext & { pendingChangeCheckout: PendingChangeCheckout }): void {
  const { db, clock, config, entitlementChanges } = context;
  subscriptionRoutes(app, new SubscriptionService(db, clock, config.pendingUpdateTtlMs, entitlementChanges, context.pendingChangeCheckout));
}
