import type { Executor } from './transaction.js';

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
