import type { App } from '../../http/route-types.js';
import type { ModuleContext } from '../context.js';
import { customerRoutes } from './routes.js';
import { CustomerService, type CustomerSubscriptions } from './service.js';
import { taxIdVerifier } from './tax-ids.js';

/** Customers. Archiving one asks the subscriptions module, handed in by app.ts, about its subscriptions. */
export function customersModule(
  app: App,
  { db, reads, clock, config, entitlementChanges, customerSubscriptions }: ModuleContext & { customerSubscriptions: CustomerSubscriptions },
): void {
  const verify = taxIdVerifier(config.taxIdCheck, (message) => app.log.warn(message));
  customerRoutes(app, new CustomerService(db, clock, entitlementChanges, customerSubscriptions, verify, reads));
}
