import type { Executor } from '../../db/transaction.js';

export async function insertEvent(
  db: Executor,
  row: {
    id: string;
    environmentId: string;
    organizationId: string;
    type: string;
    payload: Record<string, unknown>;
    at: Date;
  },
): Promise<void> {
  await db
    .insertInto('events')
    .values({
      id: row.id,
      environment_id: row.environmentId,
      organization_id: row.organizationId,
      type: row.type,
      payload: JSON.stringify(row.payload),
      created_at: row.at,
    })
    .execute();
}
