import { PREPARED_END } from '../../db/prepared.js';
import { sql, type Insertable, type Selectable, type SelectQueryBuilder, type Updateable } from 'kysely';
import type { Executor } from '../../db/transaction.js';
import type {
  InvoicesTable,
  TransactionsTable,
  CustomersTable,
  LicensesTable,
  OrderEventsTable,
  OrdersTable,
  PaymentMethodsTable,
  PlanVersionsTable,
  PlansTable,
  ProductsTable,
  SubscriptionsTable,
} from '../../db/schema.js';
import { countRows } from '../../db/count.js';
import { containsPattern, isCustomer } from '../../db/search.js';
import type { DateRange } from './format.js';
import type { ListOrder } from '../../lib/pagination.js';

export type OrderRow = Selectable<OrdersTable>;
export type InvoiceRow = Selectable<InvoicesTable>;
export type OrderEventRow = Selectable<OrderEventsTable>;
export type CustomerRow = Selectable<CustomersTable>;
export type ProductRow = Selectable<ProductsTable>;
export type PlanRow = Selectable<PlansTable>;
export type VersionRow = Selectable<PlanVersionsTable>;
export type SubscriptionRow = Selectable<SubscriptionsTable>;
export type LicenseRow = Selectable<LicensesTable>;
export type PaymentMethodRow = Selectable<PaymentMethodsTable>;

export interface OrderFilters {
  /** The customer's customerId, or its UUID. */
  customer?: string;
  search?: string;
  status?: OrderRow['status'];
  billingType?: OrderRow['billing_type'];
  isRenewal?: boolean;
  paid: DateRange;
}

/** The customers of the environment that `customer` (customerId or UUID) names. */
function customersNamed(db: Executor, environmentId: string, customer: string) {
  return db.selectFrom('customers as c').select('c.id').where('c.environment_id', '=', environmentId).where(isCustomer(customer));
}

/**
 * Orders the API shows: never PENDING ones (payment never completed). The customer is
 * joined only when a search reads it, so a plain page or count reads orders alone.
 */
function visibleOrders(db: Executor, environmentId: string, filters: OrderFilters) {
  let query = db
    .selectFrom('orders as o')
    .where('o.environment_id', '=', environmentId)
    .where('o.status', '!=', 'PENDING');
  if (filters.customer !== undefined) query = query.where('o.customer_id', 'in', customersNamed(db, environmentId, filters.customer));
  if (filters.status) query = query.where('o.status', '=', filters.status);
  if (filters.billingType) query = query.where('o.billing_type', '=', filters.billingType);
  if (filters.isRenewal !== undefined) query = query.where('o.is_renewal', '=', filters.isRenewal);
  if (filters.paid.from) query = query.where('o.paid_at', '>=', filters.paid.from);
  if (filters.paid.before) query = query.where('o.paid_at', '<', filters.paid.before);
  if (filters.search) {
    const pattern = containsPattern(filters.search);
    const customers = db
      .selectFrom('customers as c')
      .select('c.id')
      .where('c.environment_id', '=', environmentId)
      .where((eb) => eb.or([eb('c.name', 'ilike', pattern), eb('c.email', 'ilike', pattern), eb('c.customer_id', 'ilike', pattern)]));
    // Each half by its own index (the orders' id trigrams, the customers' ones and the orders of a customer), then
    // their union: an OR of the two in one filter reads every order of the environment (decision 0089).
    const byId = db.selectFrom('orders as m').select('m.id').where('m.environment_id', '=', environmentId).where('m.id', 'ilike', pattern);
    const byCustomer = db.selectFrom('orders as m').select('m.id').where('m.environment_id', '=', environmentId).where('m.customer_id', 'in', customers);
    query = query.where('o.id', 'in', byId.unionAll(byCustomer));
  }
  return query;
}

const ORDER_SORT_COLUMNS = { paidOn: 'o.paid_at', createdOn: 'o.created_at', total: 'o.total_minor' } as const;
export type OrderSort = ListOrder<keyof typeof ORDER_SORT_COLUMNS>;

/** The orders of the filters, every one, or up to `upTo` (decision 0089). */
export function countOrders(db: Executor, environmentId: string, filters: OrderFilters, upTo: number | null = null) {
  return countRows(db, visibleOrders(db, environmentId, filters), upTo);
}

/**
 * Newest paid first; orders never paid (FAILED) come after, newest first. With `sort`
 * (Billow's extension), by that field, ties to the newest in the direction asked; orders
 * never paid come last when sorted by paidOn either way.
 */
