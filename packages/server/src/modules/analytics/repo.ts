import { sql, type Insertable, type Selectable } from 'kysely';
import type { AnalyticsMrrMovementsTable, SubscriptionTermsLogTable } from '../../db/schema.js';
import type { Executor, Tx } from '../../db/transaction.js';
import { countRows } from '../../db/count.js';
import { chunks } from '../../lib/chunks.js';

/** Ids per IN list and rows per insert: under PostgreSQL's 65,535 parameters a statement. */
const IDS_A_STATEMENT = 10_000;
const ROWS_A_STATEMENT = 2_000;

export type TermsLogRow = Selectable<SubscriptionTermsLogTable>;
export type Dimension = AnalyticsMrrMovementsTable['dimension']['__select__'];

/** One book of the kept figures (decision 0106): the whole business, or one plan's, or one product's. */
export interface BookSegment {
  dimension: Dimension;
  segment: string;
}

/** One pricing run at a time: the log is priced in order, and each customer's standing is read and written whole. */
const PRICING_LOCK = 0x42_69_6c_41; // 'BilA'

export async function lockPricing(tx: Tx): Promise<void> {
  await sql`select pg_advisory_xact_lock(${PRICING_LOCK})`.execute(tx);
}

/**
 * The unpriced log rows of the oldest `transactions` transactions not priced yet, in the order
 * they were logged; of one environment only when it is given (environments price apart: no
 * customer, and so no movement, spans two).
 */
export function unpricedLog(tx: Tx, transactions: number, environmentId: string | null = null): Promise<TermsLogRow[]> {
  const pending = (query: ReturnType<typeof unpricedRows>) => (environmentId ? query.where('environment_id', '=', environmentId) : query);
  const oldest = pending(unpricedRows(tx))
    .clearSelect()
    .select('tx')
    .groupBy('tx')
    .orderBy((eb) => eb.fn.min('id'))
    .limit(transactions);
  return pending(unpricedRows(tx)).where('tx', 'in', oldest).orderBy('id').execute();
}

function unpricedRows(tx: Tx) {
  return tx.selectFrom('subscription_terms_log').selectAll().where('priced', '=', false);
}

/** The whole log of an environment, in order: what a rebuild prices. */
export function logOf(db: Executor, environmentId: string): Promise<TermsLogRow[]> {
  return db.selectFrom('subscription_terms_log').selectAll().where('environment_id', '=', environmentId).orderBy('id').execute();
}

export async function markPriced(tx: Tx, ids: readonly number[]): Promise<void> {
  for (const slice of chunks(ids, IDS_A_STATEMENT)) await tx.updateTable('subscription_terms_log').set({ priced: true }).where('id', 'in', slice).execute();
}

export async function subscriptionStandings(tx: Tx, environmentId: string, subscriptionIds: readonly string[]) {
  const found = [];
  for (const slice of chunks(subscriptionIds, IDS_A_STATEMENT)) {
    found.push(
      ...(await tx
        .selectFrom('analytics_subscription_mrr')
        .select(['subscription_id', 'customer_id', 'currency', 'dimension', 'segment', sql<string>`parts::text`.as('parts')])
        .where('environment_id', '=', environmentId)
        .where('subscription_id', 'in', slice)
        .execute()),
    );
  }
  return found;
}

export async function customerStandings(tx: Tx, environmentId: string, customerIds: readonly string[]) {
  const found = [];
  for (const slice of chunks(customerIds, IDS_A_STATEMENT)) {
    found.push(
      ...(await tx
        .selectFrom('analytics_customer_mrr')
        .select(['customer_id', 'currency', 'ever_paid', 'dimension', 'segment', sql<string>`parts::text`.as('parts')])
        .where('environment_id', '=', environmentId)
        .where('customer_id', 'in', slice)
        .execute()),
    );
  }
  return found;
}

export interface SubscriptionStandingRow extends BookSegment {
  subscriptionId: string;
  customerId: string;
  currency: string;
  parts: bigint;
}

export async function saveSubscriptionStandings(tx: Tx, environmentId: string, rows: readonly SubscriptionStandingRow[]): Promise<void> {
  for (const slice of chunks(rows, ROWS_A_STATEMENT)) {
    await tx
      .insertInto('analytics_subscription_mrr')
      .values(
        slice.map((r) => ({
          subscription_id: r.subscriptionId,
          environment_id: environmentId,
          customer_id: r.customerId,
          currency: r.currency,
          parts: r.parts.toString(),
          dimension: r.dimension,
          segment: r.segment,
        })),
      )
      .onConflict((oc) =>
        oc.columns(['subscription_id', 'dimension']).doUpdateSet((eb) => ({
          customer_id: eb.ref('excluded.customer_id'),
          currency: eb.ref('excluded.currency'),
          parts: eb.ref('excluded.parts'),
          segment: eb.ref('excluded.segment'),
        })),
      )
      .execute();
  }
}

export interface CustomerStandingRow extends BookSegment {
  customerId: string;
  currency: string;
  parts: bigint;
  everPaid: boolean;
}

export async function saveCustomerStandings(tx: Tx, environmentId: string, rows: readonly CustomerStandingRow[]): Promise<void> {
  for (const slice of chunks(rows, ROWS_A_STATEMENT)) {
    await tx
      .insertInto('analytics_customer_mrr')
      .values(
        slice.map((r) => ({
          environment_id: environmentId,
          customer_id: r.customerId,
          currency: r.currency,
          parts: r.parts.toString(),
          ever_paid: r.everPaid,
          dimension: r.dimension,
          segment: r.segment,
        })),
      )
      .onConflict((oc) =>
        oc.columns(['customer_id', 'currency', 'dimension', 'segment']).doUpdateSet((eb) => ({ parts: eb.ref('excluded.parts'), ever_paid: eb.ref('excluded.ever_paid') })),
      )
      .execute();
  }
}

