import { PREPARED_END } from '../../db/prepared.js';
import { sql, type Insertable, type Selectable } from 'kysely';
import type { Executor } from '../../db/transaction.js';
import type { SubscriptionsTable } from '../../db/schema.js';
import { countRows } from '../../db/count.js';
import { containsPattern, isUuid } from '../../db/search.js';
import type { ListOrder } from '../../lib/pagination.js';

export type SubscriptionRow = Selectable<SubscriptionsTable>;
export const LIVE_SUCCESSOR_INDEX = 'subscriptions_one_live_successor';

export async function insertSubscription(db: Executor, row: Insertable<SubscriptionsTable>): Promise<SubscriptionRow> {
  return db.insertInto('subscriptions').values(row).returningAll().executeTakeFirstOrThrow();
}

export async function findSubscription(
  db: Executor,
  environmentId: string,
  id: string,
  options: { forUpdate?: boolean } = {},
): Promise<SubscriptionRow | undefined> {
  if (!isUuid(id)) return undefined;
  let query = db.selectFrom('subscriptions').selectAll().where('environment_id', '=', environmentId).where('id', '=', id);
  if (options.forUpdate) query = query.forUpdate();
  return query.executeTakeFirst();
}

export async function updateSubscription(
  db: Executor,
  id: string,
  changes: Partial<Omit<Insertable<SubscriptionsTable>, 'id'>>,
): Promise<SubscriptionRow> {
  return db.updateTable('subscriptions').set(changes).where('id', '=', id).returningAll().modifyEnd(PREPARED_END).executeTakeFirstOrThrow();
}

export interface ListFilter {
  environmentId: string;
  /** The customer's primary key; null: every customer's (Billow's list extension). */
  customerId: string | null;
  statuses: SubscriptionRow['status'][] | null;
  /** Only these plans' (the ids planIdsNamed found). */
  planIds?: string[];
  /** With planIds: only the subscriptions on this version of them (decision 0086). */
  planVersion?: number;
  /** Matches the customer's name, email or customerId. */
  search?: string;
  now: Date;
}

/**
 * The ids of the plan named `plan` (its identifier, or its UUID) in the environment. Read
 * first, so that the list's statement names the plan by value and walks its index in order.
 */
export async function planIdsNamed(db: Executor, environmentId: string, plan: string): Promise<string[]> {
  const rows = await db
    .selectFrom('plans')
    .select('id')
    .where('environment_id', '=', environmentId)
    .where((eb) => (isUuid(plan) ? eb.or([eb('identifier', '=', plan), eb('id', '=', plan)]) : eb('identifier', '=', plan)))
    .execute();
  return rows.map((row) => row.id);
}

export async function planIdentifierOf(db: Executor, planId: string): Promise<string> {
  const row = await db.selectFrom('plans').select('identifier').where('id', '=', planId).executeTakeFirstOrThrow();
  return row.identifier;
}

/** The customers of the environment whose name, email or customerId holds `term`. */
function customersMatching(db: Executor, environmentId: string, term: string) {
  const pattern = containsPattern(term);
  return db
    .selectFrom('customers')
    .select('id')
    .where('environment_id', '=', environmentId)
    .where((eb) => eb.or([eb('name', 'ilike', pattern), eb('email', 'ilike', pattern), eb('customer_id', 'ilike', pattern)]));
}

function listQuery(db: Executor, filter: ListFilter) {
  let query = db.selectFrom('subscriptions').where('environment_id', '=', filter.environmentId);
  if (filter.customerId !== null) query = query.where('customer_id', '=', filter.customerId);
  if (filter.planIds !== undefined) query = query.where('plan_id', 'in', filter.planIds);
  if (filter.planIds !== undefined && filter.planVersion !== undefined) {
    const versionIds = db.selectFrom('plan_versions').select('id').where('plan_id', 'in', filter.planIds).where('version', '=', filter.planVersion);
    query = query.where('plan_version_id', 'in', versionIds);
  }
  if (filter.search !== undefined) query = query.where('customer_id', 'in', customersMatching(db, filter.environmentId, filter.search));
  if (filter.statuses) return query.where('status', 'in', filter.statuses);
  // One row per subscription as the customer knows it: no superseded records, no
  // pending successors, nothing expired or ended.
  query = query
    .where('status', 'not in', ['superseded', 'incomplete_expired'])
    .where((eb) => eb.or([eb('status', '!=', 'incomplete'), eb('previous_subscription_id', 'is', null)]))
    .where((eb) => eb.or([eb('status', '!=', 'canceled'), eb('end_date', '>', filter.now)]));
  return query;
}

