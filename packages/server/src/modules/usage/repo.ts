import { PREPARED_END } from '../../db/prepared.js';
import { sql, type RawBuilder } from 'kysely';
import { PREPARED } from '../../db/prepared.js';
import { bigintArray, textArray, timestamptzArray, uuidArray } from '../../db/array-literals.js';
import type { Executor, Tx } from '../../db/transaction.js';
import type { SqlText } from '../../edge-cache/change-feed.js';

const REPORT_KEY_CONSTRAINT = 'usage_reports_client_key';
const COUNTER_BOUND_CONSTRAINT = 'usage_counters_value_bound';
/** The most (and, negated, the least) a usage counter holds: 2^53 − 1, exact in every JSON client (decision 0053). */
export const USAGE_COUNTER_MAX = Number.MAX_SAFE_INTEGER;

/** Whether a write failed because a counter would have left ±USAGE_COUNTER_MAX; nothing of the statement was written. */
export function isCounterBoundViolation(error: unknown): boolean {
  const e = error as { code?: string; constraint?: string; message?: string } | null;
  return e?.code === '23514' && (e.constraint === COUNTER_BOUND_CONSTRAINT || (e.message ?? '').includes(COUNTER_BOUND_CONSTRAINT));
}
const EVENT_KEY_CONSTRAINT = 'usage_events_idempotency_key';

/**
 * Adds to (DELTA) or replaces (SET) the counter of a meter's period; a
 * missing counter is made with `create` (its rollover, and what it takes over
 * from a predecessor). The row stays locked until the transaction ends, so
 * concurrent reports on one counter queue and none is lost.
 */
export interface CounterChange {
  environmentId: string;
  subscriptionId: string;
  featureId: string;
  periodStart: Date;
  periodEnd: Date | null;
  behaviour: 'SET' | 'DELTA';
  value: number;
  create: { value: number; rollover: number; alertsSent: unknown[] };
  at: Date;
}

export async function applyToCounter(tx: Tx, row: CounterChange): Promise<{ value: number; rollover: number; alerts_sent: unknown[] }> {
  return tx
    .insertInto('usage_counters')
    .values({
      environment_id: row.environmentId,
      subscription_id: row.subscriptionId,
      feature_id: row.featureId,
      period_start: row.periodStart,
      period_end: row.periodEnd,
      value: row.create.value,
      rollover: row.create.rollover,
      alerts_sent: JSON.stringify(row.create.alertsSent),
      updated_at: row.at,
    })
    .onConflict((conflict) =>
      conflict.columns(['subscription_id', 'feature_id', 'period_start']).doUpdateSet({
        value: row.behaviour === 'SET' ? row.value : sql<number>`usage_counters.value + ${row.value}`,
        updated_at: row.at,
      }),
    )
    .returning(['value', 'rollover', 'alerts_sent'])
    .executeTakeFirstOrThrow();
}

/**
 * Records a report and applies it to its counter (as `insertReport` then
 * `applyToCounter`), evaluating `notice` (the announcement of the change), in
 * one statement: one round trip and one transaction, and the counter's row
 * lock is held only while that statement commits. False when the client key
 * was used before: then nothing is counted or announced.
 */
