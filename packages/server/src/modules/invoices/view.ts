import type { Invoice, InvoiceLine } from '@billow/contract';
import { percentText } from '../billing/rounding.compute.js';
import { payLinkUrl } from '../../lib/pay-links.js';
import { currencySymbol, decimalText } from '../ledger/format.js';
import type { InvoiceDetailRow } from './repo.js';

export const invoicePdfUrl = (apiBase: string, id: string) => `${apiBase}/invoices/${encodeURIComponent(id)}/pdf/`;

const integer = (value: unknown): number | null => (typeof value === 'number' && Number.isSafeInteger(value) ? value : null);
const text = (value: unknown): string | null => (typeof value === 'string' ? value : null);

/** Stored lines are the quote's lines ({description, featureId, quantity, amountMinor}); read leniently. */
export function invoiceLines(stored: unknown[], currency: string): InvoiceLine[] {
  return stored.map((raw) => {
    const line = (raw && typeof raw === 'object' ? raw : {}) as Record<string, unknown>;
    const amountUnits = integer(line.amountMinor) ?? integer(line.amount_minor) ?? integer(line.amountUnits) ?? 0;
    return {
      description: text(line.description) ?? '',
      quantity: integer(line.quantity) ?? 1,
      featureId: text(line.featureId) ?? text(line.feature_id),
      amount: decimalText(amountUnits, currency),
      amountUnits,
    };
  });
}

export function toInvoice(row: InvoiceDetailRow, apiBase: string): Invoice {
  const currency = row.currency;
  return {
    id: row.id,
    number: row.number,
    status: row.status,
    orderId: row.order_id,
    subscriptionId: row.subscription_id,
    customer: { id: row.customer_id, customerId: row.customer_ref, name: row.customer_name, email: row.customer_email },
    currency,
    currencySymbol: currencySymbol(currency),
    amountSubtotal: decimalText(row.subtotal_minor, currency),
    amountDiscount: decimalText(row.discount_minor, currency),
    amountTax: decimalText(row.tax_minor, currency),
    amountTotal: decimalText(row.total_minor, currency),
    amountSubtotalUnits: row.subtotal_minor,
    amountDiscountUnits: row.discount_minor,
    amountTaxUnits: row.tax_minor,
    amountTotalUnits: row.total_minor,
    taxRate: percentText(row.tax_rate_bp),
    taxBehavior: row.tax_behavior,
    taxCountry: row.tax_country,
    taxReason: (row.tax_reason as Invoice['taxReason']) ?? null,
    buyerTaxId: row.buyer_tax_id ?? null,
    lines: invoiceLines(row.lines, currency),
    seller: row.seller,
    buyer: row.buyer,
    issuedOn: row.issued_at.toISOString(),
    dueDate: row.due_at ? row.due_at.toISOString() : null,
    paidAt: row.paid_at ? row.paid_at.toISOString() : null,
    modifiedOn: row.modified_at.toISOString(),
    pdfUrl: invoicePdfUrl(apiBase, row.id),
    periodStart: row.period_start ? row.period_start.toISOString() : null,
    periodEnd: row.period_end ? row.period_end.toISOString() : null,
    attemptCount: row.attempt_count,
    nextPaymentAttempt: row.next_attempt_at ? row.next_attempt_at.toISOString() : null,
    lastPaymentError: row.status !== 'PAID' && row.failure_code ? { code: row.failure_code, message: row.failure_message } : null,
    // The API base is the caller's root with the environment's prefix: the link the caller can reach.
    paymentLink: row.pay_token ? payLinkUrl(apiBase.replace(/\/api\/v1$/, ''), row.pay_token) : null,
  };
}
