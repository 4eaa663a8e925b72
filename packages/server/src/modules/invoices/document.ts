/**
 * An invoice as a printable document (decision 0064), in the seller's language and time
 * zone as recorded at issue: the seller and buyer blocks as the invoice recorded them, each
 * line in words with its service period, quantity, unit price, discount, tax rate and tax,
 * the amounts per tax rate, and the totals.
 */
import { lineAmounts, rateTotals, type LineAmounts, type RateAmounts } from './amounts.compute.js';
import type { PdfDocument, PdfLine, PdfParty, PdfTotal } from './pdf/document.js';
import { documentFormat, type DocumentFormat } from './pdf/format.js';
import { labelsFor, scriptOf, type Labels } from './pdf/labels.js';
import { countryName } from './pdf/text.js';
import type { InvoiceDetailRow } from './repo.js';
import { lineWords, storedLine, unitPrice, type StoredLine } from './wording.js';

const STATUS_COLOURS: Record<InvoiceDetailRow['status'], string> = { PAID: '#1a7f37', OPEN: '#9a6700', PAYMENT_FAILED: '#cf222e' };

const text = (value: unknown): string | null => (typeof value === 'string' && value.trim() !== '' ? value.trim() : null);
const record = (value: unknown): Record<string, unknown> | null =>
  value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : null;

/** An address as printed: street lines, postal code and city, region, country (in the document's language). */
export function addressLines(address: Record<string, unknown> | null, language = 'en'): string[] {
  if (!address) return [];
  const postal = text(address.postalCode) ?? text(address.postal_code);
  const country = text(address.country);
  return [
    text(address.line1),
    text(address.line2),
    [postal, text(address.city)].filter(Boolean).join(' ') || null,
    text(address.region) ?? text(address.state),
    country ? countryName(country, language) : null,
  ].filter((line): line is string => line !== null);
}

/** The seller as recorded at issue: legal name, address, tax ids (older invoices kept one `taxId`), contacts. */
export function sellerParty(seller: Record<string, unknown>, fallbackName: string, labels: Labels, language: string): PdfParty {
  const listed = Array.isArray(seller.taxIds) ? (seller.taxIds as Array<{ taxId?: unknown }>) : [];
  const ids = [...listed.map((t) => text(t.taxId)), text(seller.taxId)].filter((id): id is string => id !== null);
  const lines = [
    ...addressLines(record(seller.address) ?? record(seller.billingAddress), language),
    ...ids.map((id) => labels.taxIdValue(id)),
    text(seller.email),
    text(seller.website),
  ];
  return { name: text(seller.name) ?? fallbackName, lines: lines.filter((line): line is string => line !== null) };
}

/**
 * The buyer as recorded at issue, so a later change of the customer rewrites no issued
 * invoice; invoices issued before the buyer was recorded name the customer as they are now.
 */
export function buyerParty(row: InvoiceDetailRow, labels: Labels, language: string): PdfParty {
  const buyer = row.buyer;
  const recorded = 'customerId' in buyer;
  const name = recorded ? text(buyer.name) : (text(buyer.name) ?? row.customer_name);
  const email = recorded ? text(buyer.email) : (text(buyer.email) ?? row.customer_email);
  const address = record(buyer.billingAddress) ?? record(buyer.address) ?? (recorded ? null : row.customer_address);
  const taxId = text(buyer.taxId) ?? row.buyer_tax_id?.value ?? null;
  const lines = [...(name && email ? [email] : []), ...addressLines(address, language), ...(taxId ? [labels.taxIdValue(taxId)] : [])];
  return { name: name ?? email ?? labels.customer, lines };
}

function tableLine(line: StoredLine, amounts: LineAmounts, row: InvoiceDetailRow, f: DocumentFormat, labels: Labels): PdfLine {
  const unit = unitPrice(line);
  return {
    description: lineWords(line, f, labels, row.currency),
    quantity: f.quantity(line.quantity),
    unitPrice: unit === null ? '—' : f.decimal(unit, row.currency),
    discount: amounts.discountMinor === 0 ? '' : f.decimal(-amounts.discountMinor, row.currency),
    taxRate: f.percent(row.tax_rate_bp),
    tax: f.decimal(amounts.taxMinor, row.currency),
    net: f.decimal(amounts.netMinor, row.currency),
  };
}

/** Each line's share of the discount (customer credit is no discount) and of the tax. */
function amountsOf(row: InvoiceDetailRow, lines: StoredLine[]): LineAmounts[] {
  return lineAmounts({
    lineAmounts: lines.map((l) => l.amountMinor),
    discountMinor: row.discount_minor - row.credit_minor,
    taxMinor: row.tax_minor,
    taxRateBp: row.tax_rate_bp,
    taxBehavior: row.tax_behavior,
  });
}