export async function recordReport(db: Executor, report: ReportInsert, counter: CounterChange, notice: RawBuilder<unknown>): Promise<boolean> {
  const next = counter.behaviour === 'SET' ? sql`${counter.value}::bigint` : sql`usage_counters.value + ${counter.value}::bigint`;
  const { rows } = await sql<{ id: string }>`
    WITH report AS (
      INSERT INTO usage_reports (id, environment_id, customer_id, feature_id, subscription_id, behaviour, value,
                                 resource_id, client_idempotency_key, reported_at, created_at)
      VALUES (${report.id}, ${report.environmentId}, ${report.customerPk}, ${report.featureId}, ${report.subscriptionId},
              ${report.behaviour}, ${report.value}, ${report.resourceId}, ${report.clientKey}, ${report.at}, ${report.at})
      ON CONFLICT ON CONSTRAINT ${sql.id(REPORT_KEY_CONSTRAINT)} DO NOTHING
      RETURNING id
    ), counted AS (
      INSERT INTO usage_counters (environment_id, subscription_id, feature_id, period_start, period_end, value, rollover, alerts_sent, updated_at)
      SELECT ${counter.environmentId}, ${counter.subscriptionId}, ${counter.featureId}, ${counter.periodStart}, ${counter.periodEnd},
             ${counter.create.value}, ${counter.create.rollover}, ${JSON.stringify(counter.create.alertsSent)}::jsonb, ${counter.at}
        FROM report
      ON CONFLICT (subscription_id, feature_id, period_start) DO UPDATE SET value = ${next}, updated_at = ${counter.at}
      RETURNING 1
    )
    SELECT report.id, ${notice} FROM report`.execute(db);
  return rows.length > 0;
}

export interface BatchedReport {
  id: string;
  environmentId: string;
  /** The seller's customerId, for the announcement. */
  customerId: string;
  customerPk: string;
  featureId: string;
  subscriptionId: string;
  value: number;
  resourceId: string | null;
  clientKey: string | null;
  periodStart: Date;
  periodEnd: Date | null;
  /** The rollover a new counter starts with. */
  rollover: number;
  at: Date;
}

/** An SQL expression announcing a change to a customer's usage, given its environment and customer ids (values or SQL). */
export type NoticeOf = (environmentId: SqlText, customerId: SqlText) => RawBuilder<unknown>;

/** The expression that announces nothing, for when there is no cache to tell. */
export function silentNotice(): RawBuilder<unknown> {
  return sql`NULL`;
}

/** Evaluates an announcement as a statement of the transaction. */
export async function evaluateNotice(tx: Tx, notice: RawBuilder<unknown>): Promise<void> {
  await sql`SELECT ${notice}`.execute(tx);
}

/**
 * Writes `reports` in one statement; returns the ids of those not recorded
 * (their client key was used before): usually none, so nothing comes back.
 */
export async function writeReports(db: Executor, reports: readonly BatchedReport[], notice: NoticeOf | null): Promise<Set<string>> {
  const column = <T>(pick: (report: BatchedReport) => T): T[] => reports.map(pick);
  const announce = notice ? notice(sql<string>`changed.environment_id`, sql<string>`changed.customer`) : silentNotice();
  const { rows: lost } = await sql<{ id: string }>`${PREPARED}
    WITH input AS (
      SELECT * FROM unnest(
        ${uuidArray(column((r) => r.id))}::uuid[], ${uuidArray(column((r) => r.environmentId))}::uuid[],
        ${textArray(column((r) => r.customerId))}::text[], ${uuidArray(column((r) => r.customerPk))}::uuid[],
        ${uuidArray(column((r) => r.featureId))}::uuid[], ${uuidArray(column((r) => r.subscriptionId))}::uuid[],
        ${bigintArray(column((r) => r.value))}::bigint[], ${textArray(column((r) => r.resourceId))}::text[],
        ${textArray(column((r) => r.clientKey))}::text[], ${timestamptzArray(column((r) => r.periodStart))}::timestamptz[],
        ${timestamptzArray(column((r) => r.periodEnd))}::timestamptz[], ${bigintArray(column((r) => r.rollover))}::bigint[],
        ${timestamptzArray(column((r) => r.at))}::timestamptz[]
      ) AS i(id, environment_id, customer, customer_pk, feature_id, subscription_id, value, resource_id, client_key,
             period_start, period_end, rollover, at)
    ), report AS (
      INSERT INTO usage_reports (id, environment_id, customer_id, feature_id, subscription_id, behaviour, value,
                                 resource_id, client_idempotency_key, reported_at, created_at)
      SELECT id, environment_id, customer_pk, feature_id, subscription_id, 'DELTA', value, resource_id, client_key, at, at FROM input
      -- Client keys taken in one order by every writer: two batches sharing keys wait for each other instead of deadlocking.
       ORDER BY client_key
      ON CONFLICT ON CONSTRAINT ${sql.id(REPORT_KEY_CONSTRAINT)} DO NOTHING
      RETURNING id
    ), counted AS (
      INSERT INTO usage_counters (environment_id, subscription_id, feature_id, period_start, period_end, value, rollover, alerts_sent, updated_at)
      SELECT i.environment_id, i.subscription_id, i.feature_id, i.period_start, max(i.period_end), sum(i.value)::bigint,
             max(i.rollover), '[]'::jsonb, max(i.at)
        FROM input i JOIN report r ON r.id = i.id
       GROUP BY i.environment_id, i.subscription_id, i.feature_id, i.period_start
       ORDER BY i.subscription_id, i.feature_id, i.period_start
      ON CONFLICT (subscription_id, feature_id, period_start)
      DO UPDATE SET value = usage_counters.value + EXCLUDED.value, updated_at = EXCLUDED.updated_at
      RETURNING 1
    ), changed AS (
      SELECT DISTINCT i.environment_id, i.customer FROM input i JOIN report r ON r.id = i.id
    ), announced AS (
      SELECT ${announce} FROM changed
    )
    -- Only the reports not recorded come back; the count reads every announcement (evaluates each NOTIFY) and returns no row.
    SELECT i.id FROM input i WHERE NOT EXISTS (SELECT FROM report r WHERE r.id = i.id)
    UNION ALL
    SELECT NULL FROM (SELECT count(*) AS n FROM announced) a WHERE a.n < 0`.execute(db);
  return new Set(lost.flatMap((row) => (row.id ? [row.id] : [])));
}

