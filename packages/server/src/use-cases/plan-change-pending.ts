/**
 * An activate_on_payment change that waits for its payment (decision 0035): the update
 * call opens a hosted checkout page for it (through `PendingChangeCheckout`, which the
 * checkout module provides), and the payment taken there activates it here, exactly as
 * a change paid at once (plan-change-commit.ts).
 */
import type { SubscriptionUpdate } from '@billow/contract';
import type { Tx } from '../db/transaction.js';
import { assertCanPay, chargeableMethod, type PaymentStep } from '../modules/purchases/payment.js';
import { lockCustomer, type PurchaseHooks, type PurchaseScope } from '../modules/purchases/purchase.js';
import type { Clock } from '../lib/clock.js';
import { testClockTimeOf } from '../modules/customers/queries.js';
import { assertProviderConfigured } from '../modules/payments/providers.js';
import { assertChangeable, changeTerms, creditApplied } from '../modules/subscriptions/change.compute.js';
import { priceChange } from '../modules/subscriptions/change-pricing.js';
import { commitChange, successorOf } from './plan-change-commit.js';
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

/**
 * In one transaction: the change is still waiting and its subscription still live, the
 * customer's card (the one just saved on the page) pays what the change costs, prorated
 * at the moment it was asked for, and the change takes effect.
 */
export async function activatePendingChange(
  tx: Tx,
  scope: PurchaseScope,
  clock: Clock,
  payment: PendingChangePayment,
  step: PaymentStep,
  hooks: PurchaseHooks,
) {
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
  const chargeRef =
    toCharge > 0 && method
      ? await step.charge(tx, {
          method,
          amountMinor: toCharge,
          currency: row.currency,
          description: `${purchase.version.name}: change of plan`,
          planVersionId: purchase.version.id,
        })
      : null;
  await hooks.paid?.(tx, { customer, purchase, now });
  const successor = successorOf(scope, { row, customer, purchase, input, terms, now, method });
  const settled = { row, customer, purchase, successor, now, fromCredit, toCharge, terms, method, chargeRef, discount, pendingId: waiting.id };
  const result = await commitChange(tx, scope, settled);
  if (result.order) await hooks.recorded?.(tx, { subscriptionId: result.subscriptionId, ...result.order });
  return result;
}
