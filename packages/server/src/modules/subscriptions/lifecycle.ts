/**
 * What the billing engine does to a subscription besides moving money (decision
 * 0029): its environment as a scope, its events, the announcement of what its
 * customer may use, and its end.
 */
import type { Db } from '../../db/connect.js';
import { inTransaction, type Executor, type Tx } from '../../db/transaction.js';
import type { EntitlementChanges } from '../../edge-cache/change-feed.js';
import type { PurchaseScope } from '../purchases/purchase.js';
import { recordEvent, type EventInput } from '../events/writer.js';
import { environmentById } from '../tenancy/queries.js';
import * as repo from './repo.js';
import { subscriptionEventObject } from './view.js';

/** The scope of background work on a subscription: its environment, as a request's scope would name it. */
export type EnvironmentScope = PurchaseScope & { apiBase: string };

/** An environment's organization and kind never change: the scope may be read outside the transaction that uses it. */
export async function environmentScope(db: Executor, environmentId: string): Promise<EnvironmentScope> {
  const environment = await environmentById(db, environmentId);
  if (!environment) throw new Error(`environment ${environmentId} does not exist`);
  return { organizationId: environment.organization_id, environmentId, environment: environment.kind, apiBase: '' };
}

type SubscriptionEventType = 'subscription.updated' | 'subscription.cancelled';

/** A `subscription.*` event to be recorded; `object` is the subscription as the reference's webhooks show it. */
export function subscriptionEventInput(
  scope: PurchaseScope,
  type: SubscriptionEventType,
  object: Record<string, unknown>,
  previous: Record<string, unknown>,
  at: Date,
): EventInput {
  return { environmentId: scope.environmentId, organizationId: scope.organizationId, type, data: object, previousAttributes: previous, at };
}

/** Records a `subscription.*` event. */
export async function subscriptionEvent(
  tx: Tx,
  scope: PurchaseScope,
  type: SubscriptionEventType,
  row: repo.SubscriptionRow,
  previous: Record<string, unknown>,
  at: Date,
): Promise<void> {
  const object = await subscriptionEventObject(tx, row, scope.organizationId);
  await recordEvent(tx, subscriptionEventInput(scope, type, object, previous, at));
}

/**
 * The subscription ends now: canceled, access over. `reason` is recorded unless a
 * cancellation by the merchant or customer scheduled it already.
 */
export async function endSubscription(
  tx: Tx,
  scope: PurchaseScope,
  row: repo.SubscriptionRow,
  at: Date,
  reason: string,
): Promise<repo.SubscriptionRow> {
  const ended = await repo.updateSubscription(tx, row.id, {
    status: 'canceled',
    end_date: at,
    canceled_at: row.canceled_at ?? at,
    cancellation_reason: row.cancellation_reason ?? reason,
    modified_at: at,
  });
  await subscriptionEvent(tx, scope, 'subscription.cancelled', ended, { status: row.status }, at);
  return ended;
}

/** Runs work that changes a customer's subscriptions, announcing it to every entitlement cache on commit. */
export async function announcing<T>(
  changes: EntitlementChanges | null,
  environmentId: string,
  run: (announce: (tx: Tx, customerId: string) => Promise<void>) => Promise<T>,
): Promise<T> {
  const touched = new Set<string>();
  const result = await run(async (tx, customerId) => {
    touched.add(customerId);
    await changes?.announce(tx, environmentId, customerId);
  });
  for (const customerId of touched) changes?.forget(environmentId, customerId);
  return result;
}

/**
 * A pending activate_on_payment change whose time ran out ends at `now`
 * (`subscription.updated`, status incomplete → incomplete_expired); the current
 * subscription stays. False when it is no longer pending (paid or ended meanwhile);
 * an error when its time has not run out.
 */
export async function expirePendingChange(db: Db, environmentId: string, subscriptionId: string, now: Date): Promise<boolean> {
  return inTransaction(db, async (tx) => {
    const locked = await repo.findSubscription(tx, environmentId, subscriptionId, { forUpdate: true });
    if (locked?.status !== 'incomplete' || !locked.pending_expires_at) return false;
    if (locked.pending_expires_at > now) throw new Error(`the change waits for its payment until ${locked.pending_expires_at.toISOString()}`);
    const expired = await repo.updateSubscription(tx, subscriptionId, { status: 'incomplete_expired', modified_at: now });
    await subscriptionEvent(tx, await environmentScope(tx, environmentId), 'subscription.updated', expired, { status: 'incomplete' }, now);
    return true;
  });
}
