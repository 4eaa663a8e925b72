import type { Selectable } from 'kysely';
import type { Executor } from '../../../db/transaction.js';
import type { PortalSignInsTable } from '../../../db/schema.js';

export type SignInRow = Selectable<PortalSignInsTable>;

export async function insertSignIn(db: Executor, row: Omit<SignInRow, 'attempts' | 'verified_at' | 'used_at'>): Promise<void> {
  await db.insertInto('portal_sign_ins').values(row).execute();
}

/** Codes asked for this email in this environment in the window (bounded on both sides: clocks of tests and test clocks differ). */
export async function countOfEmail(db: Executor, environmentId: string, email: string, since: Date, until: Date): Promise<number> {
  const row = await db
    .selectFrom('portal_sign_ins')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('environment_id', '=', environmentId)
    .where('email', '=', email)
    .where('created_at', '>', since)
    .where('created_at', '<=', until)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Codes asked for from this client address in the window, in every portal of the instance. */
export async function countOfAddress(db: Executor, address: string, since: Date, until: Date): Promise<number> {
  const row = await db
    .selectFrom('portal_sign_ins')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('client_address', '=', address)
    .where('created_at', '>', since)
    .where('created_at', '<=', until)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** A sign-in of this environment, asked for by this browser, locked for the rest of the transaction. */
export function lockSignIn(db: Executor, id: string, environmentId: string, browserHash: string): Promise<SignInRow | undefined> {
  return db
    .selectFrom('portal_sign_ins')
    .selectAll()
    .where('id', '=', id)
    .where('environment_id', '=', environmentId)
    .where('browser_hash', '=', browserHash)
    .forUpdate()
    .executeTakeFirst();
}

/** A sign-in as its code page shows it (not locked). */
export function findSignIn(db: Executor, id: string, environmentId: string, browserHash: string): Promise<SignInRow | undefined> {
  return db
    .selectFrom('portal_sign_ins')
    .selectAll()
    .where('id', '=', id)
    .where('environment_id', '=', environmentId)
    .where('browser_hash', '=', browserHash)
    .executeTakeFirst();
}

export async function countWrongCode(db: Executor, id: string): Promise<void> {
  await db.updateTable('portal_sign_ins').set((eb) => ({ attempts: eb('attempts', '+', 1) })).where('id', '=', id).execute();
}

export async function markVerified(db: Executor, id: string, at: Date): Promise<void> {
  await db.updateTable('portal_sign_ins').set({ verified_at: at }).where('id', '=', id).execute();
}

export async function markUsed(db: Executor, id: string, at: Date): Promise<void> {
  await db.updateTable('portal_sign_ins').set({ used_at: at }).where('id', '=', id).execute();
}

/** Deletes the sign-ins asked for before `before` (long past their code and the limits' window); returns how many. */
export async function deleteSignInsBefore(db: Executor, before: Date): Promise<number> {
  const result = await db.deleteFrom('portal_sign_ins').where('created_at', '<', before).executeTakeFirst();
  return Number(result.numDeletedRows);
}