export async function insertMovements(tx: Tx, rows: readonly Insertable<AnalyticsMrrMovementsTable>[]): Promise<void> {
  for (const slice of chunks(rows, ROWS_A_STATEMENT)) await tx.insertInto('analytics_mrr_movements').values(slice).execute();
}

/** Per currency, the MRR and the paying customers the movements of one book before `day` leave. */
export function openingBefore(db: Executor, environmentId: string, book: BookSegment, day: string) {
  return db
    .selectFrom('analytics_mrr_movements')
    .select('currency')
    .select(sql<string>`sum(parts)::text`.as('parts'))
    .select(sql<string>`(count(*) filter (where kind in ('new', 'reactivation')) - count(*) filter (where kind = 'churned'))::text`.as('paying'))
    .where('environment_id', '=', environmentId)
    .where('dimension', '=', book.dimension)
    .where('segment', '=', book.segment)
    .where('day', '<', sql<Date>`${day}::date`)
    .groupBy('currency')
    .execute();
}

export type DayTotal = Awaited<ReturnType<typeof dailyTotals>>[number];

/** The movements of one book on each day in [from, to), summed per currency and kind, by day. */
export function dailyTotals(db: Executor, environmentId: string, book: BookSegment, from: string, to: string, currency: string | null) {
  let query = db
    .selectFrom('analytics_mrr_movements')
    .select(['currency', 'kind', sql<string>`day::text`.as('day')])
    .select(sql<string>`sum(parts)::text`.as('parts'))
    .select((eb) => eb.fn.countAll<string>().as('count'))
    .where('environment_id', '=', environmentId)
    .where('dimension', '=', book.dimension)
    .where('segment', '=', book.segment)
    .where('day', '>=', sql<Date>`${from}::date`)
    .where('day', '<', sql<Date>`${to}::date`);
  if (currency) query = query.where('currency', '=', currency);
  return query.groupBy(['currency', 'kind', 'day']).orderBy('day').execute();
}

/** The kept movements of an environment in the order they were made: what a rebuild compares with. */
export function keptMovements(db: Executor, environmentId: string) {
  return db
    .selectFrom('analytics_mrr_movements')
    .select(['log_id', 'customer_id', 'subscription_id', 'currency', 'kind', 'at', 'dimension', 'segment'])
    .select([sql<string>`parts::text`.as('parts'), sql<string>`customer_parts::text`.as('customer_parts')])
    .where('environment_id', '=', environmentId)
    .orderBy('id')
    .execute();
}

/** Whether log rows wait to be priced, and the oldest time among them: the series are complete until then. */
export async function oldestUnpriced(db: Executor, environmentId: string): Promise<Date | null> {
  const row = await db
    .selectFrom('subscription_terms_log')
    .select((eb) => eb.fn.min('at').as('at'))
    .where('environment_id', '=', environmentId)
    .where('priced', '=', false)
    .executeTakeFirst();
  return (row?.at as Date | null | undefined) ?? null;
}

/** Forgets what was kept for the environment: a rebuild writes it again. */
export async function clearEnvironment(tx: Tx, environmentId: string): Promise<void> {
  await tx.deleteFrom('analytics_mrr_movements').where('environment_id', '=', environmentId).execute();
  await tx.deleteFrom('analytics_customer_mrr').where('environment_id', '=', environmentId).execute();
  await tx.deleteFrom('analytics_subscription_mrr').where('environment_id', '=', environmentId).execute();
}

/** Which kept movements a drill-down lists: one book's, on the seller's days [from, to), and optionally one kind and one currency. */
export interface MovementFilter {
  book: BookSegment;
  from: string;
  to: string;
  kind: AnalyticsMrrMovementsTable['kind'] | null;
  currency: string | null;
}

function filteredMovements(db: Executor, environmentId: string, filter: MovementFilter) {
  let query = db
    .selectFrom('analytics_mrr_movements as m')
    .where('m.environment_id', '=', environmentId)
    .where('m.dimension', '=', filter.book.dimension)
    .where('m.segment', '=', filter.book.segment)
    .where('m.day', '>=', sql<Date>`${filter.from}::date`)
    .where('m.day', '<', sql<Date>`${filter.to}::date`);
  if (filter.kind) query = query.where('m.kind', '=', filter.kind);
  if (filter.currency) query = query.where('m.currency', '=', filter.currency);
  return query;
}

export type MovementListRow = Awaited<ReturnType<typeof movementList>>[number];

/** A page of the movements the filter holds, newest first, each with its customer. */
export function movementList(db: Executor, environmentId: string, filter: MovementFilter, page: { limit: number; offset: number }) {
  return filteredMovements(db, environmentId, filter)
    .innerJoin('customers as c', (join) => join.onRef('c.id', '=', 'm.customer_id').on('c.environment_id', '=', environmentId))
    .select(['c.customer_id as customer_key', 'c.name', 'c.email', 'm.subscription_id', 'm.kind', 'm.currency', 'm.at'])
    .select([sql<string>`m.day::text`.as('day'), sql<string>`m.parts::text`.as('parts'), sql<string>`m.customer_parts::text`.as('customer_parts')])
    .orderBy('m.at', 'desc')
    .orderBy('m.id', 'desc')
    .limit(page.limit)
    .offset(page.offset)
    .execute();
}

export async function movementCount(db: Executor, environmentId: string, filter: MovementFilter): Promise<number> {
  return (await countRows(db, filteredMovements(db, environmentId, filter), null)).count;
}
