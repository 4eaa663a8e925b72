/**
 * The cash figures' tables (decision 0099): the log the triggers on transactions and invoices
 * append to, the day rollups the analytics job folds it into, and the same figures recomputed
 * from the raw tables for a rebuild. Each figure counts in three books (decision 0107): the
 * whole business's, and its order's plan's and product's.
 */
import { sql, type RawBuilder } from 'kysely';
import type { Executor, Tx } from '../../../db/transaction.js';
import { chunks } from '../../../lib/chunks.js';
import type { Dimension } from '../books.compute.js';
import { CASH_FIGURES, type CashDay, type DayGrid } from '../cash.compute.js';
import type { BookSegment } from '../repo.js';

const ROWS_A_STATEMENT = 2_000;

const list = (columns: readonly string[]) => sql.raw(columns.join(', '));
// The arrays are typed parameters, parsed once when bound: a cast from text[] would be parsed again for every row (text to date is not immutable).
const dayOf = (column: RawBuilder<unknown>, grid: DayGrid) =>
  sql`(${grid.days}::date[])[width_bucket(${column}, ${grid.bounds.map((b) => b.toISOString())}::timestamptz[])]::text`;
const summed = sql.raw(CASH_FIGURES.map((f) => `sum(${f})::bigint AS ${f}`).join(', '));

/**
 * Each row of `source` (which has environment_id and order_id) once in each book it counts in:
 * the whole business's, and the plan's and the product's of its order (every order names both;
 * a row without an order counts in the whole business's alone). The joins are by primary key.
 */
const booked = (source: RawBuilder<unknown>) => sql`
  SELECT b.dimension, b.segment, r.* FROM ${source} AS r
  LEFT JOIN orders o ON o.id = r.order_id AND o.environment_id = r.environment_id
  LEFT JOIN plans p ON p.id = o.plan_id
  LEFT JOIN products pr ON pr.id = o.product_id
  CROSS JOIN LATERAL (VALUES ('all', ''), ('plan', p.identifier), ('product', pr.identifier)) AS b (dimension, segment)
  WHERE b.segment IS NOT NULL`;

function numbers(row: Record<string, unknown>): CashDay {
  const day = { dimension: String(row.dimension) as Dimension, segment: String(row.segment), currency: String(row.currency), day: String(row.day) } as CashDay;
  for (const figure of CASH_FIGURES) day[figure] = Number(row[figure]);
  return day;
}

/** Environments whose log has rows to fold. */
export async function environmentsWithPendingCash(db: Executor, limit: number): Promise<string[]> {
  const rows = await db.selectFrom('analytics_cash_log').select('environment_id').distinct().limit(limit).execute();
  return rows.map((row) => row.environment_id);
}

/** The first and last instants among the environment's log rows not folded yet; null when there are none. */
export async function pendingCashSpan(db: Executor, environmentId: string): Promise<{ first: Date; last: Date } | null> {
  const row = await db
    .selectFrom('analytics_cash_log')
    .select((eb) => [eb.fn.min('at').as('first'), eb.fn.max('at').as('last')])
    .where('environment_id', '=', environmentId)
    .executeTakeFirst();
  return row?.first ? { first: new Date(row.first as Date), last: new Date(row.last as Date) } : null;
}

/**
 * Moves the environment's log rows within the grid into its day rollups, in one statement:
 * the rows it deletes are the rows it adds; a row appended meanwhile is not in its snapshot and waits.
 */
export async function foldCash(tx: Tx, environmentId: string, grid: DayGrid): Promise<void> {
  const added = sql.raw(CASH_FIGURES.map((f) => `${f} = analytics_cash_days.${f} + excluded.${f}`).join(', '));
  const [from, to] = [grid.bounds[0]!, grid.bounds[grid.bounds.length - 1]!];
  await sql`
    WITH moved AS (
      DELETE FROM analytics_cash_log WHERE environment_id = ${environmentId} AND at >= ${from.toISOString()}::timestamptz AND at < ${to.toISOString()}::timestamptz
      RETURNING *
    ), days AS (
      SELECT dimension, segment, currency, ${dayOf(sql`at`, grid)} AS day, ${summed} FROM (${booked(sql`moved`)}) AS moved_rows GROUP BY 1, 2, 3, 4
    )
    INSERT INTO analytics_cash_days (environment_id, dimension, segment, currency, day, ${list(CASH_FIGURES)})
    SELECT ${environmentId}, dimension, segment, currency, day::date, ${list(CASH_FIGURES)} FROM days
    ON CONFLICT (environment_id, dimension, segment, day, currency) DO UPDATE SET ${added}`.execute(tx);
}

/** The environment's log rows not folded yet, summed per book, currency and day of the grid (which must cover them). */
export async function pendingCashDays(db: Executor, environmentId: string, grid: DayGrid): Promise<CashDay[]> {
  const pending = sql`(SELECT * FROM analytics_cash_log WHERE environment_id = ${environmentId})`;
  const { rows } = await sql<Record<string, unknown>>`
    SELECT dimension, segment, currency, ${dayOf(sql`at`, grid)} AS day, ${summed} FROM (${booked(pending)}) AS pending_rows GROUP BY 1, 2, 3, 4`.execute(db);
  return rows.map(numbers);
}

