import type { Invoice, InvoiceListQuery } from '@billow/contract';
import type { Db } from '../../db/connect.js';
import type { PageRequest } from '../../lib/pagination.js';
import { organizationName } from '../ledger/queries.js';
import type { LedgerScope } from '../ledger/scope.js';
import { sellerLogo } from '../seller-profile/queries.js';
import { invoiceDocument } from './document.js';
import { renderDocument } from './pdf/layout.js';
import { invoiceNotFound } from './errors.js';
import * as repo from './repo.js';
import { toInvoice } from './view.js';

export class InvoiceService {
  constructor(private readonly db: Db) {}

  async list(scope: LedgerScope, query: InvoiceListQuery, page: PageRequest, sort: repo.InvoiceSort | null = null): Promise<{ count: number; capped: boolean; results: Invoice[] }> {
    const filters: repo.InvoiceFilters = { customer: query.customer_id?.trim(), status: query.status, search: query.search?.trim() || undefined };
    // The count and the page at once, on two connections: with a million invoices the count is most of the time (decision 0079).
    const [{ count, capped }, rows] = await Promise.all([
      repo.countInvoices(this.db, scope.environmentId, filters, page.countUpTo ?? null),
      repo.listInvoices(this.db, scope.environmentId, filters, { limit: page.pageSize, offset: page.offset, sort }),
    ]);
    return { count, capped, results: rows.map((row) => toInvoice(row, scope.apiBase)) };
  }

  private async find(scope: LedgerScope, id: string): Promise<repo.InvoiceDetailRow> {
    const row = await repo.findInvoice(this.db, scope.environmentId, id);
    if (!row) throw invoiceNotFound(id);
    return row;
  }

  async get(scope: LedgerScope, id: string): Promise<Invoice> {
    return toInvoice(await this.find(scope, id), scope.apiBase);
  }

  /**
   * The invoice as a PDF, with the seller and buyer as the invoice recorded them: in the
   * language asked for, else the customer's locale, else the seller's language (decision 0072).
   */
  async pdf(scope: LedgerScope, id: string, options: { language?: string | null } = {}): Promise<{ fileName: string; bytes: Buffer }> {
    const row = await this.find(scope, id);
    const fallbackName = (await organizationName(this.db, scope.organizationId)) ?? 'Seller';
    const logo = await sellerLogo(this.db, scope.environmentId);
    return { fileName: `${row.id}.pdf`, bytes: await renderDocument({ ...invoiceDocument(row, fallbackName, options.language ?? null), logo }) };
  }
}