/**
 * The taxable amount and tax per rate: the lines' sums, or, where the lines do not add up to
 * the subtotal (none were recorded, or older invoices), the invoice's own amounts.
 */
function ratesOf(row: InvoiceDetailRow, lines: StoredLine[], amounts: LineAmounts[]): RateAmounts[] {
  const sum = lines.reduce((acc, l) => acc + l.amountMinor, 0);
  if (lines.length > 0 && sum === row.subtotal_minor) return rateTotals(amounts.map((a) => ({ ...a, taxRateBp: row.tax_rate_bp })));
  const taxable = row.subtotal_minor - (row.discount_minor - row.credit_minor);
  const netMinor = row.tax_behavior === 'INCLUSIVE' ? taxable - row.tax_minor : taxable;
  return [{ taxRateBp: row.tax_rate_bp, netMinor, taxMinor: row.tax_minor }];
}

function totalsOf(row: InvoiceDetailRow, net: number, tax: number, f: DocumentFormat, labels: Labels): PdfTotal[] {
  const money = (minor: number) => f.money(minor, row.currency);
  const gross = net + tax;
  const carried = row.total_minor - (gross - row.credit_minor);
  return [
    { label: labels.totalNet, value: money(net) },
    { label: labels.totalTax, value: money(tax) },
    { label: labels.total, value: money(gross), strong: true, ruleAbove: true },
    ...(row.credit_minor > 0 ? [{ label: labels.creditApplied, value: money(-row.credit_minor) }] : []),
    ...(carried !== 0 ? [{ label: labels.creditCarried, value: money(carried) }] : []),
    row.status === 'PAID'
      ? { label: labels.amountPaid, value: money(row.total_minor) }
      : { label: labels.amountDue, value: money(row.total_minor), strong: true },
  ];
}

function factsOf(row: InvoiceDetailRow, lines: StoredLine[], f: DocumentFormat, labels: Labels): Array<[string, string]> {
  // Lines with a service period say when they were supplied; otherwise the supply is the day of issue.
  const supplied = lines.length > 0 && lines.every((l) => l.period !== null);
  return [
    [labels.invoiceNumber, row.number ?? row.id],
    [labels.issueDate, f.date(row.issued_at)],
    ...(supplied ? [] : ([[labels.supplyDate, f.date(row.issued_at)]] as Array<[string, string]>)),
    ...(row.paid_at ? ([[labels.paidOn, f.date(row.paid_at)]] as Array<[string, string]>) : []),
    ...(row.due_at && !row.paid_at ? ([[labels.dueDate, f.date(row.due_at)]] as Array<[string, string]>) : []),
    [labels.order, row.order_id],
  ];
}

/**
 * `language`: the language asked for (a reader's); by default the customer's locale, else the
 * seller's language recorded at issue (decision 0072).
 */
export function invoiceDocument(row: InvoiceDetailRow, sellerFallbackName: string, language: string | null = null): PdfDocument {
  const f = documentFormat([language, row.customer_locale, row.seller.language], row.seller.timeZone);
  const labels = labelsFor(f.language);
  const lines = row.lines.map(storedLine);
  const amounts = amountsOf(row, lines);
  const rates = ratesOf(row, lines, amounts);
  const net = rates.reduce((sum, r) => sum + r.netMinor, 0);
  const tax = rates.reduce((sum, r) => sum + r.taxMinor, 0);
  const money = (minor: number) => f.money(minor, row.currency);
  return {
    title: labels.invoice,
    number: row.number ?? row.id,
    subject: `${labels.invoice} ${row.number ?? row.id} (${row.order_id})`,
    createdAt: row.issued_at,
    badge: { text: labels.status[row.status], colour: STATUS_COLOURS[row.status] },
    seller: sellerParty(row.seller, sellerFallbackName, labels, f.language),
    buyerHeading: labels.billTo,
    buyer: buyerParty(row, labels, f.language),
    facts: factsOf(row, lines, f, labels),
    columns: labels.columns,
    amountsIn: labels.amountsIn(row.currency),
    lines: lines.map((line, i) => tableLine(line, amounts[i]!, row, f, labels)),
    rates: { heading: [labels.rates.rate, labels.rates.net, labels.rates.tax], rows: rates.map((r) => [f.percent(r.taxRateBp), money(r.netMinor), money(r.taxMinor)]) },
    totals: totalsOf(row, net, tax, f, labels),
    notes: [
      ...(row.tax_reason === 'reverse_charge' ? [labels.reverseCharge] : []),
      ...(row.tax_behavior === 'INCLUSIVE' ? [labels.pricesIncludeTax] : []),
      ...(row.tax_country ? [labels.taxCountryValue(countryName(row.tax_country, f.language))] : []),
    ],
    footer: (page, of) => labels.footer(row.number ?? row.id, page, of),
    script: scriptOf(f.language),
  };
}
