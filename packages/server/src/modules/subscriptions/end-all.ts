import type { Tx } from '../../db/transaction.js';
import { recordEvent } from '../events/writer.js';
import { billingSubscriptionsOf, updateSubscription } from './repo.js';
import { subscriptionEventObject } from './view.js';

export interface EndScope {
  environmentId: string;
  organizationId: string;
}

/**
 * Ends, in the caller's transaction, every subscription of the customer that would bill
 * again: live ones are cancelled at once (as an IMMEDIATE cancellation, with its
 * subscription.cancelled event) and pending changes expire. Returns how many were live.
 */
export async function endBillingSubscriptions(
  tx: Tx,
  scope: EndScope,
  customerUuid: string,
  at: Date,
  reason: string,
): Promise<number> {
  let cancelled = 0;
  for (const row of await billingSubscriptionsOf(tx, scope.environmentId, customerUuid)) {
    if (row.status === 'incomplete') {
      await updateSubscription(tx, row.id, { status: 'incomplete_expired', modified_at: at });
      continue;
    }
    const ended = await updateSubscription(tx, row.id, {
      status: 'canceled',
      end_date: at,
      canceled_at: at,
      cancellation_reason: reason,
      modified_at: at,
    });
    await recordEvent(tx, {
      environmentId: scope.environmentId,
      organizationId: scope.organizationId,
      type: 'subscription.cancelled',
      data: await subscriptionEventObject(tx, ended, scope.organizationId),
      previousAttributes: { status: row.status },
      at,
    });
    cancelled++;
  }
  return cancelled;
}

/** How many of the customer's subscriptions would bill again (without ending them). */
export async function countBillingSubscriptions(tx: Tx, environmentId: string, customerUuid: string): Promise<number> {
  const rows = await billingSubscriptionsOf(tx, environmentId, customerUuid);
  return rows.filter((row) => row.status !== 'incomplete').length;
}
