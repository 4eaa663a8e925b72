/**
 * A change of plan, period or quantities taking effect (decision 0035): shared by the
 * change that is paid at once (service.ts) and the activate_on_payment change paid
 * later on the hosted page (plan-change-pending.ts), so that both record the same things.
 */
import { setCustomerCredit } from '../modules/customers/queries.js';
import type { Insertable } from 'kysely';
import type { SubscriptionUpdate } from '@billow/contract';
import type { SubscriptionsTable } from '../db/schema.js';
import type { Tx } from '../db/transaction.js';
import { recordPaidOrder } from '../modules/purchases/record.js';
import { subscriptionValues, type CustomerRow, type PaymentMethodRow, type PurchaseScope, type ResolvedPurchase } from '../modules/purchases/purchase.js';
import { splitTax } from '../modules/billing/tax.compute.js';
import { issueProrationCreditNote } from '../modules/credit-notes/issue.js';
import { recordEvent } from '../modules/events/writer.js';
import { carryDiscount, type ResolvedDiscount } from '../modules/discounts/queries.js';
import { customerWebhookObject } from '../modules/ledger/webhook.js';
import type { ChangeTerms } from '../modules/subscriptions/change.compute.js';
import type { LinePeriods } from '../modules/invoices/issue.compute.js';
import * as repo from '../modules/subscriptions/queries.js';
import { subscriptionEventObject, subscriptionObject } from '../modules/subscriptions/view.js';

export interface SettledChange {
  row: repo.SubscriptionRow;
  customer: CustomerRow;
  purchase: ResolvedPurchase;
  successor: Insertable<SubscriptionsTable>;
  now: Date;
  fromCredit: number;
  toCharge: number;
  terms: ChangeTerms;
  method: PaymentMethodRow | undefined;
  chargeRef: string | null;
  /** The discount the successor carries on (decision 0049). */
  discount: ResolvedDiscount | null;
  /** The incomplete record of a paid activate_on_payment change: it becomes the successor instead of a new row. */
  pendingId?: string;
}

/** The record that follows `row` after the change: the new plan's terms, the same start date and currency. */
export function successorOf(
  scope: PurchaseScope,
  c: { row: repo.SubscriptionRow; customer: CustomerRow; purchase: ResolvedPurchase; input: SubscriptionUpdate; terms: ChangeTerms; now: Date; method: PaymentMethodRow | undefined },
): Insertable<SubscriptionsTable> {
  const { row, terms } = c;
  return {
    ...subscriptionValues(scope, c.customer, c.purchase, {
      chargePeriod: c.input.chargePeriod,
      status: terms.trialEnd ? 'trialing' : 'active',
      now: c.now,
      startDate: row.start_date,
      periodStart: terms.periodStart,
      periodEnd: terms.periodEnd,
      trialEnd: terms.trialEnd,
      paymentMethodId: c.method?.id ?? row.payment_method_id,
      // A change within the same period keeps counting periods from the same day.
      anchor: terms.periodStart.getTime() === row.current_period_start?.getTime() ? row.billing_anchor : null,
    }),
    currency: row.currency,
    previous_subscription_id: row.id,
  };
}

/** The successor as a row: inserted, or the waiting record of a paid change brought to its terms. */
async function successorRow(tx: Tx, c: SettledChange): Promise<repo.SubscriptionRow> {
  if (!c.pendingId) return repo.insertSubscription(tx, c.successor);
  const { id: _id, created_at: _created, ...terms } = c.successor;
  return repo.updateSubscription(tx, c.pendingId, { ...terms, pending_expires_at: null });
}

/** What the change's invoice lines are for: the old period's unused time and usage, the new plan's time. */
function changePeriods(c: SettledChange): LinePeriods {
  const { row, now, terms } = c;
  const oldEnd = row.current_period_end;
  return {
    service: terms.periodEnd ? { start: terms.periodStart, end: terms.periodEnd } : null,
    remaining: terms.periodEnd ? { start: now, end: terms.periodEnd } : null,
    unused: oldEnd ? { start: now, end: oldEnd } : null,
    usage: row.current_period_start ? { start: row.current_period_start, end: now } : null,
  };
}

