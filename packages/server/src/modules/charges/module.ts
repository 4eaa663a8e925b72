import type { App } from '../../http/route-types.js';
import type { ModuleContext } from '../context.js';
import { chargeRoutes } from './routes.js';
import { ChargeService } from './service.js';

/** One-time purchases. */
export function chargesModule(app: App, { db, clock, entitlementChanges }: ModuleContext): void {
  chargeRoutes(app, new ChargeService(db, clock, entitlementChanges));
}
