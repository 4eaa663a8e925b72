import { sql } from 'kysely';
import type { Executor } from '../../../db/transaction.js';

export interface NumberedInvoice {
  id: string;
  environmentId: string;
  /** The calendar year of issue in the seller's time zone: each year has its own sequence. */
  year: number;
  prefix: string;
}

/**
 * Gives the invoice the next number of its environment's sequence for its year, written
 * `<prefix>-<year>-<at least six digits>`, in one statement. The counter's row stays locked
 * until the caller's transaction ends, so numbers are handed out one at a time and a
 * rollback gives its number back (no gap, no duplicate, across processes).
 */
export async function numberInvoice(tx: Executor, invoice: NumberedInvoice): Promise<void> {
  const result = await tx
    .with('counter', (qc) =>
      qc
        .insertInto('invoice_number_counters')
        .values({ environment_id: invoice.environmentId, year: invoice.year, last_number: 1 })
        .onConflict((oc) => oc.columns(['environment_id', 'year']).doUpdateSet((eb) => ({ last_number: eb('invoice_number_counters.last_number', '+', 1) })))
        .returning('last_number'),
    )
    .updateTable('invoices')
    .from('counter')
    .set({ number: sql<string>`${`${invoice.prefix}-${invoice.year}-`} || lpad(counter.last_number::text, greatest(6, length(counter.last_number::text)), '0')` })
    .where('invoices.id', '=', invoice.id)
    .where('invoices.environment_id', '=', invoice.environmentId)
    .executeTakeFirst();
  if (result.numUpdatedRows !== 1n) throw new Error(`Invoice ${invoice.id} to number was not found`);
}