/** The change takes effect: the old record is superseded, credit moves, the amount due gets its order. */
export async function commitChange(tx: Tx, scope: PurchaseScope, c: SettledChange) {
  await repo.updateSubscription(tx, c.row.id, { status: 'superseded', modified_at: c.now });
  const next = await successorRow(tx, c);
  // First the change, then the order and invoice events of what it costs (DOMAIN.md §4.6). The previous
  // attributes are the whole previous record as it was before the change, as in the reference's example.
  const object = subscriptionObject(next, {
    plan: { name: c.purchase.version.name, version: c.purchase.version.version, identifier: c.purchase.plan.identifier },
    product: { id: c.purchase.product.id, name: c.purchase.product.name },
    customer: customerWebhookObject(c.customer),
    organization: scope.organizationId,
    features: null,
  });
  const base = { environmentId: scope.environmentId, organizationId: scope.organizationId, at: c.now };
  await recordEvent(tx, { ...base, type: 'subscription.plan_changed', data: object, previousAttributes: await subscriptionEventObject(tx, c.row, scope.organizationId) });
  // The successor is a subscription of its own (docs/webhooks.md §5): it starts now.
  await recordEvent(tx, { ...base, type: 'subscription.created', data: object });
  // A change that starts a period (another charge period, the end of a trial) starts one of the discount's cycles.
  const startsPeriod = !c.terms.trialEnd && c.terms.periodStart.getTime() !== c.row.current_period_start?.getTime();
  if (c.discount) await carryDiscount(tx, c.row.id, next.id, startsPeriod);
  await creditUnusedTime(tx, scope, c);
  const balance = c.customer.credit_minor - c.fromCredit + c.terms.creditMinor;
  if (balance !== c.customer.credit_minor) await setCustomerCredit(tx, c.customer.id, balance);
  const bill = c.terms.bill;
  // An invoice when the change costs something, or bills usage (once, even when credit covers it).
  const invoiced = bill && (bill.totalMinor > 0 || bill.lines.some((l) => l.featureId !== null));
  let order: { orderId: string; invoiceId: string } | null = null;
  if (invoiced) {
    order = await recordPaidOrder(tx, {
      scope,
      now: c.now,
      customer: c.customer,
      purchase: c.purchase,
      charged: { ...c.purchase.quote, ...bill, discountMinor: bill.discountMinor + c.fromCredit, totalMinor: c.toCharge },
      billingType: 'SUBSCRIPTION',
      subscriptionId: next.id,
      method: c.toCharge > 0 ? (c.method ?? null) : null,
      chargeRef: c.chargeRef,
      linePeriods: changePeriods(c),
      creditMinor: c.fromCredit,
    });
  }
  return { subscriptionId: next.id, customerId: c.customer.customer_id, order };
}

/**
 * The credit note of the old period's unused time (decision 0065), against the superseded
 * subscription's last invoice, taxed as the change's invoice taxes it (by the new price).
 * Its total is the customer's credit (`terms.creditMinor`), which pays the change's invoice.
 */
async function creditUnusedTime(tx: Tx, scope: PurchaseScope, c: SettledChange): Promise<void> {
  const unused = c.terms.unused;
  if (!unused) return;
  const taxed = c.terms.bill ?? c.purchase.quote;
  const split = splitTax(-unused.amountMinor, taxed.taxRateBp, taxed.taxBehavior);
  await issueProrationCreditNote(tx, {
    scope,
    subscriptionId: c.row.id,
    customer: c.customer,
    currency: c.row.currency,
    description: unused.description,
    netMinor: split.netMinor,
    taxMinor: split.taxMinor,
    taxRateBp: taxed.taxRateBp,
    at: c.now,
  });
}
