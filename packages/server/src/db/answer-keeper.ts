import type { Db } from './connect.js';
import { inTransaction, type Executor } from './transaction.js';

/**
 * A keyed request's answer, kept in the transaction that commits its effect: a retry after
 * a crash then finds both or neither (decision 0051). `scope` and `key` name the claim, for
 * an effect that records which request made it.
 */
export interface AnswerKeeper {
  scope: string;
  key: string;
  keep(tx: Executor, body: unknown): Promise<void>;
}

/** `answer`, once kept as the keyed request's answer in `tx` (when the request has a key). */
export async function keptAnswer<T>(keep: AnswerKeeper | undefined, tx: Executor, answer: T): Promise<T> {
  await keep?.keep(tx, answer);
  return answer;
}

/**
 * `write` on `db` as it is (one statement, no transaction) for a request without a key;
 * with a key, in a transaction that keeps the answer with the write.
 */
export function writeKeeping<T>(db: Db, keep: AnswerKeeper | undefined, write: (executor: Executor) => Promise<T>): Promise<T> {
  if (!keep) return write(db);
  return inTransaction(db, async (tx) => keptAnswer(keep, tx, await write(tx)));
}