export async function listOrders(
  db: Executor,
  environmentId: string,
  filters: OrderFilters,
  page: { limit: number; offset: number; sort?: OrderSort | null },
): Promise<OrderRow[]> {
  const sort = page.sort ?? { field: 'paidOn', direction: 'desc' };
  // A deferred join: the page's ids from the index alone (it carries them), then those rows.
  const ids = inOrder(visibleOrders(db, environmentId, filters).select('o.id'), sort).limit(page.limit).offset(page.offset);
  return inOrder(db.selectFrom('orders as o').selectAll('o').where('o.id', 'in', ids), sort).execute();
}

/** A query of orders (as `o`) in the order of `sort`. */
function inOrder<Q extends SelectQueryBuilder<{ o: OrdersTable }, 'o', object>>(query: Q, sort: OrderSort): Q {
  const column = ORDER_SORT_COLUMNS[sort.field];
  let ordered = column === 'o.paid_at' ? query.orderBy(column, (ob) => ob[sort.direction]().nullsLast()) : query.orderBy(column, sort.direction);
  if (sort.field === 'paidOn') ordered = ordered.orderBy('o.created_at', sort.direction);
  return ordered.orderBy('o.seq', sort.direction) as Q;
}

/** Any order of the environment, PENDING included: callers decide what they may show. */
export async function findOrder(
  db: Executor,
  environmentId: string,
  id: string,
  options: { forUpdate?: boolean } = {},
): Promise<OrderRow | undefined> {
  let query = db.selectFrom('orders').selectAll().where('environment_id', '=', environmentId).where('id', '=', id);
  if (options.forUpdate) query = query.forUpdate();
  return query.executeTakeFirst();
}

export async function ordersByIds(db: Executor, ids: string[]): Promise<OrderRow[]> {
  if (ids.length === 0) return [];
  return db.selectFrom('orders').selectAll().where('id', 'in', [...new Set(ids)]).execute();
}

/** The timeline of an order: its own events, and those of every order of the same subscription. */
function timeline(db: Executor, order: OrderRow) {
  let query = db.selectFrom('order_events as e').where('e.environment_id', '=', order.environment_id);
  if (order.subscription_id === null) return query.where('e.order_id', '=', order.id);
  const subscriptionId = order.subscription_id;
  query = query.where((eb) =>
    eb.or([
      eb('e.subscription_id', '=', subscriptionId),
      eb('e.order_id', 'in', eb.selectFrom('orders as so').select('so.id').where('so.subscription_id', '=', subscriptionId)),
    ]),
  );
  return query;
}

