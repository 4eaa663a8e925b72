import { sql } from 'kysely';
import type { Executor } from '../../db/transaction.js';

/**
 * Writes an event and, in the same statement, one pending webhook delivery for each
 * enabled endpoint of its environment subscribed to its type (decision 0031): an event
 * is never committed without its deliveries, and costs no extra round trip.
 */
export async function insertEvent(
  db: Executor,
  row: {
    id: string;
    environmentId: string;
    organizationId: string;
    type: string;
    payload: Record<string, unknown>;
    /** The id of the event's object: its deliveries to one endpoint go in order. */
    orderingKey: string | null;
    at: Date;
  },
): Promise<void> {
  await sql`
    WITH event AS (
      INSERT INTO events (id, environment_id, organization_id, type, payload, created_at)
      VALUES (${row.id}, ${row.environmentId}, ${row.organizationId}, ${row.type}, ${JSON.stringify(row.payload)}, ${row.at})
      RETURNING id, seq, environment_id
    )
    INSERT INTO webhook_deliveries (id, environment_id, endpoint_id, event_id, event_seq, event_type, ordering_key, status)
    SELECT gen_random_uuid(), event.environment_id, endpoint.id, event.id, event.seq, ${row.type}, ${row.orderingKey}, 'pending'
    FROM event
    JOIN webhook_endpoints endpoint ON endpoint.environment_id = event.environment_id
    WHERE endpoint.enabled AND (endpoint.event_types IS NULL OR ${row.type} = ANY (endpoint.event_types))
  `.execute(db);
}
