import type { App } from '../../http/route-types.js';
import type { ModuleContext } from '../context.js';
import type { SubscriptionWrites } from './ports.js';
import { subscriptionRoutes } from './routes.js';
import { SubscriptionService } from './service.js';

/** Subscriptions: list and read them here; create, change and cancel through the use cases app.ts hands in. */
export function subscriptionsModule(app: App, context: ModuleContext & { subscriptionChanges: SubscriptionWrites }): void {
  subscriptionRoutes(app, new SubscriptionService(context.db, context.clock), context.subscriptionChanges);
}
