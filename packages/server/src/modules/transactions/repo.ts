import { sql } from 'kysely';
import type { Executor } from '../../db/transaction.js';
import type { TransactionsTable } from '../../db/schema.js';
import { containsPattern, isCustomer } from '../../db/search.js';
import type { DateRange } from '../ledger/format.js';
import { countRows } from '../../db/count.js';

export interface TransactionFilters {
  /** The customer's customerId, or its UUID. */
  customer?: string;
  search?: string;
  status?: TransactionsTable['status'];
  created: DateRange;
}

function filtered(db: Executor, environmentId: string, filters: TransactionFilters) {
  let query = db
    .selectFrom('transactions as t')
    .innerJoin('orders as o', 'o.id', 't.order_id')
    .innerJoin('customers as c', 'c.id', 'o.customer_id')
    .innerJoin('products as p', 'p.id', 'o.product_id')
    .leftJoin('payment_methods as pm', 'pm.id', 't.payment_method_id')
    .where('t.environment_id', '=', environmentId);
  if (filters.customer !== undefined) query = query.where(isCustomer(filters.customer));
  if (filters.status) query = query.where('t.status', '=', filters.status);
  if (filters.created.from) query = query.where('t.created_at', '>=', filters.created.from);
  if (filters.created.before) query = query.where('t.created_at', '<', filters.created.before);
  if (filters.search) {
    const pattern = containsPattern(filters.search);
    query = query.where((eb) =>
      eb.or([
        eb('t.provider_ref', 'ilike', pattern),
        eb(sql<string>`t.id::text`, 'ilike', pattern),
        eb('t.order_id', 'ilike', pattern),
        eb('c.name', 'ilike', pattern),
        eb('c.email', 'ilike', pattern),
        eb('c.customer_id', 'ilike', pattern),
        eb('p.name', 'ilike', pattern),
        eb('pm.method_type', 'ilike', pattern),
      ]),
    );
  }
  return query;
}

/** The filtered list's size, exactly, or with `upTo` only up to that many (decision 0089, `count=capped`). */
export function countTransactions(db: Executor, environmentId: string, filters: TransactionFilters, upTo: number | null = null) {
  return countRows(db, filtered(db, environmentId, filters), upTo);
}

/** Newest first, with the payment method's type, brand and last digits. */
export async function listTransactions(
  db: Executor,
  environmentId: string,
  filters: TransactionFilters,
  limit: number,
  offset: number,
) {
  return filtered(db, environmentId, filters)
    .selectAll('t')
    .select([
      sql<string | null>`t.available_on::text`.as('available_day'),
      'pm.method_type',
      'pm.brand',
      'pm.last4',
    ])
    .orderBy('t.created_at', 'desc')
    .orderBy('t.seq', 'desc')
    .limit(limit)
    .offset(offset)
    .execute();
}

export type TransactionListRow = Awaited<ReturnType<typeof listTransactions>>[number];
