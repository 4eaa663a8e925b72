/**
 * A credit note as a printable document (decisions 0064, 0065): the same layout, words and
 * formats as the invoice it corrects, in the seller's language and time zone as recorded at
 * issue, with the invoice's number, the reason, the lines with their tax, and the amounts
 * per tax rate.
 */
import { addressLines, sellerParty } from '../invoices/document.js';
import type { PdfDocument, PdfParty } from '../invoices/pdf/document.js';
import { documentFormat } from '../invoices/pdf/format.js';
import { labelsFor, scriptOf, type Labels } from '../invoices/pdf/labels.js';
import { storedLines, taxTotals } from './lines.compute.js';
import type { CreditNoteDetailRow } from './repo.js';

const CREDIT_COLOUR = '#0969da';

const text = (value: unknown): string | null => (typeof value === 'string' && value.trim() !== '' ? value.trim() : null);
const record = (value: unknown): Record<string, unknown> | null =>
  value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : null;

/** The buyer as the corrected invoice recorded them; the customer as they are now where it recorded none. */
function buyerParty(row: CreditNoteDetailRow, labels: Labels, language: string): PdfParty {
  const buyer = row.buyer;
  const name = text(buyer.name) ?? row.customer_name;
  const email = text(buyer.email) ?? row.customer_email;
  const taxId = text(buyer.taxId);
  const lines = [
    ...(name && email ? [email] : []),
    ...addressLines(record(buyer.billingAddress) ?? record(buyer.billing_address), language),
    ...(taxId ? [labels.taxIdValue(taxId)] : []),
  ];
  return { name: name ?? email ?? labels.customer, lines };
}

/** `language`: the language asked for (a reader's); by default the customer's locale, else the seller's recorded at issue. */
export function creditNoteDocument(row: CreditNoteDetailRow, language: string | null = null): PdfDocument {
  const f = documentFormat([language, row.customer_locale, row.seller.language], row.seller.timeZone);
  const labels = labelsFor(f.language);
  const words = labels.creditNote;
  const lines = storedLines(row.lines);
  const rates = taxTotals(lines);
  const money = (minor: number) => f.money(minor, row.currency);
  const invoice = row.invoice_number ?? row.invoice_id;
  return {
    title: words.title,
    number: row.number,
    subject: `${words.title} ${row.number}${invoice ? ` (${invoice})` : ''}`,
    createdAt: row.issued_at,
    badge: { text: words.reasons[row.reason], colour: CREDIT_COLOUR },
    seller: sellerParty(row.seller, '—', labels, f.language),
    buyerHeading: words.creditedTo,
    buyer: buyerParty(row, labels, f.language),
    facts: [
      [words.number, row.number],
      [words.corrects, invoice ?? '—'],
      [labels.issueDate, f.date(row.issued_at)],
      [words.reason, words.reasons[row.reason]],
    ],
    columns: labels.columns,
    amountsIn: labels.amountsIn(row.currency),
    lines: lines.map((line) => ({
      description: line.description || words.fallbackLine,
      quantity: f.quantity(line.quantity),
      unitPrice: line.quantity === 1 ? f.decimal(line.amountMinor, row.currency) : '—',
      discount: '',
      taxRate: f.percent(line.taxRateBp),
      tax: f.decimal(line.taxMinor, row.currency),
      net: f.decimal(line.amountMinor, row.currency),
    })),
    rates: {
      heading: [labels.rates.rate, labels.rates.net, labels.rates.tax],
      rows: rates.map((r) => [f.percent(r.taxRateBp), money(r.taxableMinor), money(r.taxMinor)]),
    },
    totals: [
      { label: labels.totalNet, value: money(row.subtotal_minor) },
      { label: labels.totalTax, value: money(row.tax_minor) },
      { label: words.totalCredited, value: money(row.total_minor), strong: true, ruleAbove: true },
    ],
    // A credit note of a reverse-charged invoice is reverse-charged too, and says so.
    notes: row.invoice_tax_reason === 'reverse_charge' ? [labels.reverseCharge] : [],
    footer: (page, of) => labels.footer(row.number, page, of),
    script: scriptOf(f.language),
  };
}
