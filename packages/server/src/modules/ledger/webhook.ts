import { decimalText } from './format.js';
import * as repo from './repo.js';
import type { Executor } from '../../db/transaction.js';

/** The customer inside webhook objects (snake_case, as the reference's examples). */
export function customerWebhookObject(customer: repo.CustomerRow) {
  const address = (customer.billing_address ?? {}) as Record<string, unknown>;
  return {
    id: customer.id,
    name: customer.name,
    email: customer.email,
    customer_id: customer.customer_id,
    billing_address: {
      line1: address.line1 ?? null,
      line2: address.line2 ?? null,
      city: address.city ?? null,
      state: address.state ?? null,
      postal_code: address.postalCode ?? address.postal_code ?? null,
      country: address.country ?? null,
    },
  };
}

export interface OrderWebhookParts {
  customer: repo.CustomerRow;
  product: repo.ProductRow;
  plan: repo.PlanRow;
  version: repo.VersionRow;
}

/** What the `order.*` events carry about the order. */
export function orderWebhookObject(order: repo.OrderRow, parts: OrderWebhookParts, organizationId: string) {
  return {
    id: order.id,
    object: 'order',
    status: order.status,
    billing_type: order.billing_type,
    customer_id: order.customer_id,
    customer: customerWebhookObject(parts.customer),
    organization: organizationId,
    is_renewal: order.is_renewal,
    paid_at: order.paid_at ? order.paid_at.toISOString() : null,
    amount_total: decimalText(order.total_minor, order.currency),
    amount_total_units: order.total_minor,
    currency: order.currency,
    subscription_id: order.subscription_id,
    product: { id: parts.product.id, name: parts.product.name },
    plan: { name: parts.version.name, version: parts.version.version, identifier: parts.plan.identifier },
    features: null,
    created_on: order.created_at.toISOString(),
    modified_on: order.modified_at.toISOString(),
  };
}

/** Loads what orderWebhookObject needs for one order. */
export async function orderWebhookParts(db: Executor, order: repo.OrderRow): Promise<OrderWebhookParts> {
  const [[customer], [product], [plan], [version]] = await Promise.all([
    repo.customersByIds(db, [order.customer_id]),
    repo.productsByIds(db, [order.product_id]),
    repo.plansByIds(db, [order.plan_id]),
    repo.versionsByIds(db, [order.plan_version_id]),
  ]);
  if (!customer || !product || !plan || !version) throw new Error(`Order ${order.id} refers to rows that are missing`);
  return { customer, product, plan, version };
}

/**
 * What the `invoice.*` events carry about an invoice. Beyond the reference, Billow adds (as
 * Stripe names them, decision 0070) `attempt_count`, the attempts to collect it so far, and
 * `next_payment_attempt`, when the next one is made (null: none is scheduled).
 */
export function invoiceWebhookObject(
  invoice: Pick<repo.InvoiceRow, 'id' | 'status' | 'paid_at' | 'total_minor' | 'currency' | 'due_at' | 'order_id' | 'issued_at' | 'modified_at'> &
    Partial<Pick<repo.InvoiceRow, 'attempt_count' | 'next_attempt_at'>>,
  parts: { customer: repo.CustomerRow; product: { id: string; name: string }; subscriptionId: string | null; paymentLink?: string | null },
  organizationId: string,
) {
  return {
    id: invoice.id,
    object: 'invoice',
    status: invoice.status,
    paid_at: invoice.paid_at ? invoice.paid_at.toISOString() : null,
    amount_total: decimalText(invoice.total_minor, invoice.currency),
    amount_total_units: invoice.total_minor,
    currency: invoice.currency,
    due_date: invoice.due_at ? invoice.due_at.toISOString() : null,
    order_id: invoice.order_id,
    customer_id: parts.customer.id,
    customer: customerWebhookObject(parts.customer),
    subscription_id: parts.subscriptionId,
    organization: organizationId,
    product: { id: parts.product.id, name: parts.product.name },
    created_on: invoice.issued_at.toISOString(),
    modified_on: invoice.modified_at.toISOString(),
    // The page where the customer pays an open or failed invoice (decision 0035); null when born paid.
    payment_link: parts.paymentLink ?? null,
    // An invoice born paid took one attempt (none when nothing was owed).
    attempt_count: invoice.attempt_count ?? (invoice.total_minor > 0 ? 1 : 0),
    next_payment_attempt: invoice.next_attempt_at ? invoice.next_attempt_at.toISOString() : null,
  };
}