/** The subscriptions listed, every one, or up to `upTo` (decision 0089). */
export function countSubscriptions(db: Executor, filter: ListFilter, upTo: number | null = null) {
  return countRows(db, listQuery(db, filter), upTo);
}

/**
 * The plan's versions (newest first) with how many of the list's subscriptions each has
 * (decision 0086): the list's own filter grouped by version, and the versions read apart, so
 * that a version nobody is on counts 0.
 */
export async function countsByVersion(db: Executor, filter: ListFilter & { planIds: string[] }): Promise<Array<{ version: number; subscriptions: number }>> {
  const [versions, counts] = await Promise.all([
    db.selectFrom('plan_versions').select(['id', 'version']).where('environment_id', '=', filter.environmentId).where('plan_id', 'in', filter.planIds).orderBy('version', 'desc').execute(),
    listQuery(db, filter)
      .select((eb) => ['plan_version_id', eb.fn.countAll<number>().as('n')])
      .groupBy('plan_version_id')
      .execute(),
  ]);
  const byId = new Map(counts.map((row) => [row.plan_version_id, Number(row.n)]));
  return versions.map((v) => ({ version: v.version, subscriptions: byId.get(v.id) ?? 0 }));
}

const SORT_COLUMNS = { createdOn: 'created_at', currentPeriodEnd: 'current_period_end' } as const;
export type SubscriptionSort = ListOrder<keyof typeof SORT_COLUMNS>;

/** Newest first, unless `sort` says otherwise; ties go to the newest in the direction asked. */
export async function listSubscriptions(db: Executor, filter: ListFilter, page: { limit: number; offset: number; sort?: SubscriptionSort | null }) {
  let query = listQuery(db, filter).selectAll();
  if (page.sort) query = query.orderBy(SORT_COLUMNS[page.sort.field], page.sort.direction).orderBy('seq', page.sort.direction);
  else query = query.orderBy('seq', 'desc');
  return query.limit(page.limit).offset(page.offset).execute();
}

/**
 * The customer's subscriptions that would bill again or are waiting to: live recurring
 * ones and pending changes (incomplete), locked, oldest first. ONE_TIME records are not
 * among them: they were paid for once and bill nothing more.
 */
export async function billingSubscriptionsOf(db: Executor, environmentId: string, customerUuid: string): Promise<SubscriptionRow[]> {
  return db
    .selectFrom('subscriptions')
    .selectAll()
    .where('environment_id', '=', environmentId)
    .where('customer_id', '=', customerUuid)
    .where('status', 'in', ['active', 'trialing', 'past_due', 'incomplete'])
    .where('charge_period', '!=', 'ONE_TIME')
    .orderBy('seq')
    .forUpdate()
    .execute();
}

/**
 * Everything a page of subscriptions is shown with, one query per kind of row however
 * many subscriptions there are: their plan versions, plans, products, customers, plan
 * files and license keys.
 */
