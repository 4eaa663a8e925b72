import { decimalText } from '../ledger/format.js';
import type * as orders from '../ledger/queries.js';
import { customerWebhookObject } from '../ledger/webhook.js';
import type * as repo from './repo.js';

/** What the `refund.*` events carry. */
export function refundWebhookObject(refund: repo.RefundRow, order: orders.OrderRow, customer: orders.CustomerRow, organizationId: string) {
  return {
    id: refund.id,
    object: 'refund',
    status: refund.status,
    amount: decimalText(refund.amount_minor, refund.currency),
    amount_units: refund.amount_minor,
    currency: refund.currency,
    reason: refund.reason,
    order_id: refund.order_id,
    customer: customerWebhookObject(customer),
    subscription_id: order.subscription_id,
    organization: organizationId,
    created_on: refund.created_at.toISOString(),
    modified_on: refund.modified_at.toISOString(),
  };
}
