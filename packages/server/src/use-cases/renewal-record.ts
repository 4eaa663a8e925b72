/**
 * What a renewal's plan becomes once its payment's outcome is known, in the transaction
 * that planned it (renew-subscription.ts): the new period and its invoice, paid or waiting
 * for dunning; a trial that ends with no way to pay; an end with the invoice of its usage.
 */
import type { RawBuilder } from 'kysely';
import type { Db } from '../db/connect.js';
import type { Tx } from '../db/transaction.js';
import { nextAttemptAt, type DunningSchedule } from '../modules/billing/renewal.compute.js';
import { setCustomerCredit } from '../modules/customers/queries.js';
import { discountForRenewal } from '../modules/discounts/queries.js';
import { recordEvent, type EventInput } from '../modules/events/writer.js';
import type { PaymentOutcome } from '../modules/purchases/payment.js';
import { recordPaidOrder, type PaidOrderInput } from '../modules/purchases/record.js';
import { recordUnpaidRenewal } from '../modules/purchases/unpaid-invoices.js';
import { endSubscription, subscriptionEventInput, type EnvironmentScope } from '../modules/subscriptions/lifecycle.js';
import * as repo from '../modules/subscriptions/queries.js';
import { settledPayment, type RenewalPlan, type RenewalState, type Settled } from '../modules/subscriptions/renewal-plan.compute.js';
import { subscriptionEventObjectOf } from '../modules/subscriptions/view.js';

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

/** The subscription as a renewal left it: its row and whether an invoice of it is unpaid. */
export type RenewedState = Pick<repo.BillingState, 'row' | 'hasUnpaidInvoice'>;

/** What the pipeline carries from a plan to its commit: the loaded state and the decision. */
export interface RenewalPlanned {
  state: RenewalState & { hasUnpaidInvoice: boolean };
  plan: RenewalPlan;
}

interface RecordContext {
  deps: EngineDeps;
  /** When the renewal is recorded (the customer's time). */
  now: Date;
  scope: EnvironmentScope;
  renewed?: (state: RenewedState) => void;
}

/** The order a renewal or an end records, paid or waiting for its payment. */
function orderInput(c: RecordContext, state: RenewalState, usage: { start: Date; end: Date } | null, settled: Settled): PaidOrderInput {
  const { purchase, charged, period, fromCredit } = state.terms;
  return {
    scope: c.scope,
    now: c.now,
    customer: state.customer,
    purchase,
    charged,
    billingType: 'SUBSCRIPTION',
    subscriptionId: state.row.id,
    isRenewal: state.item.kind === 'renew',
    method: settled.paid && charged.totalMinor > 0 ? (state.method ?? null) : null,
    chargeRef: settled.paid ? settled.chargeRef : null,
    period,
    linePeriods: { service: period, usage },
    creditMinor: fromCredit,
  };
}

/** The paid invoice's records, its events followed by `after`, all in one insert; the credit it used is spent. */
async function recordPaid(tx: Tx, input: PaidOrderInput, state: RenewalState, after: EventInput[]): Promise<string> {
  const paid = await recordPaidOrder(tx, input, after);
  const { fromCredit } = state.terms;
  if (fromCredit > 0) await setCustomerCredit(tx, state.customer.id, state.customer.credit_minor - fromCredit);
  return paid.invoiceId;
}

/**
 * A scheduled end takes effect (decision 0048): the pay-as-you-go usage of the period it
 * cuts short is billed, once, then the subscription is canceled. A refused payment leaves
 * that invoice unpaid, without retries (the subscription is over): the seller may collect
 * it by hand (POST /invoices/{id}/pay/).
 */
async function recordEnd(tx: Tx, c: RecordContext, { state, plan }: RenewalPlanned, outcome: PaymentOutcome): Promise<RenewalResult> {
  let invoiceId: string | null = null;
  if (plan.invoiced) {
    const settled = settledPayment(state, outcome);
    const input = orderInput(c, state, plan.usage, settled);
    invoiceId = settled.paid
      ? await recordPaid(tx, input, state, [])
      : (await recordUnpaidRenewal(tx, input, { failure: settled.failure, nextAttemptAt: null, methodId: state.method?.id ?? null })).id;
  }
  await endSubscription(tx, c.scope, state.row, state.item.at, 'CANCELLED_BY_MERCHANT');
  return { subscriptionId: state.row.id, outcome: 'ended', invoiceId };
}

/** The new period: the subscription moved on, and its invoice paid, or unpaid with its first retry scheduled. */
async function recordPeriod(tx: Tx, c: RecordContext, { state, plan }: RenewalPlanned, outcome: PaymentOutcome): Promise<RenewalResult> {
  const { row, customer, terms } = state;
  const { now } = c;
  // The carried discount's cycle is taken with the invoice it discounts (a rollback gives it back).
  if (plan.takesDiscountCycle) await discountForRenewal(tx, row.id);
  const settled = settledPayment(state, outcome);
  const input = orderInput(c, state, plan.usage, settled);
  const previous = { status: row.status, billing_period_start_time: row.current_period_start, billing_period_end_time: row.current_period_end };
  // A paid renewal leaves the subscription past_due while an earlier invoice is unpaid (read under the lock: the new one is paid).
  const next = await repo.updateSubscription(tx, row.id, {
    status: settled.paid && !state.hasUnpaidInvoice ? 'active' : 'past_due',
    current_period_start: terms.period.start,
    current_period_end: terms.period.end,
    billing_anchor: terms.anchor,
    // A version published with updatePricing takes the subscription over from this period on (decision 0113).
    plan_version_id: terms.purchase.version.id,
    price_id: terms.purchase.priceId,
    ...(terms.purchase.movedAmountMinor === undefined ? {} : { amount_minor: terms.purchase.movedAmountMinor }),
    modified_at: now,
  });
  c.renewed?.({ row: next, hasUnpaidInvoice: next.status === 'past_due' });
  const object = subscriptionEventObjectOf(next, { ...terms.purchase, customer }, c.scope.organizationId);
  const updated = subscriptionEventInput(c.scope, 'subscription.updated', object, previous, now);
  if (settled.paid) return { subscriptionId: row.id, outcome: 'paid', invoiceId: await recordPaid(tx, input, state, [updated]) };
  const retryAt = nextAttemptAt(c.deps.dunning, { attempts: 1, firstFailedAt: now, failedAt: now, code: settled.failure.code });
  const unpaid = await recordUnpaidRenewal(tx, input, { failure: settled.failure, nextAttemptAt: retryAt, methodId: state.method?.id ?? null });
  await recordEvent(tx, updated);
  return { subscriptionId: row.id, outcome: 'unpaid', invoiceId: unpaid.id };
}

/** Records a renewal's plan with its payment's outcome. */
export async function recordRenewal(tx: Tx, c: RecordContext, planned: RenewalPlanned, outcome: PaymentOutcome): Promise<RenewalResult> {
  const { state, plan } = planned;
  if (plan.action === 'end') return recordEnd(tx, c, planned, outcome);
  if (plan.action === 'end_trial') {
    // A trial without a way to pay ends with the trial (decision 0029): nothing was owed yet.
    await endSubscription(tx, c.scope, state.row, state.item.at, 'CANCELLED_BY_PROVIDER');
    return { subscriptionId: state.row.id, outcome: 'ended', invoiceId: null };
  }
  return recordPeriod(tx, c, planned, outcome);
}
