import type { Insertable, Selectable } from 'kysely';
import type { CreditNotesTable } from '../../db/schema.js';
import type { Executor } from '../../db/transaction.js';
import { containsPattern, isCustomer } from '../../db/search.js';
import type { ListOrder } from '../../lib/pagination.js';
import { countRows } from '../../db/count.js';

export type CreditNoteRow = Selectable<CreditNotesTable>;

export interface CreditNoteFilters {
  /** The customer's customerId, or its UUID. */
  customer?: string;
  invoice?: string;
  reason?: CreditNoteRow['reason'];
  /** Matches the credit note's number, its invoice's number, and the customer's name, email and customerId. */
  search?: string;
}

/**
 * The next number of the environment's credit note sequence for `year`: as for invoices
 * (decision 0062), the counter's row stays locked until the caller's transaction ends, so
 * numbers are handed out one at a time and a rollback gives its number back.
 */
export async function nextCreditNoteNumber(tx: Executor, environmentId: string, year: number): Promise<number> {
  const row = await tx
    .insertInto('credit_note_number_counters')
    .values({ environment_id: environmentId, year, last_number: 1 })
    .onConflict((oc) =>
      oc.columns(['environment_id', 'year']).doUpdateSet((eb) => ({ last_number: eb('credit_note_number_counters.last_number', '+', 1) })),
    )
    .returning('last_number')
    .executeTakeFirstOrThrow();
  return row.last_number;
}

export async function insertCreditNote(tx: Executor, row: Insertable<CreditNotesTable>): Promise<void> {
  await tx.insertInto('credit_notes').values(row).execute();
}

/** What a credit note is issued against: an invoice's id, number and buyer block. */
export interface InvoiceRef {
  id: string;
  number: string | null;
  order_id: string;
  buyer: Record<string, unknown>;
}

export async function invoiceOfOrder(db: Executor, environmentId: string, orderId: string): Promise<InvoiceRef | undefined> {
  return db
    .selectFrom('invoices')
    .select(['id', 'number', 'order_id', 'buyer'])
    .where('environment_id', '=', environmentId)
    .where('order_id', '=', orderId)
    .executeTakeFirst();
}

/** The newest paid invoice of a subscription: its purchase's, a renewal's or the change that started it. */
export async function lastInvoiceOfSubscription(db: Executor, environmentId: string, subscriptionId: string): Promise<InvoiceRef | undefined> {
  return db
    .selectFrom('invoices as i')
    .innerJoin('orders as o', 'o.id', 'i.order_id')
    .select(['i.id', 'i.number', 'i.order_id', 'i.buyer'])
    .where('i.environment_id', '=', environmentId)
    .where('i.status', '=', 'PAID')
    .where((eb) => eb.or([eb('o.subscription_id', '=', subscriptionId), eb('i.subscription_id', '=', subscriptionId)]))
    .orderBy('i.issued_at', 'desc')
    .orderBy('i.seq', 'desc')
    .limit(1)
    .executeTakeFirst();
}

function creditNotes(db: Executor, environmentId: string) {
  return db
    .selectFrom('credit_notes as n')
    .innerJoin('customers as c', 'c.id', 'n.customer_id')
    .leftJoin('invoices as i', 'i.id', 'n.invoice_id')
    .where('n.environment_id', '=', environmentId);
}

function filtered(db: Executor, environmentId: string, filters: CreditNoteFilters) {
  let query = creditNotes(db, environmentId);
  if (filters.customer !== undefined) query = query.where(isCustomer(filters.customer));
  if (filters.invoice !== undefined) query = query.where('n.invoice_id', '=', filters.invoice);
  if (filters.reason !== undefined) query = query.where('n.reason', '=', filters.reason);
  if (filters.search) {
    const pattern = containsPattern(filters.search);
    query = query.where((eb) =>
      eb.or([
        eb('n.number', 'ilike', pattern),
        eb('i.number', 'ilike', pattern),
        eb('c.name', 'ilike', pattern),
        eb('c.email', 'ilike', pattern),
        eb('c.customer_id', 'ilike', pattern),
      ]),
    );
  }
  return query;
}

const SORT_COLUMNS = { issuedOn: 'n.issued_at', total: 'n.total_minor' } as const;
export type CreditNoteSort = ListOrder<keyof typeof SORT_COLUMNS>;

function withDetails(query: ReturnType<typeof creditNotes>) {
  return query
    .selectAll('n')
    .select(['i.number as invoice_number', 'i.tax_reason as invoice_tax_reason', 'c.customer_id as customer_ref', 'c.name as customer_name', 'c.email as customer_email', 'c.locale as customer_locale']);
}

export type CreditNoteDetailRow = NonNullable<Awaited<ReturnType<typeof findCreditNote>>>;

/** The filtered list's size, exactly, or with `upTo` only up to that many (decision 0089, `count=capped`). */
export function countCreditNotes(db: Executor, environmentId: string, filters: CreditNoteFilters, upTo: number | null = null) {
  return countRows(db, filtered(db, environmentId, filters), upTo);
}

/** Newest first, unless `sort` says otherwise; ties go to the newest in the direction asked. */
export async function listCreditNotes(
  db: Executor,
  environmentId: string,
  filters: CreditNoteFilters,
  page: { limit: number; offset: number; sort?: CreditNoteSort | null },
) {
  let query = withDetails(filtered(db, environmentId, filters));
  if (page.sort) query = query.orderBy(SORT_COLUMNS[page.sort.field], page.sort.direction).orderBy('n.seq', page.sort.direction);
  else query = query.orderBy('n.seq', 'desc');
  return query.limit(page.limit).offset(page.offset).execute();
}

export async function findCreditNote(db: Executor, environmentId: string, id: string) {
  return withDetails(creditNotes(db, environmentId).where('n.id', '=', id)).executeTakeFirst();
}
