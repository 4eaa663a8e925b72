import { PREPARED_END } from '../../db/prepared.js';
import { sql, type Insertable, type Selectable } from 'kysely';
import { holderGone } from '../../db/lease-holder.js';
import type { Executor, Tx } from '../../db/transaction.js';
import type { PaymentIntentsTable } from '../../db/schema.js';

export type IntentRow = Selectable<PaymentIntentsTable>;
export const ONE_PROCESSING_INDEX = 'payment_intents_one_processing';
export const IDEMPOTENCY_INDEX = 'payment_intents_idempotency';

export async function insertIntent(db: Executor, row: Insertable<PaymentIntentsTable>): Promise<IntentRow> {
  return db.insertInto('payment_intents').values(row).returningAll().modifyEnd(PREPARED_END).executeTakeFirstOrThrow();
}

export async function findIntent(db: Executor, id: string): Promise<IntentRow | undefined> {
  return db.selectFrom('payment_intents').selectAll().where('id', '=', id).executeTakeFirst();
}

/** The intent a request with this Idempotency-Key recorded, if any. */
export async function intentOfIdempotencyKey(db: Executor, scope: string, key: string): Promise<IntentRow | undefined> {
  return db
    .selectFrom('payment_intents')
    .selectAll()
    .where('idempotency_scope', '=', scope)
    .where('idempotency_key', '=', key)
    .modifyEnd(PREPARED_END)
    .executeTakeFirst();
}

/**
 * Settles a processing intent in the caller's transaction; false when it was settled
 * already (by the request itself, a retry or the recovery task, whichever came first).
 */
export async function settleIntent(
  tx: Tx,
  id: string,
  settlement: Pick<IntentRow, 'status' | 'provider_ref' | 'failure_code' | 'failure_message'> & {
    result: Record<string, unknown> | null;
    at: Date;
  },
): Promise<boolean> {
  const settled = await tx
    .updateTable('payment_intents')
    .set({
      status: settlement.status,
      provider_ref: settlement.provider_ref,
      failure_code: settlement.failure_code,
      failure_message: settlement.failure_message,
      result: settlement.result === null ? null : JSON.stringify(settlement.result),
      settled_at: settlement.at,
    })
    .where('id', '=', id)
    .where('status', '=', 'processing')
    .returning('id')
    .modifyEnd(PREPARED_END)
    .executeTakeFirst();
  return settled !== undefined;
}

/** Intents still processing since before `before`, or recorded by a process that is gone (db/lease-holder.ts): their process most likely died. */
export async function staleIntents(db: Executor, before: Date, limit: number): Promise<IntentRow[]> {
  return db
    .selectFrom('payment_intents')
    .selectAll()
    .where('status', '=', 'processing')
    .where((eb) => eb.or([eb('created_at', '<', before), holderGone(sql.ref('holder'))]))
    // A payment waiting for its buyer to authenticate is theirs until its window has passed.
    .where((eb) => eb.or([eb('action_expires_at', 'is', null), eb('action_expires_at', '<', before)]))
    .orderBy('created_at')
    .limit(limit)
    .execute();
}

/** An on-session payment that waits for the buyer to authenticate the card (the provider's charge `ref`) until `until`. */
export async function awaitAction(db: Executor, id: string, ref: string, until: Date): Promise<void> {
  await db.updateTable('payment_intents').set({ action_ref: ref, action_expires_at: until }).where('id', '=', id).where('status', '=', 'processing').execute();
}

/**
 * The provider's charge of a processing intent, learnt from the provider (a signed webhook
 * naming it): later completions read that charge instead of asking for it again.
 */
export async function noteProviderCharge(db: Executor, id: string, ref: string): Promise<void> {
  await db.updateTable('payment_intents').set({ provider_ref: ref }).where('id', '=', id).where('status', '=', 'processing').execute();
}

/** The intent whose provider calls carry this key (Stripe's metadata names it), within one environment. */
export async function intentOfProviderKey(db: Executor, environmentId: string, providerKey: string): Promise<IntentRow | undefined> {
  return db.selectFrom('payment_intents').selectAll().where('environment_id', '=', environmentId).where('provider_key', '=', providerKey).executeTakeFirst();
}
