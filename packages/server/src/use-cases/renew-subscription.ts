/**
 * A subscription's next period begins (decision 0029): at its period end, or at
 * the end of its trial. The period is billed through the payment pipeline
 * (decision 0026): the intent's key is the subscription and the instant the
 * period begins, so however often the renewal runs, that period is charged once.
 */
import { setCustomerCredit } from '../modules/customers/queries.js';
import type { RawBuilder } from 'kysely';
import type { Db } from '../db/connect.js';
import { inTransaction, type Executor, type Tx } from '../db/transaction.js';
import { DomainError } from '../lib/domain-error.js';
import type { Clock } from '../lib/clock.js';
import type { PaymentStep } from '../modules/purchases/payment.js';
import { purchaseTwoPhase, type IdempotencyClaim, type QuickQuote } from './payment-pipeline.js';
import { lockCustomerOfSubscription, type CustomerRow, type PaymentMethodRow, type ResolvedPurchase } from '../modules/purchases/purchase.js';
import { discountForRenewal, quoteDiscountOf } from '../modules/discounts/queries.js';
import { recordPaidOrder, type PaidOrderInput } from '../modules/purchases/record.js';
import { recordUnpaidRenewal, type PaymentFailure } from '../modules/purchases/unpaid-invoices.js';
import { nextAttemptAt, type DunningSchedule } from '../modules/billing/renewal.compute.js';
import type { Quote } from '../modules/billing/types.js';
import { renewalNotDue } from '../modules/subscriptions/errors.js';
import { recordEvent, type EventInput } from '../modules/events/writer.js';
import { endSubscription, subscriptionEventInput, type EnvironmentScope } from '../modules/subscriptions/lifecycle.js';
import { subscriptionEventObjectOf } from '../modules/subscriptions/view.js';
import * as repo from '../modules/subscriptions/queries.js';
import { renewalMethod, renewalTerms, type RenewalItem } from '../modules/subscriptions/renewal-terms.js';

export type { RenewalItem };
import { lockSubscriptionForRenewal, renewalQuoteReads } from '../modules/subscriptions/queries.js';

export interface EngineDeps {
  db: Db;
  dunning: DunningSchedule;
  /** Announces that the customer's entitlements changed, in the transaction. */
  announce(tx: Tx, environmentId: string, customerId: string): Promise<void>;
  /** The same announcement as an SQL expression that a statement of the transaction carries, when there is one. */
  notice?(environmentId: string, customerId: string): RawBuilder<unknown>;
}

export interface RenewalResult extends Record<string, unknown> {
  subscriptionId: string;
  outcome: 'paid' | 'unpaid' | 'ended';
  invoiceId: string | null;
}

const LIVE = ['active', 'trialing', 'past_due'];

/** Whether the subscription, as read, is still due for the item. */
function isDue(row: repo.SubscriptionRow, item: RenewalItem): boolean {
  if (item.kind === 'end') return LIVE.includes(row.status) && row.end_date?.getTime() === item.at.getTime();
  const dueAt = item.kind === 'renew' ? row.current_period_end : row.trial_end;
  const trialing = row.status === 'trialing';
  return LIVE.includes(row.status) && dueAt?.getTime() === item.at.getTime() && trialing === (item.kind === 'trial_end');
}

/**
 * The subscription locked, with its customer (locked first) and what the renewal reads
 * (lockSubscriptionForRenewal), when the item is still what it is due for; else null.
 * Two queries.
 */
async function lockDue(tx: Tx, deps: EngineDeps, scope: EnvironmentScope, subscriptionId: string, item: RenewalItem) {
  const customer = await lockCustomerOfSubscription(tx, scope.environmentId, subscriptionId);
  if (!customer) return null;
  // The announcement rides on the lock's statement: it is sent if this transaction commits, as each renewal that commits must.
  const notice = deps.notice?.(scope.environmentId, customer.customer_id) ?? null;
  const reads = (await lockSubscriptionForRenewal(tx, scope, subscriptionId, notice))!;
  if (!notice) await deps.announce(tx, scope.environmentId, customer.customer_id);
  return isDue(reads.row, item) ? { ...reads, customer } : null;
}

/** What the provider is told a renewal's payment is for. */
function paymentDescription(purchase: { version: { name: string } }, row: repo.SubscriptionRow): string {
  return `${purchase.version.name} (${row.charge_period})`;
}

/**
 * Phase (a) of a renewal in one unlocked read (use-cases/payment-pipeline.ts, `quote`): the intent
 * of the renewal's claim if there is one, else the payment a paid renewal takes, with the
 * customer's usable saved method. Anything else (not due, a carried discount, which phase
 * (a) takes a cycle of, no usable method, nothing to pay, an archived customer) is left
 * to phase (a) in its transaction, as before.
 */
