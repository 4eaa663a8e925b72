import type { App } from '../../http/route-types.js';
import type { ModuleContext } from '../context.js';
import { discountRoutes } from './routes.js';
import { DiscountService } from './service.js';

/** Discounts: codes with a percentage or amounts off, managed through the API (ours; decision 0032). */
export function discountsModule(app: App, { db, clock }: ModuleContext): void {
  discountRoutes(app, new DiscountService(db, clock));
}
