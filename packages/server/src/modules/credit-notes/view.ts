import type { CreditNote } from '@billow/contract';
import { percentText } from '../billing/rounding.compute.js';
import { decimalText } from '../ledger/format.js';
import { storedLines, taxTotals } from './lines.compute.js';
import type { CreditNoteDetailRow } from './repo.js';

export const creditNotePdfUrl = (apiBase: string, id: string) => `${apiBase}/credit-notes/${encodeURIComponent(id)}/pdf/`;

/** The credit note as the API and the `credit_note.created` event show it (the event without `pdfUrl`). */
export function creditNoteObject(row: CreditNoteDetailRow): Omit<CreditNote, 'pdfUrl'> {
  const currency = row.currency;
  const lines = storedLines(row.lines);
  return {
    id: row.id,
    object: 'credit_note',
    number: row.number,
    reason: row.reason,
    invoiceId: row.invoice_id,
    invoiceNumber: row.invoice_number,
    orderId: row.order_id,
    refundId: row.refund_id,
    subscriptionId: row.subscription_id,
    customer: { id: row.customer_id, customerId: row.customer_ref, name: row.customer_name, email: row.customer_email },
    currency,
    amountSubtotal: decimalText(row.subtotal_minor, currency),
    amountTax: decimalText(row.tax_minor, currency),
    amountTotal: decimalText(row.total_minor, currency),
    amountSubtotalUnits: row.subtotal_minor,
    amountTaxUnits: row.tax_minor,
    amountTotalUnits: row.total_minor,
    lines: lines.map((l) => ({
      description: l.description,
      quantity: l.quantity,
      amount: decimalText(l.amountMinor, currency),
      amountUnits: l.amountMinor,
      taxRate: percentText(l.taxRateBp),
      taxAmount: decimalText(l.taxMinor, currency),
      taxAmountUnits: l.taxMinor,
    })),
    taxTotals: taxTotals(lines).map((t) => ({ taxRate: percentText(t.taxRateBp), taxableAmountUnits: t.taxableMinor, taxAmountUnits: t.taxMinor })),
    seller: row.seller,
    buyer: row.buyer,
    issuedOn: row.issued_at.toISOString(),
  };
}

export function toCreditNote(row: CreditNoteDetailRow, apiBase: string): CreditNote {
  return { ...creditNoteObject(row), pdfUrl: creditNotePdfUrl(apiBase, row.id) };
}
