import type { Order, OrderEvent, OrderListQuery } from '@billow/contract';
import type { Db } from '../../db/connect.js';
import type { PageRequest } from '../../lib/pagination.js';
import { orderNotFound } from '../ledger/errors.js';
import { dateRange, searchTerm } from '../ledger/format.js';
import type { OrderPresenter } from '../ledger/presenter.js';
import * as ledger from '../ledger/queries.js';
import type { LedgerScope } from '../ledger/scope.js';

export function toOrderEvent(row: ledger.OrderEventRow): OrderEvent {
  return {
    id: row.id,
    order: row.order_id,
    title: row.title,
    code: row.code,
    status: row.status,
    timestamp: row.created_at.toISOString(),
    metadata: row.metadata,
  };
}

export class OrderService {
  constructor(
    private readonly db: Db,
    private readonly presenter: OrderPresenter,
  ) {}

  async list(scope: LedgerScope, query: OrderListQuery, page: PageRequest, sort: ledger.OrderSort | null = null): Promise<{ count: number; capped: boolean; results: Order[] }> {
    const filters: ledger.OrderFilters = {
      customer: query.customer_id?.trim(),
      search: searchTerm(query.search),
      status: query.status,
      billingType: query.billing_type,
      isRenewal: query.is_renewal,
      paid: dateRange(query.start_date, query.end_date),
    };
    // The count and the page at once, on two connections: with a million orders the count is most of the time (decision 0079).
    const [{ count, capped }, rows] = await Promise.all([
      ledger.countOrders(this.db, scope.environmentId, filters, page.countUpTo ?? null),
      ledger.listOrders(this.db, scope.environmentId, filters, { limit: page.pageSize, offset: page.offset, sort }),
    ]);
    return { count, capped, results: rows.length === 0 ? [] : await this.presenter.present(this.db, scope, rows) };
  }

  /** An order the API may show: PENDING orders are not (their payment never completed). */
  private async visible(scope: LedgerScope, id: string): Promise<ledger.OrderRow> {
    const row = await ledger.findOrder(this.db, scope.environmentId, id);
    if (!row || row.status === 'PENDING') throw orderNotFound(id);
    return row;
  }

  async get(scope: LedgerScope, id: string): Promise<Order> {
    return this.presenter.presentOne(this.db, scope, await this.visible(scope, id));
  }

  async events(scope: LedgerScope, id: string, page: PageRequest): Promise<{ count: number; results: OrderEvent[] }> {
    const order = await this.visible(scope, id);
    const count = await ledger.countOrderEvents(this.db, order);
    if (page.offset >= count) return { count, results: [] };
    const rows = await ledger.listOrderEvents(this.db, order, page.pageSize, page.offset);
    return { count, results: rows.map(toOrderEvent) };
  }
}
