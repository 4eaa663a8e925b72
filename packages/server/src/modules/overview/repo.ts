import { sql } from 'kysely';
import type { Executor } from '../../db/transaction.js';

/** What moved in a window of time, per currency: successful charges and refunds. */
export async function revenueBetween(db: Executor, environmentId: string, start: Date, end: Date) {
  const rows = await db
    .selectFrom('transactions')
    .select(['currency', 'transaction_type'])
    .select((eb) => eb.fn.sum<string>('amount_minor').as('total'))
    .where('environment_id', '=', environmentId)
    .where('status', '=', 'success')
    .where('transaction_type', 'in', ['CHARGE', 'REFUND'])
    .where('created_at', '>=', start)
    .where('created_at', '<', end)
    .groupBy(['currency', 'transaction_type'])
    .execute();
  return rows.map((row) => ({ currency: row.currency, type: row.transaction_type as 'CHARGE' | 'REFUND', totalMinor: Number(row.total) }));
}

/** The terms on a subscription's own row that its renewal is priced from (decision 0090). */
const ROW_TERMS = [
  'currency',
  'charge_period',
  'quantities',
  'price_id',
  'custom_amount_minor',
  'custom_tax_behavior',
  'promotion_percent',
] as const;

/** A subscription's live discount: one it carries with cycles left (or without an end). */
function liveDiscounts(db: Executor, environmentId: string) {
  return db
    .selectFrom('subscription_discounts as sd')
    .select('sd.subscription_id')
    .where('sd.environment_id', '=', environmentId)
    .where((eb) => eb.or([eb('sd.cycles_remaining', 'is', null), eb('sd.cycles_remaining', '>', 0)]));
}

/**
 * Which of the recurring subscriptions to read one by one (decision 0090): those that carry a
 * live discount, or (`inclusive`) whose price includes tax, so that the newest order's rate
 * matters. `all` reads every one: the recomputation the kept counts are checked against.
 */
export type RecurringPart = { all: true } | { discounted: true } | { inclusive: { priceIds: string[]; custom: boolean } };

/**
 * The subscriptions that bring recurring revenue (active or past_due, recurring), grouped
 * by what their next renewal is priced from: the price, the quantities, a custom amount,
 * the discount they carry with cycles left, a promotion, and, for a price with tax
 * included, the tax rate of their newest order (other prices add tax on top: the rate
 * does not change what they bring before tax). `n`: how many share those terms.
 */
export function recurringSubscriptions(db: Executor, environmentId: string, part: RecurringPart) {
  const rowTerms = ROW_TERMS.map((column) => `s.${column}` as const);
  const discountTerms = ['d.discount_type', 'd.percent_off_bp'] as const;
  let query = db
    .selectFrom('subscriptions as s')
    .innerJoin('plan_prices as p', 'p.id', 's.price_id')
    .leftJoin('subscription_discounts as sd', (join) =>
      join.onRef('sd.subscription_id', '=', 's.id').on((eb) => eb.or([eb('sd.cycles_remaining', 'is', null), eb('sd.cycles_remaining', '>', 0)])),
    )
    .leftJoin('discounts as d', 'd.id', 'sd.discount_id')
    .leftJoin('discount_amounts as da', (join) => join.onRef('da.discount_id', '=', 'd.id').onRef('da.currency', '=', 's.currency'))
    .select([...rowTerms, ...discountTerms, 'da.amount_minor as discount_amount_minor'])
    .select((eb) => {
      const newestRate = eb.selectFrom('orders as o').select('o.tax_rate_bp').whereRef('o.subscription_id', '=', 's.id').orderBy('o.created_at', 'desc').limit(1);
      const inclusive = eb.or([eb('s.custom_tax_behavior', '=', 'INCLUSIVE'), eb.and([eb('s.custom_tax_behavior', 'is', null), eb('p.tax_behavior', '=', 'INCLUSIVE')])]);
      return eb.case().when(inclusive).then(newestRate).else(0).end().as('tax_rate_bp');
    })
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('s.environment_id', '=', environmentId)
    .where('s.status', 'in', ['active', 'past_due'])
    .where('s.charge_period', '!=', 'ONE_TIME');
  // A semi-join driven by the (few) live discounts: the subscriptions are reached by their key.
  if ('discounted' in part) query = query.where('s.id', 'in', liveDiscounts(db, environmentId));
  if ('inclusive' in part) {
    const { priceIds, custom } = part.inclusive;
    query = query
      .where('s.id', 'not in', liveDiscounts(db, environmentId))
      .where((eb) => eb.or([...(priceIds.length > 0 ? [eb('s.price_id', 'in', priceIds)] : []), ...(custom ? [eb('s.custom_tax_behavior', '=', 'INCLUSIVE')] : [])]));
  }
  return query.groupBy([...rowTerms, ...discountTerms, 'da.amount_minor', 'tax_rate_bp']).execute();
}