export async function presentationRows(db: Executor, rows: SubscriptionRow[]) {
  const ids = (pick: (row: SubscriptionRow) => string) => [...new Set(rows.map(pick))];
  const versionIds = ids((r) => r.plan_version_id);
  if (rows.length === 0) return { versions: [], plans: [], products: [], customers: [], files: [], licenses: [] };
  const [versions, plans, products, customers, files, licenses] = await Promise.all([
    db.selectFrom('plan_versions').selectAll().where('id', 'in', versionIds).execute(),
    db.selectFrom('plans').select(['id', 'identifier']).where('id', 'in', ids((r) => r.plan_id)).execute(),
    db.selectFrom('products').select(['id', 'name', 'identifier']).where('id', 'in', ids((r) => r.product_id)).execute(),
    db.selectFrom('customers').select(['id', 'customer_id']).where('id', 'in', ids((r) => r.customer_id)).execute(),
    db.selectFrom('plan_files').selectAll().where('plan_version_id', 'in', versionIds).orderBy('ordering').execute(),
    db.selectFrom('licenses').selectAll().where('subscription_id', 'in', ids((r) => r.id)).orderBy('created_at').execute(),
  ]);
  return { versions, plans, products, customers, files, licenses };
}

/** What a subscription's webhook object names: its plan version, plan, product and customer. */
export async function eventParts(db: Executor, row: SubscriptionRow) {
  const [version, plan, product, customer] = await Promise.all([
    db.selectFrom('plan_versions').select(['name', 'version']).where('id', '=', row.plan_version_id).executeTakeFirstOrThrow(),
    db.selectFrom('plans').select('identifier').where('id', '=', row.plan_id).executeTakeFirstOrThrow(),
    db.selectFrom('products').select(['id', 'name']).where('id', '=', row.product_id).executeTakeFirstOrThrow(),
    db.selectFrom('customers').selectAll().where('id', '=', row.customer_id).executeTakeFirstOrThrow(),
  ]);
  return { version, plan, product, customer };
}


/** The customer's primary key, by the seller's customerId in the environment. */
export async function customerPkOf(db: Executor, environmentId: string, customerId: string): Promise<string | undefined> {
  const row = await db
    .selectFrom('customers')
    .select('id')
    .where('environment_id', '=', environmentId)
    .where('customer_id', '=', customerId)
    .executeTakeFirst();
  return row?.id;
}

/** The seller's customerId of a customer, by its primary key. */
/** The identifier of the subscription's customer (one query where findSubscription and customerIdOf take two); undefined: no such subscription. */
export async function customerIdOfSubscription(db: Executor, environmentId: string, id: string): Promise<string | undefined> {
  if (!isUuid(id)) return undefined;
  const row = await db
    .selectFrom('subscriptions as s')
    .innerJoin('customers as c', 'c.id', 's.customer_id')
    .select('c.customer_id')
    .where('s.environment_id', '=', environmentId)
    .where('s.id', '=', id)
    .executeTakeFirst();
  return row?.customer_id;
}

export async function customerIdOf(db: Executor, customerPk: string): Promise<string> {
  const row = await db.selectFrom('customers').select('customer_id').where('id', '=', customerPk).executeTakeFirstOrThrow();
  return row.customer_id;
}

const LIVE_STATUSES = ['active', 'trialing', 'past_due'] as const;

/**
 * Subscriptions of real-time customers (no test clock) with something due by `at`: a
 * period end, a trial end, a scheduled end, or an attempt to collect an unpaid invoice.
 * Each condition reads its own partial index. `unqueuedAs`: only those without a live job
 * of that name keyed by the subscription's id (one already queued will run it).
 */
