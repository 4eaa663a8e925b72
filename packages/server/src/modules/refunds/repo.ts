import { sql, type Selectable } from 'kysely';
import type { Executor } from '../../db/transaction.js';
import { holderGone } from '../../db/lease-holder.js';
import type { RefundsTable, TransactionsTable } from '../../db/schema.js';
import { containsPattern, isCustomer } from '../../db/search.js';
import type { DateRange } from '../ledger/format.js';
import { countRows } from '../../db/count.js';

export type RefundRow = Selectable<RefundsTable>;
export type TransactionRow = Selectable<TransactionsTable>;

export interface RefundFilters {
  /** The customer's customerId, or its UUID. */
  customer?: string;
  search?: string;
  status?: RefundRow['status'];
  created: DateRange;
}

function filtered(db: Executor, environmentId: string, filters: RefundFilters) {
  let query = db
    .selectFrom('refunds as r')
    .innerJoin('orders as o', 'o.id', 'r.order_id')
    .innerJoin('customers as c', 'c.id', 'o.customer_id')
    .where('r.environment_id', '=', environmentId);
  if (filters.customer !== undefined) query = query.where(isCustomer(filters.customer));
  if (filters.status) query = query.where('r.status', '=', filters.status);
  if (filters.created.from) query = query.where('r.created_at', '>=', filters.created.from);
  if (filters.created.before) query = query.where('r.created_at', '<', filters.created.before);
  if (filters.search) {
    const pattern = containsPattern(filters.search);
    query = query.where((eb) =>
      eb.or([
        eb(sql<string>`r.id::text`, 'ilike', pattern),
        eb('r.order_id', 'ilike', pattern),
        eb('c.name', 'ilike', pattern),
        eb('c.email', 'ilike', pattern),
        eb('c.customer_id', 'ilike', pattern),
      ]),
    );
  }
  return query;
}

/** The filtered list's size, exactly, or with `upTo` only up to that many (decision 0089, `count=capped`). */
export function countRefunds(db: Executor, environmentId: string, filters: RefundFilters, upTo: number | null = null) {
  return countRows(db, filtered(db, environmentId, filters), upTo);
}

export async function listRefunds(
  db: Executor,
  environmentId: string,
  filters: RefundFilters,
  limit: number,
  offset: number,
): Promise<RefundRow[]> {
  return filtered(db, environmentId, filters)
    .selectAll('r')
    .orderBy('r.created_at', 'desc')
    .orderBy('r.seq', 'desc')
    .limit(limit)
    .offset(offset)
    .execute();
}

export async function findRefund(db: Executor, environmentId: string, id: string): Promise<RefundRow | undefined> {
  return db.selectFrom('refunds').selectAll().where('environment_id', '=', environmentId).where('id', '=', id).executeTakeFirst();
}

/** The refund a request with this Idempotency-Key made, if any. */
export async function refundOfIdempotencyKey(db: Executor, scope: string, key: string): Promise<RefundRow | undefined> {
  return db.selectFrom('refunds').selectAll().where('idempotency_scope', '=', scope).where('idempotency_key', '=', key).executeTakeFirst();
}

/** The order's first successful charge: the payment a refund goes back to. */
export async function chargeOf(db: Executor, orderId: string): Promise<TransactionRow | undefined> {
  return db
    .selectFrom('transactions')
    .selectAll()
    .where('order_id', '=', orderId)
    .where('transaction_type', '=', 'CHARGE')
    .where('status', '=', 'success')
    .orderBy('created_at')
    .orderBy('seq')
    .limit(1)
    .executeTakeFirst();
}

export async function insertRefund(db: Executor, row: Omit<RefundRow, 'seq'>): Promise<RefundRow> {
  return db.insertInto('refunds').values(row).returningAll().executeTakeFirstOrThrow();
}

export async function settleRefund(
  db: Executor,
  id: string,
  changes: Pick<RefundRow, 'status' | 'failure_reason' | 'provider_ref' | 'modified_at'>,
): Promise<RefundRow> {
  return db.updateTable('refunds').set(changes).where('id', '=', id).returningAll().executeTakeFirstOrThrow();
}

/** What refunds of the order still being processed by the provider hold back from its refundable amount. */
export async function processingRefundsTotal(db: Executor, orderId: string): Promise<number> {
  const row = await db
    .selectFrom('refunds')
    .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('amount_minor'), eb.lit(0)).as('total'))
    .where('order_id', '=', orderId)
    .where('status', '=', 'PROCESSING')
    .executeTakeFirstOrThrow();
  return Number(row.total);
}

/** The refund, locked, while it is still PROCESSING; undefined once settled. */
export async function lockProcessingRefund(db: Executor, id: string): Promise<RefundRow | undefined> {
  return db.selectFrom('refunds').selectAll().where('id', '=', id).where('status', '=', 'PROCESSING').forUpdate().executeTakeFirst();
}

/** Refunds still PROCESSING since before `before`, or recorded by a process that is gone (db/lease-holder.ts): their process most likely died. */
export async function staleProcessingRefunds(db: Executor, before: Date, limit: number): Promise<RefundRow[]> {
  return db
    .selectFrom('refunds')
    .selectAll()
    .where('status', '=', 'PROCESSING')
    .where((eb) => eb.or([eb('created_at', '<', before), holderGone(sql.ref('holder'))]))
    .orderBy('created_at')
    .limit(limit)
    .execute();
}

/** The organization and kind of an environment: what settling a refund found by the recovery task needs. */
export async function environmentScope(db: Executor, environmentId: string) {
  const row = await db.selectFrom('environments').select(['organization_id', 'kind']).where('id', '=', environmentId).executeTakeFirst();
  return row ? { organizationId: row.organization_id, environmentId, environment: row.kind } : undefined;
}
