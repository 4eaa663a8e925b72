import type { Transaction } from 'kysely';
import type { Db } from './connect.js';
import type { Database } from './schema.js';

export type Tx = Transaction<Database>;
export type Executor = Db | Tx;

type Step = () => Promise<void>;

/** The steps each open transaction runs last, just before its commit (beforeCommit). */
const lastSteps = new WeakMap<Tx, Step[]>();

/** The one way services open a transaction. */
export function inTransaction<T>(db: Db, work: (tx: Tx) => Promise<T>): Promise<T> {
  return db.transaction().execute(async (tx) => {
    lastSteps.set(tx, []);
    const result = await work(tx);
    await runLastSteps(tx);
    return result;
  });
}

async function runLastSteps(tx: Tx): Promise<void> {
  const steps = lastSteps.get(tx)!;
  // A step may add steps of its own; each runs once, in the order they were added.
  for (let i = 0; i < steps.length; i++) await steps[i]!();
}

/**
 * Runs `step` as the transaction's last statements, after the work that opened it and just
 * before its commit: for what holds a lock other transactions wait on (an invoice number's
 * counter), so that the lock is held for the commit alone. A work that throws skips it.
 */
export function beforeCommit(tx: Tx, step: Step): void {
  const steps = lastSteps.get(tx);
  if (!steps) throw new Error('beforeCommit needs a transaction opened by inTransaction');
  steps.push(step);
}

export function isUniqueViolation(error: unknown, constraint?: string): boolean {
  const e = error as { code?: string; constraint?: string; message?: string } | null;
  if (!e || e.code !== '23505') return false;
  if (!constraint) return true;
  return e.constraint === constraint || (e.message ?? '').includes(constraint);
}