export async function dueSubscriptions(db: Executor, at: Date, limit: number, unqueuedAs: string | null = null): Promise<{ id: string; environment_id: string }[]> {
  const live = db
    .selectFrom('subscriptions as s')
    .innerJoin('customers as c', 'c.id', 's.customer_id')
    .where('c.test_clock_id', 'is', null)
    .$if(unqueuedAs !== null, (query) =>
      query.where(({ not, exists, selectFrom }) =>
        not(
          exists(
            selectFrom('jobs as j')
              .select('j.id')
              .where('j.name', '=', unqueuedAs!)
              .where(sql<string>`j.unique_key`, '=', sql<string>`s.id::text`)
              .where('j.state', 'in', ['pending', 'running', 'failed']),
          ),
        ),
      ),
    );
  const [renewals, trials, ends, attempts] = await Promise.all([
    live.select(['s.id', 's.environment_id']).where('s.status', 'in', ['active', 'past_due']).where('s.current_period_end', '<=', at).orderBy('s.current_period_end').limit(limit).execute(),
    live.select(['s.id', 's.environment_id']).where('s.status', '=', 'trialing').where('s.trial_end', '<=', at).orderBy('s.trial_end').limit(limit).execute(),
    live.select(['s.id', 's.environment_id']).where('s.status', 'in', [...LIVE_STATUSES]).where('s.end_date', '<=', at).orderBy('s.end_date').limit(limit).execute(),
    live
      .innerJoin('invoices as i', 'i.subscription_id', 's.id')
      .select(['s.id', 's.environment_id'])
      .where('i.status', 'in', ['OPEN', 'PAYMENT_FAILED'])
      .where('i.next_attempt_at', '<=', at)
      .where('s.status', 'in', [...LIVE_STATUSES])
      .orderBy('i.next_attempt_at')
      .limit(limit)
      .execute(),
  ]);
  const unique = new Map([...ends, ...attempts, ...trials, ...renewals].map((row) => [row.id, row]));
  return [...unique.values()].slice(0, limit);
}

/**
 * The subscriptions of a test clock's customers that something can fall due for: the live
 * ones, and the changes that wait for their payment until a time. `customerPk`: of that
 * customer (customers.id) only.
 */
export async function subscriptionsOnClock(db: Executor, testClockId: string, customerPk?: string): Promise<SubscriptionRow[]> {
  return db
    .selectFrom('subscriptions as s')
    .innerJoin('customers as c', 'c.id', 's.customer_id')
    .selectAll('s')
    .where('c.test_clock_id', '=', testClockId)
    .$if(customerPk !== undefined, (query) => query.where('s.customer_id', '=', customerPk!))
    .where((eb) => eb.or([eb('s.status', 'in', [...LIVE_STATUSES]), eb.and([eb('s.status', '=', 'incomplete'), eb('s.pending_expires_at', 'is not', null)])]))
    .orderBy('s.seq')
    .execute();
}

/** A subscription by id alone, for background work that knows no environment but the row's own. */
export async function findSubscriptionById(db: Executor, id: string): Promise<SubscriptionRow | undefined> {
  return db.selectFrom('subscriptions').selectAll().where('id', '=', id).executeTakeFirst();
}

/** A subscription's renewal invoices still to be paid, as `unpaidInvoicesOf` reads them. */
export const UNPAID_INVOICE = ['OPEN', 'PAYMENT_FAILED'] as const;

/** A subscription as the billing engine looks at it, in one query: the row, its customer's identifier, and whether an invoice of it is unpaid. */
export interface BillingState {
  row: SubscriptionRow;
  /** The seller's customerId of its customer. */
  customerId: string;
  hasUnpaidInvoice: boolean;
}

/** A subscription by id alone, for the billing engine: its row, its customer's identifier and whether it has an unpaid invoice. */
export async function billingStateOf(db: Executor, id: string): Promise<BillingState | undefined> {
  if (!isUuid(id)) return undefined;
  const found = await db
    .selectFrom('subscriptions as s')
    .innerJoin('customers as c', 'c.id', 's.customer_id')
    .selectAll('s')
    .select((eb) => [
      'c.customer_id as billing_customer_identifier',
      eb
        .exists(eb.selectFrom('invoices as i').select('i.id').whereRef('i.subscription_id', '=', 's.id').where('i.status', 'in', [...UNPAID_INVOICE]))
        .as('billing_has_unpaid_invoice'),
    ])
    .where('s.id', '=', id)
    .modifyEnd(PREPARED_END)
    .executeTakeFirst();
  if (!found) return undefined;
  const { billing_customer_identifier: customerId, billing_has_unpaid_invoice: hasUnpaid, ...row } = found;
  return { row, customerId, hasUnpaidInvoice: Boolean(hasUnpaid) };
}
