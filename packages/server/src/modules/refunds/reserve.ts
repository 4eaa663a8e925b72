import type { Tx } from '../../db/transaction.js';
import { newId } from '../../lib/crypto.js';
import { recordEvent } from '../events/writer.js';
import * as orders from '../ledger/queries.js';
import { orderWebhookParts } from '../ledger/webhook.js';
import type { RefundPlan, RefundState } from './plan.compute.js';
import * as repo from './repo.js';
import type { SettleContext } from './settle.js';
import { refundWebhookObject } from './webhook.js';

/** The order to refund, locked, with what is being refunded of it and its captured charge. */
export async function loadRefundState(tx: Tx, environmentId: string, orderId: string): Promise<RefundState & { order: orders.OrderRow | undefined }> {
  const order = await orders.findOrder(tx, environmentId, orderId, { forUpdate: true });
  if (!order) return { order, processingMinor: 0, chargeRef: null };
  const [processingMinor, charge] = await Promise.all([repo.processingRefundsTotal(tx, order.id), repo.chargeOf(tx, order.id)]);
  return { order, processingMinor, chargeRef: charge?.provider_ref ?? null };
}

/** Who records the refund's intent: the environment, the request's key, the process holding it. */
export interface RefundIntentOwner {
  scope: SettleContext['scope'];
  idempotency: { scope: string; key: string } | null;
  holder: repo.RefundRow['holder'];
  now: Date;
}

/** The refund's intent: the refund recorded as PROCESSING and announced (refund.created). */
export async function recordRefundIntent(tx: Tx, plan: RefundPlan, owner: RefundIntentOwner): Promise<repo.RefundRow> {
  const order = (await orders.findOrder(tx, owner.scope.environmentId, plan.orderId))!;
  const refund = await repo.insertRefund(tx, {
    id: newId(),
    environment_id: owner.scope.environmentId,
    order_id: plan.orderId,
    amount_minor: plan.amountMinor,
    currency: plan.currency,
    reason: plan.reason,
    internal_note: plan.internalNote,
    status: 'PROCESSING',
    failure_reason: null,
    provider_ref: null,
    created_at: owner.now,
    modified_at: owner.now,
    idempotency_scope: owner.idempotency?.scope ?? null,
    idempotency_key: owner.idempotency?.key ?? null,
    holder: owner.holder,
  });
  const parts = await orderWebhookParts(tx, order);
  await recordEvent(tx, {
    environmentId: owner.scope.environmentId,
    organizationId: owner.scope.organizationId,
    type: 'refund.created',
    data: refundWebhookObject(refund, order, parts.customer, owner.scope.organizationId),
    at: owner.now,
  });
  return refund;
}