export async function markAlertsSent(
  tx: Tx,
  counter: { subscriptionId: string; featureId: string; periodStart: Date },
  sent: unknown[],
): Promise<void> {
  await tx
    .updateTable('usage_counters')
    .set({ alerts_sent: JSON.stringify(sent) })
    .where('subscription_id', '=', counter.subscriptionId)
    .where('feature_id', '=', counter.featureId)
    .where('period_start', '=', counter.periodStart)
    .execute();
}

export interface ReportRow {
  id: string;
  customer_id: string;
  feature_id: string;
  behaviour: 'SET' | 'DELTA';
  value: number;
  resource_id: string | null;
  reported_at: Date;
}

export interface ReportInsert {
  id: string;
  environmentId: string;
  customerPk: string;
  featureId: string;
  subscriptionId: string;
  behaviour: 'SET' | 'DELTA';
  value: number;
  resourceId: string | null;
  clientKey: string | null;
  at: Date;
}

/** Records a report; with a client key already used, records nothing and returns undefined. */
export async function insertReport(tx: Tx, row: ReportInsert): Promise<{ id: string } | undefined> {
  return tx
    .insertInto('usage_reports')
    .values({
      id: row.id,
      environment_id: row.environmentId,
      customer_id: row.customerPk,
      feature_id: row.featureId,
      subscription_id: row.subscriptionId,
      behaviour: row.behaviour,
      value: row.value,
      resource_id: row.resourceId,
      client_idempotency_key: row.clientKey,
      reported_at: row.at,
      created_at: row.at,
    })
    .onConflict((conflict) => conflict.constraint(REPORT_KEY_CONSTRAINT).doNothing())
    .returning('id')
    .executeTakeFirst();
}

/** The report made with a client idempotency key, with the customer and feature as the caller named them. */
export async function findReportByKey(db: Executor, environmentId: string, clientKey: string) {
  return db
    .selectFrom('usage_reports as r')
    .innerJoin('customers as c', 'c.id', 'r.customer_id')
    .innerJoin('features as f', 'f.id', 'r.feature_id')
    .select(['r.id', 'r.behaviour', 'r.value', 'r.resource_id', 'r.reported_at', 'c.customer_id', 'f.identifier'])
    .where('r.environment_id', '=', environmentId)
    .where('r.client_idempotency_key', '=', clientKey)
    .executeTakeFirst();
}

