import { sql, type Selectable } from 'kysely';
import type { Executor } from '../../db/transaction.js';
import { holderGone } from '../../db/lease-holder.js';
import type { IdempotencyKeysTable } from '../../db/schema.js';

export type IdempotencyRow = Selectable<IdempotencyKeysTable>;

/** Claims the key for a request; false when another request holds or held it. */
export async function claimKey(
  db: Executor,
  claim: { scope: string; key: string; hash: string; lockedUntil: Date; at: Date; holder: number | null },
): Promise<boolean> {
  const claimed = await db
    .insertInto('idempotency_keys')
    .values({ scope: claim.scope, key: claim.key, request_hash: claim.hash, locked_until: claim.lockedUntil, holder: claim.holder, created_at: claim.at })
    .onConflict((oc) => oc.columns(['scope', 'key']).doNothing())
    .returning('key')
    .executeTakeFirst();
  return claimed !== undefined;
}

export async function findKey(db: Executor, scope: string, key: string): Promise<IdempotencyRow | undefined> {
  return db.selectFrom('idempotency_keys').selectAll().where('scope', '=', scope).where('key', '=', key).executeTakeFirst();
}

/** Forgets a key: an expired one (if it is still the one seen), or a claim whose request failed. */
export async function deleteKey(db: Executor, scope: string, key: string, createdAt?: Date): Promise<void> {
  let query = db.deleteFrom('idempotency_keys').where('scope', '=', scope).where('key', '=', key);
  if (createdAt) query = query.where('created_at', '=', createdAt);
  await query.execute();
}

/**
 * Takes over a key not answered yet whose holder is gone: its lease ran out, or the process
 * that holds it has died (its lock is free, db/lease-holder.ts). False when the holder is
 * alive, or someone else took it over first (the row then names them, alive).
 */
export async function takeOverAbandoned(
  db: Executor,
  claim: { scope: string; key: string; now: Date; lockedUntil: Date; holder: number | null },
): Promise<boolean> {
  const taken = await db
    .updateTable('idempotency_keys')
    .set({ locked_until: claim.lockedUntil, holder: claim.holder })
    .where('scope', '=', claim.scope)
    .where('key', '=', claim.key)
    .where('response_status', 'is', null)
    .where((eb) => eb.or([eb('locked_until', '<=', claim.now), holderGone(sql.ref('holder'))]))
    .returning('key')
    .executeTakeFirst();
  return taken !== undefined;
}

/** Keeps a request's answer under its key, in the caller's transaction when it has one. */
export async function keepAnswer(db: Executor, scope: string, key: string, status: number, body: string): Promise<void> {
  await db
    .updateTable('idempotency_keys')
    .set({ response_status: status, response_body: body, locked_until: null, holder: null })
    .where('scope', '=', scope)
    .where('key', '=', key)
    .execute();
}

export async function purgeKeysBefore(db: Executor, cutoff: Date): Promise<number> {
  const result = await db.deleteFrom('idempotency_keys').where('created_at', '<', cutoff).executeTakeFirst();
  return Number(result.numDeletedRows ?? 0);
}
