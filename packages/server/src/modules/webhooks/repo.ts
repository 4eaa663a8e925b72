import { holderGone } from '../../db/lease-holder.js';
import { sql, type Insertable, type Selectable, type Updateable } from 'kysely';
import type { Executor } from '../../db/transaction.js';
import type { WebhookAttemptsTable, WebhookEndpointsTable } from '../../db/schema.js';
import type { EnvironmentKind } from '../../config.js';
import { bigintArray, textArray, timestamptzArray, uuidArray } from '../../db/array-literals.js';
import { PREPARED } from '../../db/prepared.js';
import { WEBHOOK_DELIVERIES_CHANNEL } from '../events/queries.js';

export type EndpointRow = Selectable<WebhookEndpointsTable>;
export type AttemptRow = Selectable<WebhookAttemptsTable>;

// Endpoints

export async function insertEndpoint(db: Executor, row: Insertable<WebhookEndpointsTable>): Promise<EndpointRow> {
  return db.insertInto('webhook_endpoints').values(row).returningAll().executeTakeFirstOrThrow();
}

export async function findEndpoint(db: Executor, environmentId: string, id: string, forUpdate = false): Promise<EndpointRow | undefined> {
  let query = db.selectFrom('webhook_endpoints').selectAll().where('environment_id', '=', environmentId).where('id', '=', id);
  if (forUpdate) query = query.forUpdate();
  return query.executeTakeFirst();
}

