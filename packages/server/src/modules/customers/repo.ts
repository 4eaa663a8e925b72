import { PREPARED_END } from '../../db/prepared.js';
import type { Executor } from '../../db/transaction.js';
import type { CustomersTable, StoredTaxId } from '../../db/schema.js';
import { countRows } from '../../db/count.js';
import { containsPattern } from '../../db/search.js';
import type { ListOrder } from '../../lib/pagination.js';
import { createQueryId, sql, type CompiledQuery, type RawBuilder, type Selectable } from 'kysely';

export type CustomerRow = Selectable<CustomersTable>;

export const CUSTOMER_ID_CONSTRAINT = 'customers_customer_id_key';

export async function insertCustomer(
  db: Executor,
  row: {
    id: string;
    environmentId: string;
    customerId: string;
    name: string | null;
    email: string | null;
    metadata: Record<string, unknown>;
    billingAddress: Record<string, unknown> | null;
    taxIds?: StoredTaxId[];
    testClockId?: string | null;
    locale?: string | null;
    at: Date;
  },
): Promise<CustomerRow> {
  return db
    .insertInto('customers')
    .values({
      id: row.id,
      environment_id: row.environmentId,
      customer_id: row.customerId,
      name: row.name,
      email: row.email,
      details: '{}',
      metadata: JSON.stringify(row.metadata),
      billing_address: row.billingAddress === null ? null : JSON.stringify(row.billingAddress),
      tax_ids: JSON.stringify(row.taxIds ?? []),
      test_clock_id: row.testClockId ?? null,
      locale: row.locale ?? null,
      created_at: row.at,
      modified_at: row.at,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** A customer's row without its `seq`, which only the database assigns. */
export type NewCustomerRow = Omit<CustomerRow, 'seq'>;

export interface NewCustomer {
  id: string;
  environmentId: string;
  customerId: string;
  name: string | null;
  email: string | null;
  metadata: Record<string, unknown>;
  billingAddress: Record<string, unknown> | null;
  taxIds: StoredTaxId[];
  testClockId: string | null;
  locale?: string | null;
  at: Date;
}

/**
 * The row of a new customer as the database will hold it, known before it is
 * written: a create answers from it, without reading the row back.
 */
export function newCustomerRow(row: NewCustomer): NewCustomerRow {
  return {
    id: row.id,
    environment_id: row.environmentId,
    customer_id: row.customerId,
    name: row.name,
    email: row.email,
    details: {},
    metadata: row.metadata,
    billing_address: row.billingAddress,
    created_at: row.at,
    modified_at: row.at,
    archived_at: null,
    currency: null,
    credit_minor: 0,
    test_clock_id: row.testClockId,
    tax_ids: row.taxIds,
    locale: row.locale ?? null,
  };
}

/**
 * The insert of a new customer as a statement to run with its events
 * (events/writer changeRecordingEvents); a taken customerId fails it with
 * CUSTOMER_ID_CONSTRAINT. Its text never varies, so it is prepared with them.
 */
export function customerInsert(row: NewCustomer): RawBuilder<unknown> {
  const billingAddress = row.billingAddress === null ? null : JSON.stringify(row.billingAddress);
  return sql`INSERT INTO customers (id, environment_id, customer_id, name, email, metadata, billing_address, tax_ids, test_clock_id, locale, created_at, modified_at)
    VALUES (${row.id}::uuid, ${row.environmentId}::uuid, ${row.customerId}::text, ${row.name}::text, ${row.email}::text,
      ${JSON.stringify(row.metadata)}::jsonb, ${billingAddress}::jsonb, ${JSON.stringify(row.taxIds)}::jsonb, ${row.testClockId}::text, ${row.locale ?? null}::text, ${row.at}::timestamptz, ${row.at}::timestamptz)`;
}

function lookupQuery(db: Executor, environmentId: string, customerId: string) {
  return db
    .selectFrom('customers')
    .selectAll()
    .where('environment_id', '=', environmentId)
    .where('customer_id', '=', customerId);
}

const compiledLookups = new WeakMap<Executor, CompiledQuery<CustomerRow>>();

/**
 * The plain lookup serves every GET of a customer, the Core API's hottest read:
 * building and compiling it with Kysely costs more than the rest of the handler,
 * so its SQL is compiled once per executor and reused with new parameters.
 */
function compiledLookup(db: Executor): CompiledQuery<CustomerRow> {
  let compiled = compiledLookups.get(db);
  if (!compiled) {
    compiled = lookupQuery(db, '$environment', '$customer').compile();
    if (compiled.parameters.join() !== '$environment,$customer') {
      throw new Error(`Unexpected parameters in the customer lookup: ${compiled.sql}`);
    }
    compiledLookups.set(db, compiled);
  }
  return compiled;
}

export async function findCustomer(
  db: Executor,
  environmentId: string,
  customerId: string,
  options: { forUpdate?: boolean } = {},
): Promise<CustomerRow | undefined> {
  if (options.forUpdate) return lookupQuery(db, environmentId, customerId).forUpdate().executeTakeFirst();
  const { rows } = await db.executeQuery<CustomerRow>({
    ...compiledLookup(db),
    queryId: createQueryId(),
    parameters: [environmentId, customerId],
  });
  return rows[0];
}

function listQuery(db: Executor, environmentId: string, search: string | undefined) {
  let query = db.selectFrom('customers').where('environment_id', '=', environmentId).where('archived_at', 'is', null);
  if (search) {
    const pattern = containsPattern(search);
    query = query.where((eb) =>
      eb.or([eb('name', 'ilike', pattern), eb('email', 'ilike', pattern), eb('customer_id', 'ilike', pattern)]),
    );
  }
  return query;
}

/** The customers listed, every one, or up to `upTo` (decision 0089). */
export function countCustomers(db: Executor, environmentId: string, search: string | undefined, upTo: number | null = null) {
  return countRows(db, listQuery(db, environmentId, search), upTo);
}

/** The fields a customer list sorts by (Billow's `sort`), as columns. */
const SORT_COLUMNS = { createdOn: 'created_at', name: 'name', email: 'email', customerId: 'customer_id' } as const;
export type CustomerSort = ListOrder<keyof typeof SORT_COLUMNS>;

/** Newest first, unless `sort` says otherwise; ties go to the newest in the direction asked. */
export async function listCustomers(
  db: Executor,
  environmentId: string,
  search: string | undefined,
  page: { limit: number; offset: number; sort: CustomerSort | null },
): Promise<CustomerRow[]> {
  let query = listQuery(db, environmentId, search).selectAll();
  if (page.sort) query = query.orderBy(SORT_COLUMNS[page.sort.field], page.sort.direction).orderBy('seq', page.sort.direction);
  else query = query.orderBy('seq', 'desc');
  return query.limit(page.limit).offset(page.offset).execute();
}

export async function updateCustomer(
  db: Executor,
  id: string,
  changes: {
    name?: string | null;
    email?: string | null;
    metadata?: Record<string, unknown>;
    billingAddress?: Record<string, unknown> | null;
    details?: Record<string, unknown>;
    taxIds?: StoredTaxId[];
    locale?: string | null;
    at: Date;
  },
): Promise<CustomerRow> {
  return db
    .updateTable('customers')
    .set({
      ...(changes.name !== undefined ? { name: changes.name } : {}),
      ...(changes.email !== undefined ? { email: changes.email } : {}),
      ...(changes.metadata !== undefined ? { metadata: JSON.stringify(changes.metadata) } : {}),
      ...(changes.details !== undefined ? { details: JSON.stringify(changes.details) } : {}),
      ...(changes.taxIds !== undefined ? { tax_ids: JSON.stringify(changes.taxIds) } : {}),
      ...(changes.locale !== undefined ? { locale: changes.locale } : {}),
      ...(changes.billingAddress !== undefined
        ? { billing_address: changes.billingAddress === null ? null : JSON.stringify(changes.billingAddress) }
        : {}),
      modified_at: changes.at,
    })
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function archiveCustomer(db: Executor, id: string, at: Date): Promise<void> {
  await db.updateTable('customers').set({ archived_at: at, modified_at: at }).where('id', '=', id).execute();
}

/** How many of the customer's subscriptions are live (active, trialing or past_due), for the customer's events. */
export async function liveSubscriptionCount(db: Executor, customerPk: string): Promise<number> {
  const row = await db
    .selectFrom('subscriptions')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('customer_id', '=', customerPk)
    .where('status', 'in', ['active', 'trialing', 'past_due'])
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** How many subscriptions the customer has, in any status (attaching to a test clock, decision 0087). */
export async function subscriptionCount(db: Executor, customerPk: string): Promise<number> {
  const row = await db.selectFrom('subscriptions').select((eb) => eb.fn.countAll<number>().as('n')).where('customer_id', '=', customerPk).executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Puts the customer on a test clock. */
export async function setTestClock(db: Executor, customerPk: string, testClockId: string, at: Date): Promise<void> {
  await db.updateTable('customers').set({ test_clock_id: testClockId, modified_at: at }).where('id', '=', customerPk).execute();
}

/** The customer by its customerId, locked until the transaction ends. */
export async function lockCustomerRow(db: Executor, environmentId: string, customerId: string): Promise<CustomerRow | undefined> {
  return db
    .selectFrom('customers')
    .selectAll()
    .where('environment_id', '=', environmentId)
    .where('customer_id', '=', customerId)
    .forUpdate()
    .executeTakeFirst();
}

/** The customer of a subscription, locked (the subscription's customer never changes); undefined: no such subscription. */
export async function lockCustomerRowOfSubscription(db: Executor, environmentId: string, subscriptionId: string): Promise<CustomerRow | undefined> {
  return db
    .selectFrom('customers')
    .selectAll()
    .where('environment_id', '=', environmentId)
    .where('id', '=', (eb) => eb.selectFrom('subscriptions').select('customer_id').where('environment_id', '=', environmentId).where('id', '=', subscriptionId))
    .forUpdate()
    .modifyEnd(PREPARED_END)
    .executeTakeFirst();
}

/** The time of the customer's test clock, or null for a customer who lives in real time. */
export async function testClockTimeOf(db: Executor, customerPk: string): Promise<Date | null> {
  const row = await db
    .selectFrom('customers as c')
    .innerJoin('test_clocks as t', 't.id', 'c.test_clock_id')
    .select('t.frozen_time')
    .where('c.id', '=', customerPk)
    .executeTakeFirst();
  return row?.frozen_time ?? null;
}

/** A live test clock of the environment, locked while a customer is attached to it. */
export async function lockTestClock(db: Executor, environmentId: string, id: string) {
  return db
    .selectFrom('test_clocks')
    .select(['id', 'frozen_time', 'status'])
    .where('environment_id', '=', environmentId)
    .where('id', '=', id)
    .where('deleted_at', 'is', null)
    .forUpdate()
    .executeTakeFirst();
}

export async function countClockCustomers(db: Executor, testClockId: string): Promise<number> {
  const row = await db
    .selectFrom('customers')
    .select((eb) => eb.fn.countAll<string>().as('count'))
    .where('test_clock_id', '=', testClockId)
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

/** The customers attached to a test clock. */
export async function customersOnClock(db: Executor, testClockId: string): Promise<{ environment_id: string; customer_id: string }[]> {
  return db.selectFrom('customers').select(['environment_id', 'customer_id']).where('test_clock_id', '=', testClockId).execute();
}

/** The live customers of an environment with this email, in any case (sign-in by email code), oldest first. */
export function customersWithEmail(db: Executor, environmentId: string, email: string): Promise<CustomerRow[]> {
  return db
    .selectFrom('customers')
    .selectAll()
    .where('environment_id', '=', environmentId)
    .where(sql<string>`lower(email)`, '=', email.toLowerCase())
    .where('archived_at', 'is', null)
    .orderBy('created_at')
    .orderBy('id')
    .limit(20)
    .execute();
}

/** A customer by its own id (customers.id), within its environment. */
export function findCustomerByPk(db: Executor, environmentId: string, id: string): Promise<CustomerRow | undefined> {
  return db.selectFrom('customers').selectAll().where('environment_id', '=', environmentId).where('id', '=', id).executeTakeFirst();
}

/** A customer's currency is set by their first purchase. */
export async function setCustomerCurrency(db: Executor, customerId: string, currency: string): Promise<void> {
  await db.updateTable('customers').set({ currency }).where('id', '=', customerId).where('currency', 'is', null).execute();
}

/** The customer's credit from downgrades, in minor units, which later charges use first. */
export async function setCustomerCredit(db: Executor, customerId: string, creditMinor: number): Promise<void> {
  await db.updateTable('customers').set({ credit_minor: creditMinor }).where('id', '=', customerId).execute();
}
