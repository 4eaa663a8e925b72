import type { Executor } from '../../../db/transaction.js';

/**
 * The next number of the environment's invoice sequence for `year`: the counter's row is
 * locked until the caller's transaction ends, so numbers are handed out one at a time and a
 * rollback gives its number back (no gap, no duplicate, across processes).
 */
export async function nextInvoiceNumber(tx: Executor, environmentId: string, year: number): Promise<number> {
  const row = await tx
    .insertInto('invoice_number_counters')
    .values({ environment_id: environmentId, year, last_number: 1 })
    .onConflict((oc) => oc.columns(['environment_id', 'year']).doUpdateSet((eb) => ({ last_number: eb('invoice_number_counters.last_number', '+', 1) })))
    .returning('last_number')
    .executeTakeFirstOrThrow();
  return row.last_number;
}
