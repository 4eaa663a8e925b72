import type { Order, Refund, RefundListQuery } from '@billow/contract';
import type { Db } from '../../db/connect.js';
import type { Executor } from '../../db/transaction.js';
import { isUuid } from '../../db/search.js';
import type { PageRequest } from '../../lib/pagination.js';
import { dateRange, majorNumber, searchTerm } from '../ledger/format.js';
import type { OrderPresenter } from '../ledger/presenter.js';
import type { LedgerScope } from '../ledger/scope.js';
import { refundNotFound } from './errors.js';
import * as repo from './repo.js';

export function toRefund(row: repo.RefundRow, order: Order): Refund {
  return {
    id: row.id,
    reason: row.reason as Refund['reason'],
    amountUnits: row.amount_minor,
    amount: majorNumber(row.amount_minor, row.currency),
    currency: row.currency,
    internalNote: row.internal_note,
    failureReason: row.failure_reason,
    status: row.status,
    order,
    createdOn: row.created_at.toISOString(),
    modifiedOn: row.modified_at.toISOString(),
  };
}

export class RefundService {
  constructor(
    private readonly db: Db,
    private readonly presenter: OrderPresenter,
  ) {}

  /** A refund as the API answers it. */
  async present(db: Executor, scope: LedgerScope, row: repo.RefundRow): Promise<Refund> {
    return (await this.presentAll(db, scope, [row]))[0]!;
  }

  private async presentAll(db: Executor, scope: LedgerScope, rows: repo.RefundRow[]): Promise<Refund[]> {
    const byId = await this.presenter.byIds(
      db,
      scope,
      rows.map((r) => r.order_id),
    );
    return rows.map((row) => toRefund(row, byId.get(row.order_id)!));
  }

  async list(scope: LedgerScope, query: RefundListQuery, page: PageRequest): Promise<{ count: number; capped: boolean; results: Refund[] }> {
    const filters: repo.RefundFilters = {
      customer: query.customer_id?.trim(),
      search: searchTerm(query.search),
      status: query.status,
      created: dateRange(query.start_date, query.end_date),
    };
    const { count, capped } = await repo.countRefunds(this.db, scope.environmentId, filters, page.countUpTo ?? null);
    if (page.offset >= count) return { count, capped, results: [] };
    const rows = await repo.listRefunds(this.db, scope.environmentId, filters, page.pageSize, page.offset);
    return { count, capped, results: await this.presentAll(this.db, scope, rows) };
  }

  async get(scope: LedgerScope, id: string): Promise<Refund> {
    const row = isUuid(id) ? await repo.findRefund(this.db, scope.environmentId, id) : undefined;
    if (!row) throw refundNotFound(id);
    return this.present(this.db, scope, row);
  }
}