/**
 * The recurring live subscriptions per terms on their row, summed from the counts the
 * triggers on subscriptions append (decision 0090), and how many rows were read for it.
 */
export async function keptRecurringTerms(db: Executor, environmentId: string) {
  const rows = await db
    .selectFrom('subscription_mrr_terms')
    .select([...ROW_TERMS])
    .select((eb) => [eb.fn.sum<string>('n').as('n'), eb.fn.countAll<string>().as('read')])
    .where('environment_id', '=', environmentId)
    .groupBy([...ROW_TERMS])
    .execute();
  return {
    terms: rows.filter((row) => Number(row.n) !== 0).map(({ read: _read, ...row }) => ({ ...row, n: Number(row.n) })),
    rowsRead: rows.reduce((sum, row) => sum + Number(row.read), 0),
  };
}

/**
 * Folds the environment's appended counts into one row per terms, in one statement: the rows
 * it deletes are the rows it sums, and a count appended meanwhile stays as it is.
 */
export async function foldRecurringTerms(db: Executor, environmentId: string): Promise<void> {
  const columns = sql.join(ROW_TERMS.map((column) => sql.ref(column)));
  await sql`
    WITH folded AS (DELETE FROM subscription_mrr_terms WHERE environment_id = ${environmentId} RETURNING *)
    INSERT INTO subscription_mrr_terms (environment_id, ${columns}, n)
    SELECT environment_id, ${columns}, sum(n) FROM folded
     GROUP BY environment_id, ${columns} HAVING sum(n) <> 0`.execute(db);
}

export type RecurringSubscriptionRow = Awaited<ReturnType<typeof recurringSubscriptions>>[number];

/** How many subscriptions are in each of the live statuses (superseded records and pending changes are not). */
export async function liveSubscriptionCounts(db: Executor, environmentId: string): Promise<Record<string, number>> {
  const rows = await db
    .selectFrom('subscriptions')
    .select('status')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('environment_id', '=', environmentId)
    .where('status', 'in', ['active', 'past_due', 'trialing'])
    .groupBy('status')
    .execute();
  return Object.fromEntries(rows.map((row) => [row.status, Number(row.n)]));
}

function failedInvoices(db: Executor, environmentId: string) {
  return db.selectFrom('invoices as i').where('i.environment_id', '=', environmentId).where('i.status', '=', 'PAYMENT_FAILED');
}

export async function countFailedInvoices(db: Executor, environmentId: string): Promise<number> {
  const row = await failedInvoices(db, environmentId).select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow();
  return Number(row.n);
}

/** The unpaid invoices whose last payment attempt failed most recently, with their customer. */
export function newestFailedInvoices(db: Executor, environmentId: string, limit: number) {
  return failedInvoices(db, environmentId)
    .innerJoin('customers as c', 'c.id', 'i.customer_id')
    .select([
      'i.id',
      'i.number',
      'i.subscription_id',
      'i.currency',
      'i.total_minor',
      'i.attempt_count',
      'i.failure_code',
      'i.failure_message',
      'i.next_attempt_at',
      'i.modified_at',
      'c.customer_id',
      'c.email',
    ])
    .orderBy('i.modified_at', 'desc')
    .orderBy('i.seq', 'desc')
    .limit(limit)
    .execute();
}

/** The newest events of the environment, newest first, with the name and email of the customer each is about (if any). */
export function newestEvents(db: Executor, environmentId: string, limit: number) {
  return db
    .selectFrom('events as e')
    .leftJoin('customers as c', (join) => join.onRef('c.environment_id', '=', 'e.environment_id').onRef('c.customer_id', '=', 'e.customer_id'))
    .select(['e.id', 'e.type', 'e.payload', 'e.actor', 'e.created_at', 'e.customer_id', 'c.name as customer_name', 'c.email as customer_email'])
    .where('e.environment_id', '=', environmentId)
    .orderBy('e.seq', 'desc')
    .limit(limit)
    .execute();
}
