import type { App } from '../../http/route-types.js';
import type { ModuleContext } from '../context.js';
import { CheckoutCompletion } from './complete.js';
import { DiscountQuotes } from './discount-quote.js';
import { discountQuoteRoutes } from './discount-routes.js';
import { checkoutPageRoutes } from './page-routes.js';
import { checkoutRoutes } from './routes.js';
import { CheckoutService } from './service.js';

/** Checkout: the sessions API, the hosted page that completes them, and buy links (decision 0034). */
export function checkoutModule(app: App, context: ModuleContext): void {
  const service = new CheckoutService(context.db, context.clock);
  checkoutRoutes(app, service);
  const completion = new CheckoutCompletion(context.db, context.clock, context.config, context.entitlementChanges);
  checkoutPageRoutes(app, { service, completion, db: context.db, clock: context.clock, config: context.config });
  discountQuoteRoutes(app, new DiscountQuotes(context.db, context.clock, completion));
}
