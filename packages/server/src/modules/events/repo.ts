import { PREPARED_END } from '../../db/prepared.js';
import type { Executor } from '../../db/transaction.js';

export interface EventRowInput {
  id: string;
  environmentId: string;
  organizationId: string;
  type: string;
  payload: Record<string, unknown>;
  at: Date;
}

export async function insertEvent(db: Executor, row: EventRowInput): Promise<void> {
  await insertEvents(db, [row]);
}

/** Events in one statement up to which it is prepared (db/prepared.ts). */
const PREPARED_ROWS = 8;

/** Several events in one statement, in the order given (their `seq` follows it). */
export async function insertEvents(db: Executor, rows: EventRowInput[]): Promise<void> {
  if (rows.length === 0) return;
  await db
    .insertInto('events')
    .values(
      rows.map((row) => ({
        id: row.id,
        environment_id: row.environmentId,
        organization_id: row.organizationId,
        type: row.type,
        payload: JSON.stringify(row.payload),
        created_at: row.at,
      })),
    )
    // A transaction's events are a few, in forms fixed by the code: prepared. Batches of more are not.
    .$if(rows.length <= PREPARED_ROWS, (query) => query.modifyEnd(PREPARED_END))
    .execute();
}
