/**
 * A subscription's next period begins (decision 0029): at its period end, or at the end of
 * its trial; or a cancellation takes effect (decision 0048). It reads top to bottom as the
 * planned-payment pipeline runs it (planned-payment.ts): load under locks, plan (pure:
 * subscriptions/renewal-plan.compute.ts), record the plan with its payment's outcome. The
 * intent's key is the subscription and the instant the period begins, so however often the
 * renewal runs, that period is charged once.
 */
import type { Executor, Tx } from '../db/transaction.js';
import type { Clock } from '../lib/clock.js';
import { peekDiscountForRenewal, quoteDiscountOf } from '../modules/discounts/queries.js';
import type { IdempotencyClaim } from '../modules/intents/claims.js';
import type { PaymentOutcome } from '../modules/purchases/payment.js';
import { lockCustomerOfSubscription } from '../modules/purchases/purchase.js';
import { renewalNotDue } from '../modules/subscriptions/errors.js';
import type { EnvironmentScope } from '../modules/subscriptions/lifecycle.js';
import * as repo from '../modules/subscriptions/queries.js';
import { isDue, paymentDescription, planRenewal } from '../modules/subscriptions/renewal-plan.compute.js';
import { renewalMethod, renewalTerms, type RenewalItem } from '../modules/subscriptions/renewal-terms.js';
import { purchasePlanned, type QuickQuote } from './planned-payment.js';
import { recordRenewal, type EngineDeps, type RenewalPlanned, type RenewalResult, type RenewedState } from './renewal-record.js';

export type { EngineDeps, RenewalItem, RenewalPlanned, RenewalResult, RenewedState };

/**
 * Load: the customer locked, then the subscription with what the renewal reads, when the
 * item is still what it is due for; the terms of the period and the card that pays them.
 */
async function loadRenewal(tx: Tx, deps: EngineDeps, scope: EnvironmentScope, subscriptionId: string, item: RenewalItem) {
  const customer = await lockCustomerOfSubscription(tx, scope.environmentId, subscriptionId);
  // Nothing to do any more (already renewed, cancelled, changed): a payment taken for it goes back (pipeline).
  if (!customer) throw renewalNotDue();
  // The announcement rides on the lock's statement: it is sent if this transaction commits, as each renewal that commits must.
  const notice = deps.notice?.(scope.environmentId, customer.customer_id) ?? null;
  const reads = (await repo.lockSubscriptionForRenewal(tx, scope, subscriptionId, notice))!;
  if (!notice) await deps.announce(tx, scope.environmentId, customer.customer_id);
  if (!isDue(reads.row, item)) throw renewalNotDue();
  const carried = item.kind !== 'end' && reads.hasDiscount ? await peekDiscountForRenewal(tx, reads.row.id) : null;
  const terms = await renewalTerms(tx, reads.row, customer, item, reads, carried ? quoteDiscountOf(carried) : null);
  const billed = item.kind !== 'end' || terms.purchase.quote.lines.length > 0;
  const method = billed ? await renewalMethod(tx, reads.row, customer, reads.usableMethod) : undefined;
  const state = { item, row: reads.row, customer, carriesDiscount: carried !== null, terms, method, hasUnpaidInvoice: reads.hasUnpaidInvoice };
  return { state, plan: planRenewal(state) };
}

/**
 * Phase (a) in one unlocked read (planned-payment.ts, `quote`): the intent of the renewal's
 * claim if there is one, else the payment a paid renewal takes, with the customer's usable
 * saved method. Anything else (not due, a carried discount, no usable method, nothing to
 * pay, an archived customer, an end) is left to the plan under locks.
 */
async function quoteRenewal(db: Executor, scope: EnvironmentScope, subscriptionId: string, item: RenewalItem, claim: IdempotencyClaim): Promise<QuickQuote> {
  const reads = await repo.renewalQuoteReads(db, scope, subscriptionId, claim);
  const asPlanned = { earlier: reads?.intent, payment: null };
  if (!reads || reads.intent || reads.customer.archived_at || reads.hasDiscount || !reads.usableMethod || !isDue(reads.row, item) || item.kind === 'end') {
    return asPlanned;
  }
  const { purchase, charged } = await renewalTerms(db, reads.row, reads.customer, item, reads, null);
  if (charged.totalMinor === 0) return asPlanned;
  const payment = { method: reads.usableMethod, amountMinor: charged.totalMinor, currency: charged.currency, description: paymentDescription(purchase, reads.row), planVersionId: purchase.version.id };
  return { earlier: undefined, payment };
}

/**
 * Renews the subscription for the period that begins at `item.at` (or ends it), paying
 * through the planned pipeline; `clock` gives the time the renewal happens at (a test
 * clock's); `renewed` hears the subscription as the renewal leaves it (a hint for what is
 * due next, heard before the transaction commits).
 */
export function renewSubscription(
  deps: EngineDeps,
  clock: Clock,
  scope: EnvironmentScope,
  subscriptionId: string,
  item: RenewalItem,
  renewed?: (state: RenewedState) => void,
) {
  const key = `${subscriptionId}:${item.kind === 'end' ? 'end:' : ''}${item.at.toISOString()}`;
  const idempotency = { scope: `renewal:${scope.environmentId}`, key, intentOnly: true };
  return purchasePlanned<RenewalPlanned, RenewalResult>(deps.db, clock, {
    kind: 'renewal',
    request: { scope, body: { subscriptionId, kind: item.kind, at: item.at.toISOString() } },
    idempotency,
    status: 200,
    quote: () => quoteRenewal(deps.db, scope, subscriptionId, item, idempotency),
    plan: async (tx) => {
      const planned = await loadRenewal(tx, deps, scope, subscriptionId, item);
      return { plan: planned, payment: planned.plan.payment };
    },
    commit: (tx, planned, outcome: PaymentOutcome) => recordRenewal(tx, { deps, now: clock.now(), scope, renewed }, planned, outcome),
  });
}
