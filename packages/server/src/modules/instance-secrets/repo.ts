import type { Executor } from '../../db/transaction.js';

export async function findSecret(db: Executor, name: string): Promise<string | undefined> {
  const row = await db.selectFrom('instance_secrets').select('value').where('name', '=', name).executeTakeFirst();
  return row?.value;
}

/** Keeps the first value written: processes starting together agree on one secret. */
export async function insertSecretIfAbsent(db: Executor, name: string, value: string, at: Date): Promise<void> {
  await db
    .insertInto('instance_secrets')
    .values({ name, value, created_at: at })
    .onConflict((oc) => oc.column('name').doNothing())
    .execute();
}
