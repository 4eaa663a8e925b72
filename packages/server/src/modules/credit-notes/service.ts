import type { CreditNote, CreditNoteListQuery } from '@billow/contract';
import type { Db } from '../../db/connect.js';
import { isUuid } from '../../db/search.js';
import type { PageRequest } from '../../lib/pagination.js';
import type { LedgerScope } from '../ledger/scope.js';
import { creditNoteNotFound } from './errors.js';
import { renderDocument } from '../invoices/pdf/layout.js';
import { sellerLogo } from '../seller-profile/queries.js';
import { creditNoteDocument } from './document.js';
import * as repo from './repo.js';
import { toCreditNote } from './view.js';

type Scope = Pick<LedgerScope, 'environmentId' | 'apiBase'>;

export class CreditNoteService {
  constructor(private readonly db: Db) {}

  async list(scope: Scope, query: CreditNoteListQuery, page: PageRequest, sort: repo.CreditNoteSort | null = null): Promise<{ count: number; capped: boolean; results: CreditNote[] }> {
    const search = query.search?.trim() || undefined;
    const filters: repo.CreditNoteFilters = { customer: query.customer_id?.trim(), invoice: query.invoice_id?.trim(), reason: query.reason, search };
    const { count, capped } = await repo.countCreditNotes(this.db, scope.environmentId, filters, page.countUpTo ?? null);
    if (page.offset >= count) return { count, capped, results: [] };
    const rows = await repo.listCreditNotes(this.db, scope.environmentId, filters, { limit: page.pageSize, offset: page.offset, sort });
    return { count, capped, results: rows.map((row) => toCreditNote(row, scope.apiBase)) };
  }

  private async find(scope: Scope, id: string): Promise<repo.CreditNoteDetailRow> {
    const row = isUuid(id) ? await repo.findCreditNote(this.db, scope.environmentId, id) : undefined;
    if (!row) throw creditNoteNotFound(id);
    return row;
  }

  async get(scope: Scope, id: string): Promise<CreditNote> {
    return toCreditNote(await this.find(scope, id), scope.apiBase);
  }

  /** The credit note as a PDF: in the language asked for, else the customer's locale, else the seller's language (decision 0072). */
  async pdf(scope: Scope, id: string, options: { language?: string | null } = {}): Promise<{ fileName: string; bytes: Buffer }> {
    const row = await this.find(scope, id);
    const bytes = await renderDocument({ ...creditNoteDocument(row, options.language ?? null), logo: await sellerLogo(this.db, scope.environmentId) });
    return { fileName: `${row.number}.pdf`, bytes };
  }
}
