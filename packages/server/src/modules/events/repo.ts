import { sql, type RawBuilder } from 'kysely';
import { PREPARED } from '../../db/prepared.js';
import type { Executor } from '../../db/transaction.js';

export interface EventRowInput {
  id: string;
  environmentId: string;
  organizationId: string;
  type: string;
  payload: Record<string, unknown>;
  /** The id of the event's object: its deliveries to one endpoint go in order. */
  orderingKey: string | null;
  at: Date;
  /** Who caused the event (lib/actor.ts); null: the API or background work. */
  actor: string | null;
  /** The customerId of the customer the event is about (its timeline, decision 0085); null: none. */
  customerId: string | null;
}

export async function insertEvent(db: Executor, row: EventRowInput): Promise<void> {
  await insertEvents(db, [row]);
}

/**
 * The event types buyers hear about (modules/mail, decision 0067): each such event queues,
 * in its own statement, a `compose-mail` job that writes the email after the commit. Of
 * `subscription.updated`, only the events that change its end date (a cancellation set for
 * later, decision 0070): the others (every renewal writes one) queue nothing.
 */
export const MAILED_EVENT_TYPES = ['invoice.paid', 'credit_note.created', 'invoice.payment_failed', 'subscription.cancelled', 'subscription.updated'] as const;
export const COMPOSE_MAIL_JOB = 'compose-mail';
const mailedTypes = sql.join(MAILED_EVENT_TYPES.filter((type) => type !== 'subscription.updated').map((type) => sql.lit(type)));

/**
 * Announced (NOTIFY, empty payload) by every statement that queues webhook deliveries, so
 * that dispatchers claim them as the transaction commits rather than at their next poll
 * (decision 0119). PostgreSQL folds a transaction's identical notifications into one.
 */
export const WEBHOOK_DELIVERIES_CHANNEL = 'billow_webhook_deliveries';

/** Events in one statement up to which it is prepared (db/prepared.ts). */
const PREPARED_ROWS = 8;

/**
 * Several events in one statement, in the order given (their `seq` follows it), and,
 * in the same statement, one pending webhook delivery for each enabled endpoint of an
 * event's environment subscribed to its type (decision 0031): an event is never
 * committed without its deliveries, and costs no extra round trip. An event buyers hear
 * about queues its compose-mail job in the same statement (decision 0067). When it
 * queued any delivery, the statement also notifies the dispatchers (decision 0119).
 */
export async function insertEvents(db: Executor, rows: EventRowInput[]): Promise<void> {
  if (rows.length === 0) return;
  await eventStatement(rows, sql``).execute(db);
}

/**
 * `change` (one data-modifying statement without RETURNING, such as an INSERT whose
 * row the caller already knows) and the events it causes with their deliveries, as one
 * statement: atomic on its own, so a create needs neither BEGIN nor COMMIT, and one
 * round trip (decision 0042). A `change` that fails (a unique violation) writes no event.
 */
export async function changeWithEvents(db: Executor, change: RawBuilder<unknown>, rows: EventRowInput[]): Promise<void> {
  if (rows.length === 0) {
    await change.execute(db);
    return;
  }
  await eventStatement(rows, sql`change AS (${change}),`).execute(db);
}

function eventStatement(rows: EventRowInput[], leadingCte: RawBuilder<unknown>): RawBuilder<unknown> {
  const values = sql.join(
    rows.map(
      (row) =>
        sql`(${row.id}::uuid, ${row.environmentId}::uuid, ${row.organizationId}::uuid, ${row.type}, ${JSON.stringify(row.payload)}::json, ${row.at}::timestamptz, ${row.orderingKey}::text, ${row.actor}::text, ${row.customerId}::text)`,
    ),
  );
  // A transaction's events are a few, in forms fixed by the code: prepared. Batches of more are not.
  const prepared = rows.length <= PREPARED_ROWS ? PREPARED : sql``;
  return sql`${prepared}
    WITH ${leadingCte}
    input (id, environment_id, organization_id, type, payload, created_at, ordering_key, actor, customer_id) AS (VALUES ${values}),
    event AS (
      INSERT INTO events (id, environment_id, organization_id, type, payload, created_at, actor, customer_id)
      SELECT id, environment_id, organization_id, type, payload, created_at, actor, customer_id FROM input
      RETURNING id, seq, environment_id, type
    ),
    mail_job AS (
      INSERT INTO jobs (name, payload, unique_key, state)
      SELECT ${sql.lit(COMPOSE_MAIL_JOB)}, jsonb_build_object('eventId', event.id), 'event:' || event.id, 'pending'
      FROM event JOIN input ON input.id = event.id
      WHERE event.type IN (${mailedTypes})
        OR (event.type = 'subscription.updated' AND (input.payload::jsonb -> 'data' -> 'previous_attributes' -> 'end_date') IS NOT NULL)
      ON CONFLICT DO NOTHING
    ),
    delivery AS (
      INSERT INTO webhook_deliveries (id, environment_id, endpoint_id, event_id, event_seq, event_type, ordering_key, status)
      SELECT gen_random_uuid(), event.environment_id, endpoint.id, event.id, event.seq, event.type, input.ordering_key, 'pending'
      FROM event
      JOIN input ON input.id = event.id
      JOIN webhook_endpoints endpoint ON endpoint.environment_id = event.environment_id
      WHERE endpoint.enabled AND (endpoint.event_types IS NULL OR event.type = ANY (endpoint.event_types))
      RETURNING 1
    )
    SELECT pg_notify(${sql.lit(WEBHOOK_DELIVERIES_CHANNEL)}, '') FROM (SELECT 1 FROM delivery LIMIT 1) queued
  `;
}

/** How many events are about one customer of an environment (its timeline, decision 0085). */
export async function countCustomerEvents(db: Executor, environmentId: string, customerId: string): Promise<number> {
  const row = await db
    .selectFrom('events')
    .select((eb) => eb.fn.countAll<string>().as('count'))
    .where('environment_id', '=', environmentId)
    .where('customer_id', '=', customerId)
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

/** One page of a customer's events, newest first: a walk of events_customer_idx. */
export function customerEvents(db: Executor, environmentId: string, customerId: string, page: { offset: number; pageSize: number }) {
  return db
    .selectFrom('events')
    .select(['id', 'type', 'payload', 'actor', 'created_at'])
    .where('environment_id', '=', environmentId)
    .where('customer_id', '=', customerId)
    .orderBy('seq', 'desc')
    .offset(page.offset)
    .limit(page.pageSize)
    .execute();
}