/** Forgets the environment's log rows this transaction sees: a rebuild's --apply counted them from the raw tables. */
export async function clearCashLog(tx: Tx, environmentId: string): Promise<void> {
  await tx.deleteFrom('analytics_cash_log').where('environment_id', '=', environmentId).execute();
}

/** One fold or rebuild of the cash rollups at a time. */
const CASH_LOCK = 0x42_69_6c_43; // 'BilC'

export async function lockCash(tx: Tx): Promise<void> {
  await sql`select pg_advisory_xact_lock(${CASH_LOCK})`.execute(tx);
}

/** The day rollups of one book (or of every book) in [from, to), by day then currency, optionally of one currency. */
export async function cashDays(db: Executor, environmentId: string, book: BookSegment | null, range: { from: string; to: string } | null, currency: string | null): Promise<CashDay[]> {
  let query = db
    .selectFrom('analytics_cash_days')
    .select(['dimension', 'segment', 'currency', sql<string>`day::text`.as('day'), ...CASH_FIGURES])
    .where('environment_id', '=', environmentId);
  if (book) query = query.where('dimension', '=', book.dimension).where('segment', '=', book.segment);
  if (range) query = query.where('day', '>=', sql<Date>`${range.from}::date`).where('day', '<', sql<Date>`${range.to}::date`);
  if (currency) query = query.where('currency', '=', currency);
  return (await query.orderBy('day').orderBy('currency').orderBy('dimension').orderBy('segment').execute()).map(numbers);
}

/** The first and last instants the raw tables hold a cash figure at; null when they hold none. */
export async function rawCashSpan(db: Executor, environmentId: string): Promise<{ first: Date; last: Date } | null> {
  const { rows } = await sql<{ first: Date | null; last: Date | null }>`
    SELECT min(at) AS first, max(at) AS last FROM (
      SELECT created_at AS at FROM transactions WHERE environment_id = ${environmentId} AND status = 'success' AND transaction_type IN ('CHARGE', 'REFUND')
      UNION ALL
      SELECT issued_at FROM invoices WHERE environment_id = ${environmentId} AND failure_code IS NOT NULL
    ) AS dated`.execute(db);
  const row = rows[0];
  return row?.first ? { first: new Date(row.first), last: new Date(row.last!) } : null;
}

/**
 * The day rollups recomputed from the raw tables, by the definitions of docs/analytics.md
 * (written here again, apart from the triggers, so that a rebuild checks them).
 */
export async function rebuiltCashDays(db: Executor, environmentId: string, grid: DayGrid): Promise<CashDay[]> {
  const shares = sql`(
      SELECT environment_id, order_id, currency, ${dayOf(sql`created_at`, grid)} AS day,
             (transaction_type = 'CHARGE')::int AS collected_count, CASE WHEN transaction_type = 'CHARGE' THEN amount_minor ELSE 0 END AS collected_minor,
             (transaction_type = 'REFUND')::int AS refunded_count, CASE WHEN transaction_type = 'REFUND' THEN -amount_minor ELSE 0 END AS refunded_minor,
             0 AS failed_count, 0 AS failed_minor, 0 AS recovered_count, 0 AS recovered_minor, 0 AS lost_count, 0 AS lost_minor
        FROM transactions WHERE environment_id = ${environmentId} AND status = 'success' AND transaction_type IN ('CHARGE', 'REFUND')
      UNION ALL
      SELECT environment_id, order_id, currency, ${dayOf(sql`issued_at`, grid)}, 0, 0, 0, 0, 1, total_minor,
             (status = 'PAID')::int, CASE WHEN status = 'PAID' THEN total_minor ELSE 0 END,
             (status <> 'PAID' AND next_attempt_at IS NULL)::int, CASE WHEN status <> 'PAID' AND next_attempt_at IS NULL THEN total_minor ELSE 0 END
        FROM invoices WHERE environment_id = ${environmentId} AND failure_code IS NOT NULL
    )`;
  const { rows } = await sql<Record<string, unknown>>`
    SELECT dimension, segment, currency, day, ${summed} FROM (${booked(shares)}) AS booked_shares
    GROUP BY dimension, segment, currency, day ORDER BY day, currency, dimension, segment`.execute(db);
  return rows.map(numbers);
}

/** Replaces the environment's day rollups (a rebuild's --apply). */
export async function replaceCashDays(tx: Tx, environmentId: string, days: readonly CashDay[]): Promise<void> {
  await tx.deleteFrom('analytics_cash_days').where('environment_id', '=', environmentId).execute();
  for (const slice of chunks(days, ROWS_A_STATEMENT)) {
    await tx.insertInto('analytics_cash_days').values(slice.map((d) => ({ ...d, environment_id: environmentId }))).execute();
  }
}
