/**
 * An activate_on_payment change that waits for its payment (decision 0035): the update
 * call opens a hosted checkout page for it (through `PendingChangeCheckout`, which the
 * checkout module provides), and the payment taken there activates it here, exactly as
 * a change paid at once (plan-change-commit.ts).
 */
import type { SubscriptionUpdate } from '@billow/contract';
import type { Tx } from '../db/transaction.js';
import { assertCanPay, chargeableMethod } from '../modules/purchases/payment.js';
import { lockCustomer, type PurchaseHooks, type PurchaseScope } from '../modules/purchases/purchase.js';
import type { Clock } from '../lib/clock.js';
import { testClockTimeOf } from '../modules/customers/queries.js';
import { assertProviderConfigured } from '../modules/payments/providers.js';
import { assertChangeable, changeTerms, creditApplied } from '../modules/subscriptions/change.compute.js';
import { priceChange } from '../modules/subscriptions/change-pricing.js';
import { commitChange, successorOf, type SettledChange } from './plan-change-commit.js';
import type { Planned } from './planned-payment.js';
import { changeNoLongerPending, subscriptionNotFound } from '../modules/subscriptions/errors.js';
import * as repo from '../modules/subscriptions/queries.js';
import type { PendingChange, PendingChangeCheckout } from '../modules/checkout/ports.js';

export type { PendingChange, PendingChangeCheckout };

/** The payment of a pending change: which record, the update it activates, and when it was asked for (its proration). */
export interface PendingChangePayment {
  subscriptionId: string;
  input: SubscriptionUpdate;
  askedAt: Date;
}

/** What activating a pending change was planned as, under the locks: the change, as plan-change-commit.ts records it, without its charge. */
export type PendingActivation = Omit<SettledChange, 'chargeRef'>;

/**
 * Under the locks: the change is still waiting and its subscription still live, and the
 * customer's card (the one just saved on the page) is to pay what the change costs,
 * prorated at the moment it was asked for. Writes nothing.
 */
export async function planPendingActivation(tx: Tx, scope: PurchaseScope, clock: Clock, payment: PendingChangePayment): Promise<Planned<PendingActivation>> {
  const found = await repo.findSubscription(tx, scope.environmentId, payment.subscriptionId);
  if (!found?.previous_subscription_id) throw subscriptionNotFound();
  const customer = await lockCustomer(tx, scope.environmentId, await repo.customerIdOf(tx, found.customer_id));
  const waiting = (await repo.findSubscription(tx, scope.environmentId, found.id, { forUpdate: true }))!;
  const now = (await testClockTimeOf(tx, customer.id)) ?? clock.now();
  if (waiting.status !== 'incomplete' || !waiting.pending_expires_at || waiting.pending_expires_at <= now) {
    throw changeNoLongerPending(waiting.status === 'incomplete' ? 'expired' : waiting.status);
  }
  const row = (await repo.findSubscription(tx, scope.environmentId, found.previous_subscription_id, { forUpdate: true }))!;
  const input = payment.input;
  assertChangeable(row, input);
  const { purchase, pricing, discount } = await priceChange(tx, scope, customer, row, input, payment.askedAt);
  const terms = changeTerms(row, input, pricing, payment.askedAt);
  const fromCredit = creditApplied(terms, customer.credit_minor);
  const toCharge = terms.dueMinor - fromCredit;
  const method = await chargeableMethod(tx, scope, customer);
  if (purchase.quote.totalMinor > 0) await assertProviderConfigured(tx, scope);
  if (toCharge > 0) assertCanPay(method);
  const successor = successorOf(scope, { row, customer, purchase, input, terms, now, method });
  const plan = { row, customer, purchase, successor, now, fromCredit, toCharge, terms, method, discount, pendingId: waiting.id };
  const charge = toCharge > 0 && method
    ? { method, amountMinor: toCharge, currency: row.currency, description: `${purchase.version.name}: change of plan`, planVersionId: purchase.version.id }
    : null;
  return { plan, payment: charge };
}

/** Records the planned activation, paid by `chargeRef` (null: nothing charged): the change takes effect. */
export async function commitPendingActivation(tx: Tx, scope: PurchaseScope, plan: PendingActivation, chargeRef: string | null, hooks: PurchaseHooks) {
  await hooks.paid?.(tx, { customer: plan.customer, purchase: plan.purchase, now: plan.now });
  const result = await commitChange(tx, scope, { ...plan, chargeRef });
  if (result.order) await hooks.recorded?.(tx, { subscriptionId: result.subscriptionId, ...result.order });
  return result;
}
