import type { Transaction } from 'kysely';
import type { Db } from './connect.js';
import type { Database } from './schema.js';

export type Tx = Transaction<Database>;
export type Executor = Db | Tx;

/** The one way services open a transaction. */
export function inTransaction<T>(db: Db, work: (tx: Tx) => Promise<T>): Promise<T> {
  return db.transaction().execute(work);
}

export function isUniqueViolation(error: unknown, constraint?: string): boolean {
  const e = error as { code?: string; constraint?: string; message?: string } | null;
  if (!e || e.code !== '23505') return false;
  if (!constraint) return true;
  return e.constraint === constraint || (e.message ?? '').includes(constraint);
}