export async function countEndpoints(db: Executor, environmentId: string): Promise<number> {
  const row = await db
    .selectFrom('webhook_endpoints')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('environment_id', '=', environmentId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function listEndpoints(db: Executor, environmentId: string, page: { offset: number; pageSize: number }): Promise<EndpointRow[]> {
  return db
    .selectFrom('webhook_endpoints')
    .selectAll()
    .where('environment_id', '=', environmentId)
    .orderBy('created_at', 'desc')
    .orderBy('id')
    .offset(page.offset)
    .limit(page.pageSize)
    .execute();
}

export async function updateEndpoint(db: Executor, id: string, patch: Updateable<WebhookEndpointsTable>): Promise<EndpointRow> {
  return db.updateTable('webhook_endpoints').set(patch).where('id', '=', id).returningAll().executeTakeFirstOrThrow();
}

export async function deleteEndpoint(db: Executor, environmentId: string, id: string): Promise<boolean> {
  const deleted = await db.deleteFrom('webhook_endpoints').where('environment_id', '=', environmentId).where('id', '=', id).executeTakeFirst();
  return Number(deleted.numDeletedRows) > 0;
}

/** After an attempt: a success clears the run of failures; a failure extends it. */
export async function noteEndpointOutcome(db: Executor, id: string, success: boolean, at: Date): Promise<EndpointRow | undefined> {
  const query = db.updateTable('webhook_endpoints').where('id', '=', id);
  const updated = success
    ? query.set({ consecutive_failures: 0, failing_since: null })
    : query.set((eb) => ({ consecutive_failures: eb('consecutive_failures', '+', 1), failing_since: eb.fn.coalesce('failing_since', sql<Date>`${at}`) }));
  return updated.returningAll().executeTakeFirst();
}

// Deliveries

export interface ClaimedDelivery {
  id: string;
  environment_id: string;
  organization_id: string;
  environment_kind: EnvironmentKind;
  endpoint_id: string;
  event_id: string;
  event_type: string;
  event_created_at: Date;
  attempt_count: number;
  /** The event's envelope as stored (compact JSON): the request body, byte for byte. */
  body: string;
  url: string;
  secret_sealed: string;
  previous_secret_sealed: string | null;
  previous_secret_expires_at: Date | null;
  standard_signature: boolean;
}

export interface ClaimRequest {
  now: Date;
  leaseUntil: Date;
  /** This process's lease holder: a delivery it leaves unfinished is taken over once the holder is gone. */
  holder: number | null;
  limit: number;
  /** At most this many of one endpoint's deliveries: a slow receiver cannot take every slot. */
  perEndpoint: number;
  /** Endpoints that have enough in flight in this process already. */
  excludedEndpoints: string[];
  /** Only these organizations' deliveries; all when undefined. */
  organizations?: readonly string[] | undefined;
}

/**
 * Takes up to `limit` due deliveries under a lease, oldest event first and at most
 * `perEndpoint` of any one endpoint: pending ones whose time has come and leased ones
 * whose process died (its lease ran out, or its lease holder is gone). A delivery waits
 * while an earlier event of the same object is still pending or being delivered to the
 * same endpoint; disabled endpoints' deliveries wait too. Rows another dispatcher is
 * taking are skipped.
 */
export async function claimDueDeliveries(db: Executor, claim: ClaimRequest): Promise<ClaimedDelivery[]> {
  const { now, organizations } = claim;
  const ofOrganizations = organizations ? sql`AND e.organization_id = ANY (${[...organizations]}::uuid[])` : sql``;
  const due = sql`((c.status = 'pending' AND (c.next_attempt_at IS NULL OR c.next_attempt_at <= ${now}))
    OR (c.status = 'delivering' AND (c.lease_until < ${now} OR ${holderGone(sql.ref('c.holder'))})))`;
  // Candidates oldest first along the waiting index, read without locks; the cap per endpoint
  // is applied to them; the rows are then locked, and a row another dispatcher took meanwhile
  // is skipped (or, changed by it, fails the due condition again under the lock).
  const result = await sql<ClaimedDelivery>`${PREPARED}
    WITH candidates AS (
      SELECT c.id, c.endpoint_id, c.event_seq FROM webhook_deliveries c
      JOIN webhook_endpoints e ON e.id = c.endpoint_id AND e.enabled ${ofOrganizations}
      WHERE ${due}
        AND NOT (c.endpoint_id = ANY (${claim.excludedEndpoints}::uuid[]))
        AND NOT EXISTS (
          SELECT 1 FROM webhook_deliveries p
          WHERE p.endpoint_id = c.endpoint_id AND p.ordering_key = c.ordering_key
            AND p.event_seq < c.event_seq AND p.status IN ('pending', 'delivering'))
      ORDER BY c.event_seq
      LIMIT ${claim.limit * 4}
    ), capped AS (
      SELECT id FROM (
        SELECT id, event_seq, row_number() OVER (PARTITION BY endpoint_id ORDER BY event_seq) AS n FROM candidates
      ) ranked
      WHERE n <= ${claim.perEndpoint}
      ORDER BY event_seq
      LIMIT ${claim.limit}
    ), picked AS (
      SELECT c.id FROM webhook_deliveries c
      WHERE c.id IN (SELECT id FROM capped) AND ${due}
      FOR UPDATE SKIP LOCKED
    )
    , claimed AS (
      UPDATE webhook_deliveries d
      SET status = 'delivering', lease_until = ${claim.leaseUntil}, holder = ${claim.holder}
      FROM picked, webhook_endpoints e, events ev, environments env
      WHERE d.id = picked.id AND e.id = d.endpoint_id AND ev.id = d.event_id AND env.id = d.environment_id
      RETURNING d.id, d.event_seq, d.environment_id, e.organization_id, env.kind AS environment_kind, d.endpoint_id, d.event_id,
        d.event_type, ev.created_at AS event_created_at, d.attempt_count, ev.payload::text AS body, e.url, e.secret_sealed,
        e.previous_secret_sealed, e.previous_secret_expires_at, e.standard_signature
    )
    -- Sent oldest event first, as they were picked.
    SELECT * FROM claimed ORDER BY event_seq
  `.execute(db);
  return result.rows;
}

/** Records the outcome of an attempt on its delivery: done, failed for good, or due again at `nextAttemptAt`. */
export async function finishAttempt(
  db: Executor,
  id: string,
  outcome: { success: boolean; nextAttemptAt: Date | null; at: Date },
): Promise<void> {
  const status = outcome.success ? 'succeeded' : outcome.nextAttemptAt ? 'pending' : 'failed';
  await db
    .updateTable('webhook_deliveries')
    .set((eb) => ({
      status,
      attempt_count: eb('attempt_count', '+', 1),
      next_attempt_at: outcome.success ? null : outcome.nextAttemptAt,
      lease_until: null,
      last_attempt_at: outcome.at,
    }))
    .where('id', '=', id)
    .execute();
}

/**
 * Records successful attempts in one statement (its own transaction): their log rows,
 * their deliveries done, and their endpoints' runs of failures cleared where there is
 * one (an endpoint without failures is not written, so that concurrent successes do
 * not queue on its row). The rows travel as one array per column: the statement's text
 * is the same for any number of them, prepared once per connection (decision 0119).
 */
export async function recordSuccesses(db: Executor, attempts: Insertable<WebhookAttemptsTable>[]): Promise<void> {
  if (attempts.length === 0) return;
  const column = <T>(pick: (a: Insertable<WebhookAttemptsTable>) => T): T[] => attempts.map(pick);
  const endpointIds = [...new Set(column((a) => a.endpoint_id))];
  await sql`${PREPARED}
    WITH attempt AS (
      INSERT INTO webhook_attempts (id, environment_id, delivery_id, endpoint_id, event_id, event_type, event_created_at,
        retry_count, url, request_headers, status_code, is_success, error, response_excerpt, duration_ms, attempted_at)
      SELECT a.id, a.environment_id, a.delivery_id, a.endpoint_id, a.event_id, a.event_type, a.event_created_at,
        a.retry_count, a.url, a.request_headers::jsonb, a.status_code, true, NULL, a.response_excerpt, a.duration_ms, a.attempted_at
      FROM unnest(${uuidArray(column((a) => a.id))}::uuid[], ${uuidArray(column((a) => a.environment_id))}::uuid[],
        ${uuidArray(column((a) => a.delivery_id))}::uuid[], ${uuidArray(column((a) => a.endpoint_id))}::uuid[],
        ${uuidArray(column((a) => a.event_id))}::uuid[], ${textArray(column((a) => a.event_type))}::text[],
        ${timestamptzArray(column((a) => a.event_created_at as Date))}::timestamptz[], ${bigintArray(column((a) => a.retry_count))}::int[],
        ${textArray(column((a) => a.url))}::text[], ${textArray(column((a) => a.request_headers as string))}::text[],
        ${bigintArray(column((a) => a.status_code ?? null))}::int[], ${textArray(column((a) => a.response_excerpt ?? ''))}::text[],
        ${bigintArray(column((a) => a.duration_ms))}::int[], ${timestamptzArray(column((a) => a.attempted_at as Date))}::timestamptz[])
        AS a (id, environment_id, delivery_id, endpoint_id, event_id, event_type, event_created_at,
          retry_count, url, request_headers, status_code, response_excerpt, duration_ms, attempted_at)
      RETURNING delivery_id, attempted_at
    ), delivery AS (
      UPDATE webhook_deliveries d
      SET status = 'succeeded', attempt_count = d.attempt_count + 1, next_attempt_at = NULL, lease_until = NULL, last_attempt_at = a.attempted_at
      FROM attempt a
      WHERE d.id = a.delivery_id
    )
    UPDATE webhook_endpoints SET consecutive_failures = 0, failing_since = NULL
    WHERE id = ANY (${uuidArray(endpointIds)}::uuid[]) AND (consecutive_failures <> 0 OR failing_since IS NOT NULL)
  `.execute(db);
}

/** Deliveries of one event (resend, or a replay of a time range) queued for an endpoint. */
export async function queueEventsFor(
  db: Executor,
  endpoint: Pick<EndpointRow, 'id' | 'environment_id' | 'event_types'>,
  selection: { eventId: string } | { since: Date; until: Date },
): Promise<number> {
  const types = endpoint.event_types;
  const filter =
    'eventId' in selection
      ? sql`ev.id = ${selection.eventId}`
      : sql`ev.created_at >= ${selection.since} AND ev.created_at < ${selection.until}
            AND (${types === null} OR ev.type = ANY (${types ?? []}::text[]))`;
  // A resend never waits on other deliveries; a replay keeps each object's events in order.
  const ordering = 'eventId' in selection ? sql`NULL` : sql`ev.payload -> 'data' -> 'object' ->> 'id'`;
  const result = await sql`
    INSERT INTO webhook_deliveries (id, environment_id, endpoint_id, event_id, event_seq, event_type, ordering_key, status)
    SELECT gen_random_uuid(), ev.environment_id, ${endpoint.id}, ev.id, ev.seq, ev.type, ${ordering}, 'pending'
    FROM events ev
    WHERE ev.environment_id = ${endpoint.environment_id} AND ${filter}
  `.execute(db);
  return Number(result.numAffectedRows ?? 0);
}

/** Wakes the dispatchers (at commit, inside a transaction): deliveries were queued or became sendable. */
export async function announceDeliveries(db: Executor): Promise<void> {
  await sql`SELECT pg_notify(${WEBHOOK_DELIVERIES_CHANNEL}, '')`.execute(db);
}

/** Deliveries not yet done: the queue depth. */
export async function countWaitingDeliveries(db: Executor): Promise<number> {
  const row = await db
    .selectFrom('webhook_deliveries')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('status', 'in', ['pending', 'delivering'])
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

// Attempts (the delivery log)

export async function insertAttempt(db: Executor, row: Insertable<WebhookAttemptsTable>): Promise<void> {
  await db.insertInto('webhook_attempts').values(row).execute();
}

export interface LogFilter {
  environmentId: string;
  from: Date;
  to: Date;
  success?: boolean;
  eventType?: string;
  eventId?: string;
  endpointId?: string;
}

function logQuery(db: Executor, filter: LogFilter) {
  let query = db
    .selectFrom('webhook_attempts as a')
    .where('a.environment_id', '=', filter.environmentId)
    .where('a.attempted_at', '>=', filter.from)
    .where('a.attempted_at', '<=', filter.to);
  if (filter.success !== undefined) query = query.where('a.is_success', '=', filter.success);
  if (filter.eventType) query = query.where('a.event_type', '=', filter.eventType);
  if (filter.eventId) query = query.where('a.event_id', '=', filter.eventId);
  if (filter.endpointId) query = query.where('a.endpoint_id', '=', filter.endpointId);
  return query;
}

export type LogRow = AttemptRow & { payload: Record<string, unknown> };

export async function listAttempts(db: Executor, filter: LogFilter, page: { offset: number; pageSize: number }): Promise<{ count: number; rows: LogRow[] }> {
  const counted = await logQuery(db, filter).select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow();
  const rows = await logQuery(db, filter)
    .innerJoin('events as ev', 'ev.id', 'a.event_id')
    .selectAll('a')
    .select('ev.payload')
    .orderBy('a.attempted_at', 'desc')
    .orderBy('a.id')
    .offset(page.offset)
    .limit(page.pageSize)
    .execute();
  return { count: Number(counted.n), rows: rows as LogRow[] };
}

export async function findAttempt(db: Executor, environmentId: string, id: string): Promise<LogRow | undefined> {
  const row = await db
    .selectFrom('webhook_attempts as a')
    .innerJoin('events as ev', 'ev.id', 'a.event_id')
    .selectAll('a')
    .select('ev.payload')
    .where('a.environment_id', '=', environmentId)
    .where('a.id', '=', id)
    .executeTakeFirst();
  return row as LogRow | undefined;
}

/** Log rows and finished deliveries older than `before` are deleted. */
export async function pruneDeliveryLog(db: Executor, before: Date): Promise<number> {
  const attempts = await db.deleteFrom('webhook_attempts').where('attempted_at', '<', before).executeTakeFirst();
  await db.deleteFrom('webhook_deliveries').where('status', 'in', ['succeeded', 'failed']).where('last_attempt_at', '<', before).execute();
  return Number(attempts.numDeletedRows);
}