async function quoteRenewal(db: Executor, scope: EnvironmentScope, subscriptionId: string, item: RenewalItem, claim: IdempotencyClaim): Promise<QuickQuote> {
  const reads = await renewalQuoteReads(db, scope, subscriptionId, claim);
  const asBefore = { earlier: reads?.intent, payment: null };
  if (!reads || reads.intent || reads.customer.archived_at || reads.hasDiscount || !reads.usableMethod || !isDue(reads.row, item) || item.kind === 'end') {
    return asBefore;
  }
  const { purchase, charged } = await renewalTerms(db, reads.row, reads.customer, item, reads, null);
  if (charged.totalMinor === 0) return asBefore;
  return {
    earlier: undefined,
    payment: {
      method: reads.usableMethod,
      amountMinor: charged.totalMinor,
      currency: charged.currency,
      description: paymentDescription(purchase, reads.row),
      planVersionId: purchase.version.id,
    },
  };
}

type Payment = { paid: true; chargeRef: string | null } | { paid: false; failure: PaymentFailure };

async function pay(tx: Tx, step: PaymentStep, method: PaymentMethodRow | undefined, charged: Quote, description: string, versionId: string): Promise<Payment> {
  if (charged.totalMinor === 0) return { paid: true, chargeRef: null };
  if (!method) return { paid: false, failure: { code: 'payment_method_required', message: 'The customer has no payment method that can be charged' } };
  try {
    const chargeRef = await step.charge(tx, { method, amountMinor: charged.totalMinor, currency: charged.currency, description, planVersionId: versionId });
    return { paid: true, chargeRef };
  } catch (error) {
    if (!(error instanceof DomainError)) throw error;
    return { paid: false, failure: { code: error.code, message: error.detail } };
  }
}

/** The subscription as a renewal left it: its row and whether an invoice of it is unpaid. */
export type RenewedState = Pick<repo.BillingState, 'row' | 'hasUnpaidInvoice'>;

/**
 * The renewal in one transaction, taking its payment through `step`; `renewed` hears the
 * subscription as the renewal leaves it (a hint for what is due next: it is not called
 * when the transaction rolls back before the update, and may be when it fails after it).
 */
async function renewWith(
  deps: EngineDeps,
  clock: Clock,
  scope: EnvironmentScope,
  subscriptionId: string,
  item: RenewalItem,
  step: PaymentStep,
  renewed?: (state: RenewedState) => void,
) {
  return inTransaction(deps.db, async (tx): Promise<RenewalResult> => {
    const locked = await lockDue(tx, deps, scope, subscriptionId, item);
    // Nothing to do any more (already renewed, cancelled, changed): a payment taken for it goes back (pipeline).
    if (!locked) throw renewalNotDue();
    if (item.kind === 'end') return endWith(tx, clock, scope, locked, item, step);
    const { row, customer } = locked;
    const now = clock.now();
    // A discount carried from the purchase takes one of its cycles (a renewal that rolls back gives it back).
    const carried = locked.hasDiscount ? await discountForRenewal(tx, row.id) : null;
    const discount = carried ? quoteDiscountOf(carried) : null;
    const { anchor, period, purchase, charged, fromCredit } = await renewalTerms(tx, row, customer, item, locked, discount);
    const method = await renewalMethod(tx, row, customer, locked.usableMethod);
    const payment = await pay(tx, step, method, charged, paymentDescription(purchase, row), purchase.version.id);

    if (!payment.paid && item.kind === 'trial_end' && !method) {
      // A trial without a way to pay ends with the trial (decision 0029): nothing was owed yet.
      await endSubscription(tx, scope, row, item.at, 'CANCELLED_BY_PROVIDER');
      return finish(tx, step, { subscriptionId: row.id, outcome: 'ended', invoiceId: null });
    }
    const usage = row.current_period_start ? { start: row.current_period_start, end: period.start } : null;
    const input = orderInput({ scope, clock, locked, purchase, charged, period, usage, fromCredit }, { method, payment }, item.kind === 'renew');
    const previous = { status: row.status, billing_period_start_time: row.current_period_start, billing_period_end_time: row.current_period_end };
    // A paid renewal leaves the subscription past_due while an earlier invoice is unpaid (read under the lock: the new one is paid).
    const next = await repo.updateSubscription(tx, row.id, {
      status: payment.paid && !locked.hasUnpaidInvoice ? 'active' : 'past_due',
      current_period_start: period.start,
      current_period_end: period.end,
      billing_anchor: anchor,
      modified_at: now,
    });
    renewed?.({ row: next, hasUnpaidInvoice: next.status === 'past_due' });
    const object = subscriptionEventObjectOf(next, { ...purchase, customer }, scope.organizationId);
    const updated = subscriptionEventInput(scope, 'subscription.updated', object, previous, now);
    let invoiceId: string;
    if (payment.paid) {
      invoiceId = await recordPaid(tx, input, customer, fromCredit, [updated]);
    } else {
      invoiceId = (await recordUnpaid(tx, deps, input, payment.failure, method, now)).id;
      await recordEvent(tx, updated);
    }
    return finish(tx, step, { subscriptionId: row.id, outcome: payment.paid ? 'paid' : 'unpaid', invoiceId });
  });
}

