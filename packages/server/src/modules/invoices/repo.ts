import type { Selectable } from 'kysely';
import type { Executor } from '../../db/transaction.js';
import type { InvoicesTable } from '../../db/schema.js';
import { countRows } from '../../db/count.js';
import { containsPattern, isCustomer } from '../../db/search.js';
import type { ListOrder } from '../../lib/pagination.js';

export type InvoiceRow = Selectable<InvoicesTable>;

export interface InvoiceFilters {
  /** The customer's customerId, or its UUID. */
  customer?: string;
  status?: InvoiceRow['status'];
  /** Matches the invoice's number and id, and the customer's name, email and customerId. */
  search?: string;
}

function invoices(db: Executor, environmentId: string) {
  return db
    .selectFrom('invoices as i')
    .innerJoin('orders as o', 'o.id', 'i.order_id')
    .innerJoin('customers as c', 'c.id', 'i.customer_id')
    .where('i.environment_id', '=', environmentId);
}

/** The invoices of the filters, with no join: what a count reads, and what a page joins its details to. */
function filtered(db: Executor, environmentId: string, filters: InvoiceFilters) {
  let query = db.selectFrom('invoices as i').where('i.environment_id', '=', environmentId);
  if (filters.status) query = query.where('i.status', '=', filters.status);
  if (filters.customer !== undefined) {
    const named = db.selectFrom('customers as c').select('c.id').where('c.environment_id', '=', environmentId).where(isCustomer(filters.customer));
    query = query.where('i.customer_id', 'in', named);
  }
  if (filters.search) {
    const pattern = containsPattern(filters.search);
    const customers = db
      .selectFrom('customers as c')
      .select('c.id')
      .where('c.environment_id', '=', environmentId)
      .where((eb) => eb.or([eb('c.name', 'ilike', pattern), eb('c.email', 'ilike', pattern), eb('c.customer_id', 'ilike', pattern)]));
    // Each half by its own indexes (the number's and id's trigrams, joined by a BitmapOr; the customers' trigrams and
    // the invoices of a customer), then their union: one OR of both halves reads every invoice of the environment
    // (decision 0104), as it did for orders (decision 0089).
    const ofEnvironment = () => db.selectFrom('invoices as m').select('m.id').where('m.environment_id', '=', environmentId);
    const byText = ofEnvironment().where((eb) => eb.or([eb('m.number', 'ilike', pattern), eb('m.id', 'ilike', pattern)]));
    const byCustomer = ofEnvironment().where('m.customer_id', 'in', customers);
    query = query.where('i.id', 'in', byText.unionAll(byCustomer));
  }
  return query;
}

const SORT_COLUMNS = { issuedOn: 'i.issued_at', total: 'i.total_minor', number: 'i.number' } as const;
export type InvoiceSort = ListOrder<keyof typeof SORT_COLUMNS>;

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

/** The invoices of the filters, every one, or up to `upTo` (decision 0089). */
export function countInvoices(db: Executor, environmentId: string, filters: InvoiceFilters, upTo: number | null = null) {
  return countRows(db, filtered(db, environmentId, filters), upTo);
}

/** Newest issued first, unless `sort` says otherwise; ties go to the newest in the direction asked. */
export async function listInvoices(
  db: Executor,
  environmentId: string,
  filters: InvoiceFilters,
  page: { limit: number; offset: number; sort?: InvoiceSort | null },
) {
  const sort = page.sort ?? { field: 'issuedOn', direction: 'desc' };
  // A deferred join: the page's ids from the invoices' index alone (it carries them), then
  // those invoices with their order and customer; the rows skipped are never read.
  const ids = filtered(db, environmentId, filters)
    .select('i.id')
    .orderBy(SORT_COLUMNS[sort.field], sort.direction)
    .orderBy('i.seq', sort.direction)
    .limit(page.limit)
    .offset(page.offset);
  return withDetails(invoices(db, environmentId).where('i.id', 'in', ids))
    .orderBy(SORT_COLUMNS[sort.field], sort.direction)
    .orderBy('i.seq', sort.direction)
    .execute();
}

export async function findInvoice(db: Executor, environmentId: string, id: string) {
  return withDetails(invoices(db, environmentId).where('i.id', '=', id)).executeTakeFirst();
}
