import type { App } from '../../http/route-types.js';
import type { ChargeCreator } from './ports.js';
import { chargeRoutes } from './routes.js';

/** One-time purchases, made by the use case app.ts hands in. */
export function chargesModule(app: App, context: { charges: ChargeCreator }): void {
  chargeRoutes(app, context.charges);
}
