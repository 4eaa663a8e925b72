import type { Selectable } from 'kysely';
import type { Executor } from '../../db/transaction.js';
import type { InvoicesTable } from '../../db/schema.js';
import { isCustomer } from '../../db/search.js';

export type InvoiceRow = Selectable<InvoicesTable>;

export interface InvoiceFilters {
  /** The customer's customerId, or its UUID. */
  customer?: string;
  status?: InvoiceRow['status'];
}

function invoices(db: Executor, environmentId: string) {
  return db
    .selectFrom('invoices as i')
    .innerJoin('orders as o', 'o.id', 'i.order_id')
    .innerJoin('customers as c', 'c.id', 'i.customer_id')
    .where('i.environment_id', '=', environmentId);
}

function filtered(db: Executor, environmentId: string, filters: InvoiceFilters) {
  let query = invoices(db, environmentId);
  if (filters.status) query = query.where('i.status', '=', filters.status);
  if (filters.customer !== undefined) query = query.where(isCustomer(filters.customer));
  return query;
}

/** An invoice with what its representation takes from its order and customer. */
function withDetails(query: ReturnType<typeof invoices>) {
  return query
    .selectAll('i')
    .select([
      'o.subscription_id',
      'o.tax_rate_bp',
      'o.tax_behavior',
      'o.tax_country',
      'c.customer_id as customer_ref',
      'c.name as customer_name',
      'c.email as customer_email',
      'c.billing_address as customer_address',
      'c.locale as customer_locale',
    ]);
}

export type InvoiceDetailRow = NonNullable<Awaited<ReturnType<typeof findInvoice>>>;

export async function countInvoices(db: Executor, environmentId: string, filters: InvoiceFilters): Promise<number> {
  const row = await filtered(db, environmentId, filters)
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function listInvoices(
  db: Executor,
  environmentId: string,
  filters: InvoiceFilters,
  limit: number,
  offset: number,
) {
  return withDetails(filtered(db, environmentId, filters))
    .orderBy('i.issued_at', 'desc')
    .orderBy('i.seq', 'desc')
    .limit(limit)
    .offset(offset)
    .execute();
}

export async function findInvoice(db: Executor, environmentId: string, id: string) {
  return withDetails(invoices(db, environmentId).where('i.id', '=', id)).executeTakeFirst();
}