/** The reports made with any of `clientKeys`, by key, as `findReportByKey` reads each; one prepared statement whatever their number. */
export async function findReportsByKeys(db: Executor, environmentId: string, clientKeys: readonly string[]) {
  type Found = NonNullable<Awaited<ReturnType<typeof findReportByKey>>> & { client_key: string };
  if (clientKeys.length === 0) return new Map<string, Omit<Found, 'client_key'>>();
  const { rows } = await sql<Found>`${PREPARED}
    SELECT r.id, r.behaviour, r.value, r.resource_id, r.reported_at, c.customer_id, f.identifier, r.client_idempotency_key AS client_key
      FROM usage_reports r
      JOIN customers c ON c.id = r.customer_id
      JOIN features f ON f.id = r.feature_id
     WHERE r.environment_id = ${environmentId}::uuid
       AND r.client_idempotency_key IN (SELECT jsonb_array_elements_text(${JSON.stringify(clientKeys)}::jsonb))`.execute(db);
  return new Map(rows.map(({ client_key, ...row }) => [client_key, row]));
}

export interface EventRow {
  customer_id: string;
  event_name: string;
  idempotency_key: string;
  timestamp: string;
  properties: Record<string, unknown>;
  resource_id: string | null;
}

/** Stores an event; one whose idempotency key the environment already has is not stored again (undefined). */
export async function insertEvent(
  tx: Tx,
  row: {
    id: string;
    environmentId: string;
    customerPk: string;
    eventName: string;
    idempotencyKey: string;
    /** The timestamp as PostgreSQL reads it, microseconds kept. */
    occurredAt: string;
    properties: Record<string, unknown>;
    resourceId: string | null;
    at: Date;
  },
): Promise<{ id: string; timestamp: string } | undefined> {
  const { rows } = await sql<{ id: string; timestamp: string }>`
    INSERT INTO usage_events (id, environment_id, customer_id, event_name, idempotency_key, occurred_at, properties, resource_id, created_at)
    VALUES (${row.id}, ${row.environmentId}, ${row.customerPk}, ${row.eventName}, ${row.idempotencyKey},
            ${row.occurredAt}::timestamptz, ${JSON.stringify(row.properties)}::jsonb, ${row.resourceId}, ${row.at})
    ON CONFLICT ON CONSTRAINT ${sql.id(EVENT_KEY_CONSTRAINT)} DO NOTHING
    RETURNING id, to_char(occurred_at AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI:SS.US') AS timestamp`.execute(tx);
  return rows[0];
}

/** The stored event of an idempotency key, with its customer as the caller named it. */
export async function findEventByKey(db: Executor, environmentId: string, idempotencyKey: string): Promise<EventRow | undefined> {
  const { rows } = await sql<EventRow>`
    SELECT c.customer_id, e.event_name, e.idempotency_key, e.properties, e.resource_id,
           to_char(e.occurred_at AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI:SS.US') AS timestamp
    FROM usage_events e JOIN customers c ON c.id = e.customer_id
    WHERE e.environment_id = ${environmentId} AND e.idempotency_key = ${idempotencyKey}`.execute(db);
  return rows[0];
}

/** What each meter of a subscription counted in the usage period that began at `periodStart`. */
export async function usageOfPeriod(db: Executor, subscriptionId: string, periodStart: Date): Promise<Record<string, number>> {
  const rows = await db
    .selectFrom('usage_counters')
    .select(['feature_id', 'value'])
    .where('subscription_id', '=', subscriptionId)
    .where('period_start', '=', periodStart)
    .modifyEnd(PREPARED_END)
    .execute();
  return Object.fromEntries(rows.map((row) => [row.feature_id, Number(row.value)]));
}
