import type { App } from '../../http/route-types.js';
import type { ModuleContext } from '../context.js';
import { PaymentMethodService } from './methods.service.js';
import { paymentMethodRoutes } from './routes.js';
import { providerSettingsRoutes, stripeMethodRoutes, stripeWebhookRoutes } from './stripe/routes.js';
import { StripeWebhooks, type SettleIntent } from './stripe/webhook.js';

/** Customers' payment methods, and the payment provider of each environment (Stripe, decision 0039). */
export function paymentsModule(app: App, { db, clock, settleIntent }: ModuleContext & { settleIntent: SettleIntent }): void {
  const methods = new PaymentMethodService(db, clock);
  paymentMethodRoutes(app, methods);
  stripeMethodRoutes(app, methods);
  providerSettingsRoutes(app, { db, clock });
  stripeWebhookRoutes(app, new StripeWebhooks(db, clock, settleIntent));
}
