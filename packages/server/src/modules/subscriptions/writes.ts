/**
 * What every change of a customer's subscriptions shares (the use cases of subscribing,
 * changing a plan and cancelling): one transaction that announces the change to every
 * entitlement cache, the customer's time (a test clock's), the customer and subscription
 * locked in that order, and the subscription's event.
 */
import type { Db } from '../../db/connect.js';
import { inTransaction, type Tx } from '../../db/transaction.js';
import type { EntitlementChanges } from '../../edge-cache/change-feed.js';
import type { Clock } from '../../lib/clock.js';
import { testClockTimeOf } from '../customers/queries.js';
import { recordEvent } from '../events/writer.js';
import { customerWebhookObject } from '../ledger/webhook.js';
import { lockCustomer, type CustomerRow, type ResolvedPurchase } from '../purchases/purchase.js';
import { subscriptionNotFound } from './errors.js';
import * as repo from './repo.js';
import type { SubscriptionScope } from './service.js';
import { subscriptionObject } from './view.js';

export interface WriteContext {
  db: Db;
  changes: EntitlementChanges | null;
}

/** Runs a change of the customer's subscriptions, announcing it to every entitlement cache. */
export async function changingSubscriptions<T>(c: WriteContext, scope: SubscriptionScope, customerId: () => string | null, work: (tx: Tx) => Promise<T>): Promise<T> {
  const result = await inTransaction(c.db, async (tx) => {
    const value = await work(tx);
    const id = customerId();
    if (id && c.changes) await c.changes.announce(tx, scope.environmentId, id);
    return value;
  });
  const id = customerId();
  if (id) c.changes?.forget(scope.environmentId, id);
  return result;
}

/** Now, for the customer: the time of their test clock, if they live by one. */
export async function customerNow(tx: Tx, customer: CustomerRow, clock: Clock): Promise<Date> {
  return (await testClockTimeOf(tx, customer.id)) ?? clock.now();
}

/** An event dated `at`: the customer's time (their test clock's, if they live by one). */
export function subscriptionEventAt(tx: Tx, scope: SubscriptionScope, at: Date, type: string, data: Record<string, unknown>, previous?: Record<string, unknown>) {
  return recordEvent(tx, {
    environmentId: scope.environmentId,
    organizationId: scope.organizationId,
    type,
    data,
    ...(previous ? { previousAttributes: previous } : {}),
    at,
  });
}

/** A subscription's event object, with the purchase's plan and product. */
export function subscriptionData(row: repo.SubscriptionRow, customer: CustomerRow, purchase: ResolvedPurchase, scope: SubscriptionScope) {
  return subscriptionObject(row, {
    plan: { name: purchase.version.name, version: purchase.version.version, identifier: purchase.plan.identifier },
    product: { id: purchase.product.id, name: purchase.product.name },
    customer: customerWebhookObject(customer),
    organization: scope.organizationId,
    features: null,
  });
}

/** Locks the customer, then the subscription: every money change of one customer runs alone. */
export async function lockLiveSubscription(tx: Tx, scope: SubscriptionScope, id: string) {
  const found = await repo.findSubscription(tx, scope.environmentId, id);
  if (!found) throw subscriptionNotFound();
  const customer = await lockCustomer(tx, scope.environmentId, await repo.customerIdOf(tx, found.customer_id));
  const row = (await repo.findSubscription(tx, scope.environmentId, id, { forUpdate: true }))!;
  return { row, customer };
}