type Locked = NonNullable<Awaited<ReturnType<typeof lockDue>>>;

/** The order a renewal or an end records, paid or waiting for its payment. */
function orderInput(
  c: {
    scope: EnvironmentScope;
    clock: Clock;
    locked: Locked;
    purchase: ResolvedPurchase;
    charged: Quote;
    period: { start: Date; end: Date };
    /** The period whose pay-as-you-go usage the invoice bills. */
    usage: { start: Date; end: Date } | null;
    fromCredit: number;
  },
  paid: { method: PaymentMethodRow | undefined; payment: Payment },
  isRenewal: boolean,
): PaidOrderInput {
  const { method, payment } = paid;
  return {
    scope: c.scope,
    clock: c.clock,
    customer: c.locked.customer,
    purchase: c.purchase,
    charged: c.charged,
    billingType: 'SUBSCRIPTION',
    subscriptionId: c.locked.row.id,
    isRenewal,
    method: payment.paid && c.charged.totalMinor > 0 ? (method ?? null) : null,
    chargeRef: payment.paid ? payment.chargeRef : null,
    period: c.period,
    linePeriods: { service: c.period, usage: c.usage },
    creditMinor: c.fromCredit,
  };
}

/**
 * A scheduled end takes effect (decision 0048): the pay-as-you-go usage of the period it
 * cuts short is billed, once, under the end's own key, then the subscription is canceled.
 * A refused payment leaves that invoice unpaid, without retries (the subscription is over):
 * the seller may collect it by hand (POST /invoices/{id}/pay/).
 */
async function endWith(tx: Tx, clock: Clock, scope: EnvironmentScope, locked: Locked, item: RenewalItem, step: PaymentStep): Promise<RenewalResult> {
  const { row, customer } = locked;
  const { period, purchase, charged, fromCredit } = await renewalTerms(tx, row, customer, item, locked, null);
  let invoiceId: string | null = null;
  if (purchase.quote.lines.length > 0) {
    const method = await renewalMethod(tx, row, customer, locked.usableMethod);
    const payment = await pay(tx, step, method, charged, paymentDescription(purchase, row), purchase.version.id);
    const input = orderInput({ scope, clock, locked, purchase, charged, period, usage: period, fromCredit }, { method, payment }, false);
    invoiceId = payment.paid
      ? await recordPaid(tx, input, customer, fromCredit, [])
      : (await recordUnpaidRenewal(tx, input, { failure: payment.failure, nextAttemptAt: null, methodId: method?.id ?? null })).id;
  }
  await endSubscription(tx, scope, row, item.at, 'CANCELLED_BY_MERCHANT');
  return finish(tx, step, { subscriptionId: row.id, outcome: 'ended', invoiceId });
}

async function finish(tx: Tx, step: PaymentStep, result: RenewalResult): Promise<RenewalResult> {
  await step.finish(tx, result);
  return result;
}

/** The paid renewal's records, its events followed by `updated` (the subscription's), all in one insert. */
async function recordPaid(tx: Tx, input: PaidOrderInput, customer: CustomerRow, fromCredit: number, after: EventInput[]): Promise<string> {
  const paid = await recordPaidOrder(tx, input, after);
  if (fromCredit > 0) await setCustomerCredit(tx, customer.id, customer.credit_minor - fromCredit);
  return paid.invoiceId;
}

function recordUnpaid(tx: Tx, deps: EngineDeps, input: PaidOrderInput, failure: PaymentFailure, method: PaymentMethodRow | undefined, now: Date) {
  const next = nextAttemptAt(deps.dunning, { attempts: 1, firstFailedAt: now, failedAt: now, code: failure.code });
  return recordUnpaidRenewal(tx, input, { failure, nextAttemptAt: next, methodId: method?.id ?? null });
}

/**
 * Renews the subscription for the period that begins at `item.at`, paying through
 * the pipeline; `clock` gives the time the renewal happens at (a test clock's).
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
  return purchaseTwoPhase<RenewalResult>(deps.db, clock, {
    kind: 'renewal',
    request: { scope, body: { subscriptionId, kind: item.kind, at: item.at.toISOString() } },
    idempotency,
    status: 200,
    quote: () => quoteRenewal(deps.db, scope, subscriptionId, item, idempotency),
    run: (step) => renewWith(deps, clock, scope, subscriptionId, item, step, renewed),
  });
}
