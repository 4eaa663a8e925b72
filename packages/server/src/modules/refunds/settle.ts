import type { Tx } from '../../db/transaction.js';
import type { EnvironmentKind } from '../../config.js';
import { newId } from '../../lib/crypto.js';
import { splitRefund } from '../billing/refunds.compute.js';
import { issueRefundCreditNote } from '../credit-notes/issue.js';
import type { Clock } from '../../lib/clock.js';
import { testClockTimeOf } from '../customers/queries.js';
import { recordEvent } from '../events/writer.js';
import { decimalText } from '../ledger/format.js';
import * as orders from '../ledger/queries.js';
import { orderWebhookObject, orderWebhookParts } from '../ledger/webhook.js';
import type { RefundOutcome } from '../payments/provider.js';
import * as repo from './repo.js';
import { refundWebhookObject } from './webhook.js';

/** Where a refund is settled: the environment, and what its events and timeline need. */
export interface SettleContext {
  tx: Tx;
  scope: { organizationId: string; environmentId: string; environment: EnvironmentKind };
  order: orders.OrderRow;
  refund: repo.RefundRow;
  parts: Awaited<ReturnType<typeof orderWebhookParts>>;
  now: Date;
  /** The amount as the timeline shows it, e.g. "-12.50". */
  primary: string;
  paymentMethodId: number | null;
  last4: string | null;
}

function timelineOf(c: SettleContext) {
  return { environmentId: c.scope.environmentId, orderId: c.order.id, subscriptionId: c.order.subscription_id, at: c.now };
}

function announceRefund(c: SettleContext, refund: repo.RefundRow, order: orders.OrderRow) {
  return recordEvent(c.tx, {
    environmentId: c.scope.environmentId,
    organizationId: c.scope.organizationId,
    type: 'refund.updated',
    data: refundWebhookObject(refund, order, c.parts.customer, c.scope.organizationId),
    previousAttributes: { status: 'PROCESSING' },
    at: c.now,
  });
}

/** The provider refused: the refund is FAILED, and the order stays as it was. */
async function settleFailed(c: SettleContext, reason: string): Promise<repo.RefundRow> {
  const failed = await repo.settleRefund(c.tx, c.refund.id, { status: 'FAILED', failure_reason: reason, provider_ref: null, modified_at: c.now });
  await orders.insertOrderEvent(c.tx, {
    ...timelineOf(c),
    code: 'refund.failed',
    title: 'Refund failed',
    status: 'failed',
    metadata: { primary: c.primary, secondary: reason, refundId: c.refund.id },
  });
  await announceRefund(c, failed, c.order);
  return failed;
}

/**
 * The money went back: the refund is SUCCEEDED, the order's refunded total grows (its
 * tax share computed against what was refunded before it), a REFUND transaction
 * takes it from the seller's balance, and a credit note documents it.
 */
async function settleSucceeded(c: SettleContext, providerRef: string): Promise<repo.RefundRow> {
  const split = splitRefund({
    currency: c.order.currency,
    orderTotalMinor: c.order.total_minor,
    orderTaxMinor: c.order.tax_minor,
    refundedMinor: c.order.refunded_minor,
    amountMinor: c.refund.amount_minor,
  });
  const succeeded = await repo.settleRefund(c.tx, c.refund.id, { status: 'SUCCEEDED', failure_reason: null, provider_ref: providerRef, modified_at: c.now });
  const updated = await orders.setRefunded(c.tx, c.order.id, { refundedMinor: split.refundedAfterMinor, status: split.orderStatus, at: c.now });
  await orders.insertRefundTransaction(c.tx, {
    id: newId(),
    environmentId: c.scope.environmentId,
    orderId: c.order.id,
    refundId: c.refund.id,
    currency: c.order.currency,
    amountMinor: -split.amountMinor,
    taxMinor: -split.taxMinor,
    netMinor: -split.netMinor,
    paymentMethodId: c.paymentMethodId,
    providerRef,
    // A refund leaves the balance at once.
    availableOn: c.now.toISOString().slice(0, 10),
    at: c.now,
  });
  await orders.insertOrderEvent(c.tx, {
    ...timelineOf(c),
    code: 'refund.succeeded',
    title: split.orderStatus === 'REFUNDED' ? 'Order refunded in full' : 'Order partially refunded',
    status: 'success',
    metadata: { primary: c.primary, secondary: c.last4 ? `card ending ${c.last4}` : 'original payment method', refundId: c.refund.id, reason: succeeded.reason },
  });
  await recordEvent(c.tx, {
    environmentId: c.scope.environmentId,
    organizationId: c.scope.organizationId,
    type: 'order.refunded',
    data: orderWebhookObject(updated, c.parts, c.scope.organizationId),
    previousAttributes: { status: c.order.status },
    at: c.now,
  });
  await announceRefund(c, succeeded, updated);
  // Last, so that the credit note sequence's counter is locked for the shortest time (decision 0065).
  await issueRefundCreditNote(c.tx, {
    scope: c.scope,
    orderId: c.order.id,
    refundId: c.refund.id,
    customer: c.parts.customer,
    currency: c.order.currency,
    netMinor: split.netMinor,
    taxMinor: split.taxMinor,
    taxRateBp: c.order.tax_rate_bp,
    full: split.refundedAfterMinor === c.order.total_minor && c.order.refunded_minor === 0,
    item: `${c.parts.product.name} - ${c.parts.version.name}`,
    at: c.now,
  });
  return succeeded;
}

/**
 * Records the provider's answer for a PROCESSING refund, once, at the customer's time (their
 * test clock's when they live by one): a refund settled already is returned as it is.
 */
export async function settleRefundOutcome(tx: Tx, scope: SettleContext['scope'], refundId: string, outcome: RefundOutcome, clock: Clock): Promise<repo.RefundRow> {
  const pending = await repo.findRefund(tx, scope.environmentId, refundId);
  const order = pending && (await orders.findOrder(tx, scope.environmentId, pending.order_id, { forUpdate: true }));
  const refund = order && (await repo.lockProcessingRefund(tx, refundId));
  if (!order || !refund) return (await repo.findRefund(tx, scope.environmentId, refundId))!;
  const charge = await repo.chargeOf(tx, order.id);
  const [method] = await orders.paymentMethodsByIds(tx, [charge?.payment_method_id ?? null]);
  const context: SettleContext = {
    tx,
    scope,
    order,
    refund,
    parts: await orderWebhookParts(tx, order),
    now: (await testClockTimeOf(tx, order.customer_id)) ?? clock.now(),
    primary: `-${decimalText(refund.amount_minor, order.currency)}`,
    paymentMethodId: charge?.payment_method_id ?? null,
    last4: method?.last4 ?? null,
  };
  return outcome.status === 'succeeded' ? settleSucceeded(context, outcome.providerRef) : settleFailed(context, outcome.message);
}