export async function countOrderEvents(db: Executor, order: OrderRow): Promise<number> {
  const row = await timeline(db, order)
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Newest first. */
export async function listOrderEvents(db: Executor, order: OrderRow, limit: number, offset: number): Promise<OrderEventRow[]> {
  return timeline(db, order)
    .selectAll('e')
    .orderBy('e.created_at', 'desc')
    .orderBy('e.id', 'desc')
    .limit(limit)
    .offset(offset)
    .execute();
}

export async function insertOrderEvent(
  db: Executor,
  event: {
    environmentId: string;
    orderId: string;
    subscriptionId: string | null;
    code: string;
    title: string;
    status: OrderEventRow['status'];
    metadata: Record<string, unknown>;
    at: Date;
  },
): Promise<void> {
  await db
    .insertInto('order_events')
    .values({
      environment_id: event.environmentId,
      order_id: event.orderId,
      subscription_id: event.subscriptionId,
      code: event.code,
      title: event.title,
      status: event.status,
      metadata: JSON.stringify(event.metadata),
      created_at: event.at,
    })
    .execute();
}

export async function setRefunded(
  db: Executor,
  id: string,
  changes: { refundedMinor: number; status: OrderRow['status']; at: Date },
): Promise<OrderRow> {
  return db
    .updateTable('orders')
    .set({ refunded_minor: changes.refundedMinor, status: changes.status, modified_at: changes.at })
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
}

// What an order's representation needs, loaded for many orders at once.

const unique = <T>(values: (T | null)[]): T[] => [...new Set(values.filter((v): v is T => v !== null))];

export async function customersByIds(db: Executor, ids: string[]): Promise<CustomerRow[]> {
  const wanted = unique(ids);
  if (wanted.length === 0) return [];
  return db.selectFrom('customers').selectAll().where('id', 'in', wanted).execute();
}

export async function productsByIds(db: Executor, ids: string[]): Promise<ProductRow[]> {
  const wanted = unique(ids);
  if (wanted.length === 0) return [];
  return db.selectFrom('products').selectAll().where('id', 'in', wanted).execute();
}

export async function plansByIds(db: Executor, ids: string[]): Promise<PlanRow[]> {
  const wanted = unique(ids);
  if (wanted.length === 0) return [];
  return db.selectFrom('plans').selectAll().where('id', 'in', wanted).execute();
}

export async function versionsByIds(db: Executor, ids: string[]): Promise<VersionRow[]> {
  const wanted = unique(ids);
  if (wanted.length === 0) return [];
  return db.selectFrom('plan_versions').selectAll().where('id', 'in', wanted).execute();
}

export async function subscriptionsByIds(db: Executor, ids: (string | null)[]): Promise<SubscriptionRow[]> {
  const wanted = unique(ids);
  if (wanted.length === 0) return [];
  return db.selectFrom('subscriptions').selectAll().where('id', 'in', wanted).execute();
}

export async function invoiceIdsOf(db: Executor, orderIds: string[]): Promise<{ id: string; order_id: string }[]> {
  if (orderIds.length === 0) return [];
  return db.selectFrom('invoices').select(['id', 'order_id']).where('order_id', 'in', orderIds).execute();
}

/** Licenses issued with the orders, or for their subscriptions. */
export async function licensesOf(db: Executor, orderIds: string[], subscriptionIds: (string | null)[]): Promise<LicenseRow[]> {
  const subscriptions = unique(subscriptionIds);
  if (orderIds.length === 0) return [];
  return db
    .selectFrom('licenses')
    .selectAll()
    .where((eb) =>
      subscriptions.length === 0
        ? eb('order_id', 'in', orderIds)
        : eb.or([eb('order_id', 'in', orderIds), eb('subscription_id', 'in', subscriptions)]),
    )
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

/** For each order, the payment method of its first successful charge. */
export async function firstPaymentMethods(
  db: Executor,
  orderIds: string[],
): Promise<{ order_id: string; method: PaymentMethodRow }[]> {
  if (orderIds.length === 0) return [];
  const firsts = await db
    .selectFrom('transactions')
    .select(['order_id', 'payment_method_id'])
    .distinctOn('order_id')
    .where('order_id', 'in', orderIds)
    .where('transaction_type', '=', 'CHARGE')
    .where('status', '=', 'success')
    .orderBy('order_id')
    .orderBy('created_at')
    .orderBy('seq')
    .execute();
  const methodIds = unique(firsts.map((f) => f.payment_method_id));
  if (methodIds.length === 0) return [];
  const methods = await paymentMethodsByIds(db, methodIds);
  return firsts.flatMap((f) => {
    const method = methods.find((m) => m.id === f.payment_method_id);
    return method ? [{ order_id: f.order_id, method }] : [];
  });
}

export async function paymentMethodsByIds(db: Executor, ids: (number | null)[]): Promise<PaymentMethodRow[]> {
  const wanted = unique(ids);
  if (wanted.length === 0) return [];
  return db.selectFrom('payment_methods').selectAll().where('id', 'in', wanted).execute();
}

export async function organizationName(db: Executor, organizationId: string): Promise<string | null> {
  const row = await db.selectFrom('organizations').select('name').where('id', '=', organizationId).modifyEnd(PREPARED_END).executeTakeFirst();
  return row?.name ?? null;
}

/** What the environment has charged in USD so far: the fee schedule changes its rate past a volume threshold. */
/**
 * Whether the environment's successful USD charges add up to `thresholdMinor`. The
 * running sum stops at the first charge that reaches it, so the cost is bounded by
 * the charges below the threshold, however many come after.
 */
export async function usdVolumeReached(db: Executor, environmentId: string, thresholdMinor: number): Promise<boolean> {
  const running = db
    .selectFrom('transactions')
    .select(sql<number>`sum(amount_minor) OVER (ORDER BY seq ROWS UNBOUNDED PRECEDING)`.as('running'))
    .where('environment_id', '=', environmentId)
    .where('transaction_type', '=', 'CHARGE')
    .where('status', '=', 'success')
    .where('currency', '=', 'USD')
    .as('charges');
  const row = await db.selectFrom(running).select(sql<number>`1`.as('reached')).where('running', '>=', thresholdMinor).limit(1).executeTakeFirst();
  return row !== undefined;
}

export async function insertOrder(db: Executor, row: Insertable<OrdersTable>): Promise<OrderRow> {
  return db.insertInto('orders').values(row).returningAll().modifyEnd(PREPARED_END).executeTakeFirstOrThrow();
}

/** A paid order's rows: the order, its invoice, its CHARGE transaction (when money moved) and its timeline. */
export interface OrderRecords {
  order: Insertable<OrdersTable>;
  invoice: Insertable<InvoicesTable>;
  charge: Insertable<TransactionsTable> | null;
  timeline: Insertable<OrderEventsTable>[];
}

/**
 * A paid order's rows in one statement (four otherwise): the invoice, the charge and the
 * timeline are inserted by the INSERT of the order's WITH. Their foreign keys to the order
 * are checked at the end of the statement, once it is there.
 */
export async function insertOrderRecords(db: Executor, records: OrderRecords): Promise<OrderRow> {
  const base = db
    .with('recorded_invoice', (qc) => qc.insertInto('invoices').values(records.invoice))
    .with('recorded_timeline', (qc) => qc.insertInto('order_events').values(records.timeline));
  const charge = records.charge;
  const query = charge ? (base.with('recorded_charge', (qc) => qc.insertInto('transactions').values(charge)) as unknown as typeof base) : base;
  return query.insertInto('orders').values(records.order).returningAll().modifyEnd(PREPARED_END).executeTakeFirstOrThrow();
}

export async function insertInvoice(db: Executor, row: Insertable<InvoicesTable>): Promise<void> {
  await db.insertInto('invoices').values(row).modifyEnd(PREPARED_END).execute();
}

export async function insertTransaction(db: Executor, row: Insertable<TransactionsTable>): Promise<void> {
  await db.insertInto('transactions').values(row).modifyEnd(PREPARED_END).execute();
}

export async function insertLicense(db: Executor, row: Insertable<LicensesTable>): Promise<void> {
  await db.insertInto('licenses').values(row).execute();
}

export async function insertOrderEvents(db: Executor, rows: Insertable<OrderEventsTable>[]): Promise<void> {
  if (rows.length > 0) await db.insertInto('order_events').values(rows).modifyEnd(PREPARED_END).execute();
}

/** An invoice of the environment, locked for the rest of the transaction. */
export async function lockInvoice(db: Executor, environmentId: string, id: string): Promise<InvoiceRow | undefined> {
  return db.selectFrom('invoices').selectAll().where('environment_id', '=', environmentId).where('id', '=', id).forUpdate().executeTakeFirst();
}

export async function updateInvoice(db: Executor, id: string, changes: Updateable<InvoicesTable>): Promise<InvoiceRow> {
  return db.updateTable('invoices').set(changes).where('id', '=', id).returningAll().executeTakeFirstOrThrow();
}

export async function updateOrder(db: Executor, id: string, changes: Updateable<OrdersTable>): Promise<OrderRow> {
  return db.updateTable('orders').set(changes).where('id', '=', id).returningAll().executeTakeFirstOrThrow();
}

/** The subscriptions' renewal invoices still to be paid (OPEN or PAYMENT_FAILED), oldest first. */
export async function unpaidInvoicesOf(db: Executor, subscriptionIds: string[]): Promise<InvoiceRow[]> {
  if (subscriptionIds.length === 0) return [];
  return db
    .selectFrom('invoices')
    .selectAll()
    .where('subscription_id', 'in', subscriptionIds)
    .where('status', 'in', ['OPEN', 'PAYMENT_FAILED'])
    .orderBy('seq')
    .execute();
}

/**
 * A new default method is how a customer fixes a failed payment: the customer's unpaid
 * renewal invoices still in dunning are tried again at `at`, rather than at their next date.
 */
export async function bringCollectionForward(db: Executor, customerPk: string, at: Date): Promise<number> {
  const rows = await db
    .updateTable('invoices')
    .set({ next_attempt_at: at })
    .where('customer_id', '=', customerPk)
    .where('status', 'in', ['OPEN', 'PAYMENT_FAILED'])
    .where('next_attempt_at', 'is not', null)
    .where('next_attempt_at', '>', at)
    .returning('id')
    .execute();
  return rows.length;
}

/** The order a provider's charge paid (its CHARGE transaction), for what the provider reports later (disputes). */
export async function orderOfCharge(db: Executor, environmentId: string, providerRef: string) {
  return db
    .selectFrom('transactions as t')
    .innerJoin('orders as o', 'o.id', 't.order_id')
    .select(['o.id', 'o.subscription_id'])
    .where('t.environment_id', '=', environmentId)
    .where('t.provider_ref', '=', providerRef)
    .where('t.transaction_type', '=', 'CHARGE')
    .executeTakeFirst();
}

export async function insertRefundTransaction(
  db: Executor,
  row: {
    id: string;
    environmentId: string;
    orderId: string;
    refundId: string;
    currency: string;
    amountMinor: number;
    taxMinor: number;
    netMinor: number;
    paymentMethodId: number | null;
    providerRef: string;
    availableOn: string;
    at: Date;
  },
): Promise<void> {
  await db
    .insertInto('transactions')
    .values({
      id: row.id,
      environment_id: row.environmentId,
      order_id: row.orderId,
      refund_id: row.refundId,
      transaction_type: 'REFUND',
      status: 'success',
      currency: row.currency,
      amount_minor: row.amountMinor,
      fee_minor: 0,
      fee_breakdown: '[]',
      tax_minor: row.taxMinor,
      net_minor: row.netMinor,
      payment_method_id: row.paymentMethodId,
      provider_ref: row.providerRef,
      failure_reason: null,
      available_on: row.availableOn,
      created_at: row.at,
    })
    .execute();
}
