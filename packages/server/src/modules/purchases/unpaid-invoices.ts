/**
 * The ledger of renewals that were not paid at once (decision 0029): a PENDING
 * order (never shown) with its OPEN or PAYMENT_FAILED invoice, each failed
 * attempt to collect it, and its settlement once paid.
 */
import { newId } from '../../lib/crypto.js';
import { newPayToken, payLinkBase, payLinkExpiry, payLinkUrl } from '../../lib/pay-links.js';
import type { Tx } from '../../db/transaction.js';
import { recordEvent } from '../events/writer.js';
import * as ledger from '../ledger/queries.js';
import { invoiceWebhookObject, orderWebhookObject, orderWebhookParts } from '../ledger/webhook.js';
import type { CustomerRow, PaymentMethodRow, PurchaseScope } from './purchase.js';
import { periodFields, recordedOf, writeCharge, writeInvoice, writeOrder, writeTimeline, type PaidOrderInput } from './record.js';

export interface PaymentFailure {
  code: string;
  message: string;
}

export interface UnpaidRenewal {
  failure: PaymentFailure;
  /** When the next attempt falls due; null: none will be made. */
  nextAttemptAt: Date | null;
  /** The method the failed attempt used, if there was one. */
  methodId: number | null;
}

interface InvoiceEventContext {
  scope: PurchaseScope;
  customer: CustomerRow;
  product: { id: string; name: string };
  subscriptionId: string | null;
  at: Date;
}

function invoiceEvent(tx: Tx, c: InvoiceEventContext, type: string, invoice: ledger.InvoiceRow, previous?: Record<string, unknown>) {
  return recordEvent(tx, {
    environmentId: c.scope.environmentId,
    organizationId: c.scope.organizationId,
    type,
    data: invoiceWebhookObject(invoice, { ...c, paymentLink: invoice.pay_token ? payLinkUrl(payLinkBase(c.scope.environment), invoice.pay_token) : null }, c.scope.organizationId),
    ...(previous ? { previousAttributes: previous } : {}),
    at: c.at,
  });
}

/**
 * A renewal whose payment failed: its order waits (PENDING) and its invoice is
 * PAYMENT_FAILED, with the attempt counted and the next one scheduled.
 * Events: invoice.created, then invoice.payment_failed.
 */
export async function recordUnpaidRenewal(tx: Tx, input: PaidOrderInput, unpaid: UnpaidRenewal): Promise<ledger.InvoiceRow> {
  const recorded = recordedOf(input);
  await writeOrder(tx, recorded, 'PENDING');
  await writeInvoice(tx, recorded, {
    ...periodFields(input, 1),
    status: 'PAYMENT_FAILED',
    paid_at: null,
    due_at: recorded.now,
    next_attempt_at: unpaid.nextAttemptAt,
    failure_code: unpaid.failure.code,
    failure_message: unpaid.failure.message,
    last_method_id: unpaid.methodId,
    pay_token: newPayToken(),
    pay_token_expires_at: payLinkExpiry(recorded.now),
  });
  const invoice = (await ledger.lockInvoice(tx, input.scope.environmentId, recorded.invoiceId))!;
  const context = { ...input, product: input.purchase.product, at: recorded.now };
  await invoiceEvent(tx, context, 'invoice.created', { ...invoice, status: 'OPEN' });
  // As in the reference, invoice.payment_failed carries no previous_attributes (webhook-events.json).
  await invoiceEvent(tx, context, 'invoice.payment_failed', invoice);
  return invoice;
}

export interface Collection {
  scope: PurchaseScope;
  now: Date;
  customer: CustomerRow;
  invoice: ledger.InvoiceRow;
}

/** Another attempt failed: counted, with its reason and the next attempt (null: dunning is over). Event: invoice.payment_failed. */
export async function recordFailedCollection(
  tx: Tx,
  c: Collection,
  failure: PaymentFailure,
  next: { at: Date | null; methodId: number | null },
): Promise<ledger.InvoiceRow> {
  const updated = await ledger.updateInvoice(tx, c.invoice.id, {
    status: 'PAYMENT_FAILED',
    attempt_count: c.invoice.attempt_count + 1,
    next_attempt_at: next.at,
    failure_code: failure.code,
    failure_message: failure.message,
    last_method_id: next.methodId,
    // Each failure gives the buyer's link (in its email) its full time again.
    pay_token_expires_at: payLinkExpiry(c.now),
    modified_at: c.now,
  });
  const order = (await ledger.findOrder(tx, c.scope.environmentId, c.invoice.order_id))!;
  const parts = await orderWebhookParts(tx, order);
  const context = { ...c, product: parts.product, subscriptionId: c.invoice.subscription_id, at: c.now };
  await invoiceEvent(tx, context, 'invoice.payment_failed', updated);
  return updated;
}

/** Dunning is over without a payment: no attempt is scheduled any more; the invoice stays unpaid. */
export async function stopCollecting(tx: Tx, invoice: ledger.InvoiceRow, at: Date): Promise<void> {
  await ledger.updateInvoice(tx, invoice.id, { next_attempt_at: null, modified_at: at });
}

/**
 * The invoice is paid: its order completes, the CHARGE transaction and the order's
 * timeline are written. Events: order.created, order.updated, invoice.paid.
 *
 * The PENDING order was never announced nor listed (decision 0029), so it is announced
 * now, when it becomes visible, with order.created; and since it existed before, as
 * PENDING, its change is told too: order.updated with the old status and paid_at. This
 * is the reference's order.updated example (PENDING → COMPLETE, DOMAIN.md §4.4), which
 * shows the very order of its order.created example at the same second.
 */
export async function recordCollectedInvoice(
  tx: Tx,
  c: Collection,
  payment: { method: PaymentMethodRow; chargeRef: string },
): Promise<void> {
  const { scope, now, invoice } = c;
  const order = await ledger.updateOrder(tx, invoice.order_id, {
    status: 'COMPLETE',
    paid_at: now,
    payment_method_id: payment.method.id,
    modified_at: now,
  });
  const paid = await ledger.updateInvoice(tx, invoice.id, {
    status: 'PAID',
    paid_at: now,
    attempt_count: invoice.attempt_count + 1,
    next_attempt_at: null,
    last_method_id: payment.method.id,
    modified_at: now,
  });
  const collected = {
    scope,
    now,
    orderId: order.id,
    invoiceId: invoice.id,
    subscriptionId: invoice.subscription_id,
    billingType: order.billing_type,
    charged: { totalMinor: invoice.total_minor, currency: invoice.currency, taxMinor: invoice.tax_minor },
    method: payment.method,
    chargeRef: payment.chargeRef,
  };
  await writeCharge(tx, collected, newId());
  await writeTimeline(tx, collected);
  const parts = await orderWebhookParts(tx, order);
  const base = { environmentId: scope.environmentId, organizationId: scope.organizationId, at: now };
  const orderObject = orderWebhookObject(order, parts, scope.organizationId);
  await recordEvent(tx, { ...base, type: 'order.created', data: orderObject });
  await recordEvent(tx, { ...base, type: 'order.updated', data: orderObject, previousAttributes: { status: 'PENDING', paid_at: null } });
  const context = { ...c, product: parts.product, subscriptionId: invoice.subscription_id, at: now };
  await invoiceEvent(tx, context, 'invoice.paid', paid, { status: invoice.status, paid_at: null });
}
