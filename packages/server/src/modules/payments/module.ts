import type { App } from '../../http/route-types.js';
import type { ModuleContext } from '../context.js';
import { paymentMethodRoutes } from './routes.js';

/** Customers' payment methods. */
export function paymentsModule(app: App, { db, clock }: ModuleContext): void {
  paymentMethodRoutes(app, { db, clock });
}
