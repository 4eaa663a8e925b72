import type { App } from '../../http/route-types.js';
import type { ImageUrls } from '../catalog/queries.js';
import type { ModuleContext } from '../context.js';
import { DiscountQuotes } from './discount-quote.js';
import { discountQuoteRoutes } from './discount-routes.js';
import type { CheckoutPages } from './ports.js';
import { payLinkRoutes } from './pay-link-routes.js';
import { checkoutPageRoutes } from './page-routes.js';
import { checkoutRoutes } from './routes.js';
import { CheckoutService } from './service.js';

/**
 * Checkout: the sessions API, the hosted page that completes them, buy links (decision 0034),
 * and the same page paying a pending plan change or an unpaid invoice (decision 0035).
 */
export function checkoutModule(app: App, context: ModuleContext & { checkoutPages: CheckoutPages; media: ImageUrls }): void {
  const service = new CheckoutService(context.db, context.clock, context.media);
  checkoutRoutes(app, service);
  const completion = context.checkoutPages;
  checkoutPageRoutes(app, { service, completion, db: context.db, clock: context.clock, config: context.config });
  discountQuoteRoutes(app, new DiscountQuotes(context.db, context.clock, completion));
  payLinkRoutes(app, { db: context.db, clock: context.clock, publicUrl: context.publicUrl });
}
