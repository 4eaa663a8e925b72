import type { Invoice, InvoiceListQuery } from '@billow/contract';
import type { Db } from '../../db/connect.js';
import type { PageRequest } from '../../lib/pagination.js';
import { organizationName } from '../ledger/queries.js';
import type { LedgerScope } from '../ledger/scope.js';
import { countryName, renderInvoicePdf, type InvoicePdf } from './pdf.js';
import { invoiceNotFound } from './errors.js';
import * as repo from './repo.js';
import { invoiceLines, toInvoice } from './view.js';

const text = (value: unknown): string | null => (typeof value === 'string' && value.trim() !== '' ? value.trim() : null);
const record = (value: unknown): Record<string, unknown> | null =>
  value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : null;

/** An address as printed: street lines, postal code and city, state, country. */
export function addressLines(address: Record<string, unknown> | null): string[] {
  if (!address) return [];
  const postal = text(address.postalCode) ?? text(address.postal_code);
  const city = text(address.city);
  const country = text(address.country);
  return [
    text(address.line1),
    text(address.line2),
    [postal, city].filter(Boolean).join(' ') || null,
    text(address.state),
    country ? countryName(country) : null,
  ].filter((line): line is string => line !== null);
}

/** The seller's tax ids as printed ("VAT ID DE123456788"); older invoices kept one `taxId`. */
function taxIdLines(seller: Record<string, unknown>): string[] {
  const listed = Array.isArray(seller.taxIds) ? (seller.taxIds as Array<{ country?: unknown; taxId?: unknown }>) : [];
  const ids = listed.map((t) => text(t.taxId)).filter((id): id is string => id !== null);
  const single = text(seller.taxId);
  return (single ? [...ids, single] : ids).map((id) => `Tax ID ${id}`);
}

/** What an invoice of a reverse-charged sale says (Art. 226(11a) asks for the mention). */
export const REVERSE_CHARGE_MENTION = 'Reverse charge: VAT to be accounted for by the recipient (Art. 196 Council Directive 2006/112/EC)';

export class InvoiceService {
  constructor(private readonly db: Db) {}

  async list(scope: LedgerScope, query: InvoiceListQuery, page: PageRequest): Promise<{ count: number; results: Invoice[] }> {
    const filters: repo.InvoiceFilters = { customer: query.customer_id?.trim(), status: query.status };
    const count = await repo.countInvoices(this.db, scope.environmentId, filters);
    if (page.offset >= count) return { count, results: [] };
    const rows = await repo.listInvoices(this.db, scope.environmentId, filters, page.pageSize, page.offset);
    return { count, results: rows.map((row) => toInvoice(row, scope.apiBase)) };
  }

  private async find(scope: LedgerScope, id: string): Promise<repo.InvoiceDetailRow> {
    const row = await repo.findInvoice(this.db, scope.environmentId, id);
    if (!row) throw invoiceNotFound(id);
    return row;
  }

  async get(scope: LedgerScope, id: string): Promise<Invoice> {
    return toInvoice(await this.find(scope, id), scope.apiBase);
  }

  /** The invoice as a PDF; seller and buyer as recorded on the invoice, else as they are now. */
  async pdf(scope: LedgerScope, id: string): Promise<{ fileName: string; bytes: Buffer }> {
    const row = await this.find(scope, id);
    const seller = row.seller;
    const buyer = row.buyer;
    const sellerName = text(seller.name) ?? (await organizationName(this.db, scope.organizationId)) ?? 'Seller';
    const sellerDetails = [
      ...addressLines(record(seller.address) ?? record(seller.billingAddress)),
      ...taxIdLines(seller),
      text(seller.email),
      text(seller.website),
    ].filter((line): line is string => line !== null);
    const document: InvoicePdf = {
      number: row.number ?? row.id,
      status: row.status,
      issuedOn: row.issued_at,
      dueOn: row.due_at,
      paidOn: row.paid_at,
      orderId: row.order_id,
      seller: { name: sellerName, details: sellerDetails },
      buyer: {
        name: text(buyer.name) ?? row.customer_name,
        email: text(buyer.email) ?? row.customer_email,
        address: [
          ...addressLines(record(buyer.billingAddress) ?? record(buyer.billing_address) ?? record(buyer.address) ?? row.customer_address),
          ...((text(buyer.taxId) ?? row.buyer_tax_id?.value) ? [`Tax ID: ${text(buyer.taxId) ?? row.buyer_tax_id?.value}`] : []),
        ],
      },
      currency: row.currency,
      lines: invoiceLines(row.lines, row.currency).map((line) => ({
        description: line.description,
        quantity: line.quantity,
        amountMinor: line.amountUnits,
      })),
      subtotalMinor: row.subtotal_minor,
      discountMinor: row.discount_minor,
      taxMinor: row.tax_minor,
      totalMinor: row.total_minor,
      taxRateBp: row.tax_rate_bp,
      taxCountry: row.tax_country,
      taxBehavior: row.tax_behavior,
      notes: row.tax_reason === 'reverse_charge' ? [REVERSE_CHARGE_MENTION] : [],
    };
    return { fileName: `${row.id}.pdf`, bytes: await renderInvoicePdf(document) };
  }
}
