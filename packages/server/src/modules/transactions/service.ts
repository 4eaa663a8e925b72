import type { Transaction, TransactionListQuery } from '@billow/contract';
import type { Db } from '../../db/connect.js';
import type { Clock } from '../../lib/clock.js';
import type { PageRequest } from '../../lib/pagination.js';
import { currencySymbol, dateRange, majorNumber, searchTerm } from '../ledger/format.js';
import type { OrderPresenter } from '../ledger/presenter.js';
import type { LedgerScope } from '../ledger/scope.js';
import * as repo from './repo.js';

type FeeComponent = Transaction['morFeeBreakdown'][number];

function feeBreakdown(stored: unknown[], currency: string): FeeComponent[] {
  return stored.flatMap((raw) => {
    if (!raw || typeof raw !== 'object') return [];
    const line = raw as Record<string, unknown>;
    return [
      {
        name: String(line.name ?? ''),
        percentage: typeof line.percentage === 'string' ? line.percentage : null,
        valueUnits: typeof line.valueUnits === 'number' ? line.valueUnits : 0,
        currency: typeof line.currency === 'string' ? line.currency : currency,
      },
    ];
  });
}

export class TransactionService {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly presenter: OrderPresenter,
  ) {}

  async list(
    scope: LedgerScope,
    query: TransactionListQuery,
    page: PageRequest,
  ): Promise<{ count: number; capped: boolean; results: Transaction[] }> {
    const filters: repo.TransactionFilters = {
      customer: query.customer_id?.trim(),
      search: searchTerm(query.search),
      status: query.status,
      created: dateRange(query.start_date, query.end_date),
    };
    const { count, capped } = await repo.countTransactions(this.db, scope.environmentId, filters, page.countUpTo ?? null);
    if (page.offset >= count) return { count, capped, results: [] };
    const rows = await repo.listTransactions(this.db, scope.environmentId, filters, page.pageSize, page.offset);
    const orders = await this.presenter.byIds(
      this.db,
      scope,
      rows.map((r) => r.order_id),
    );
    const today = this.clock.now().toISOString().slice(0, 10);
    return {
      count,
      capped,
      results: rows.map((row) => {
        const currency = row.currency;
        return {
          id: row.id,
          order: orders.get(row.order_id)!,
          createdOn: row.created_at.toISOString(),
          currency,
          currencySymbol: currencySymbol(currency),
          amountTotal: majorNumber(row.amount_minor, currency),
          morFee: majorNumber(row.fee_minor, currency),
          morFeeBreakdown: feeBreakdown(row.fee_breakdown, currency),
          collectedTax: majorNumber(row.tax_minor, currency),
          netPayout: majorNumber(row.net_minor, currency),
          amountTotalUnits: row.amount_minor,
          morFeeUnits: row.fee_minor,
          collectedTaxUnits: row.tax_minor,
          netPayoutUnits: row.net_minor,
          status: row.status,
          transactionType: row.transaction_type,
          paymentMethodType: row.method_type,
          paymentMethodName: row.brand,
          last4: row.last4,
          availableOn: row.available_day,
          isSettled: row.available_day !== null && row.available_day <= today,
          refundId: row.refund_id,
          failureReason: row.failure_reason,
        };
      }),
    };
  }
}
