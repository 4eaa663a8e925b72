import type { Selectable } from 'kysely';
import type { Executor } from '../../db/transaction.js';
import type { PlanPricesTable } from '../../db/schema.js';

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

/**
 * The subscriptions that bring recurring revenue (active or past_due, recurring), grouped
 * by what their next renewal is priced from: the price, the quantities, a custom amount,
 * the discount they carry with cycles left, a promotion, and, for a price with tax
 * included, the tax rate of their newest order (other prices add tax on top: the rate
 * does not change what they bring before tax). `n`: how many share those terms.
 */
export function recurringSubscriptions(db: Executor, environmentId: string) {
  const terms = [
    's.currency',
    's.charge_period',
    's.quantities',
    's.price_id',
    's.custom_amount_minor',
    's.custom_tax_behavior',
    's.promotion_percent',
    'd.discount_type',
    'd.percent_off_bp',
    'da.amount_minor',
  ] as const;
  return db
    .selectFrom('subscriptions as s')
    .innerJoin('plan_prices as p', 'p.id', 's.price_id')
    .leftJoin('subscription_discounts as sd', (join) =>
      join.onRef('sd.subscription_id', '=', 's.id').on((eb) => eb.or([eb('sd.cycles_remaining', 'is', null), eb('sd.cycles_remaining', '>', 0)])),
    )
    .leftJoin('discounts as d', 'd.id', 'sd.discount_id')
    .leftJoin('discount_amounts as da', (join) => join.onRef('da.discount_id', '=', 'd.id').onRef('da.currency', '=', 's.currency'))
    .select([...terms.slice(0, -1), 'da.amount_minor as discount_amount_minor'])
    .select((eb) => {
      const newestRate = eb.selectFrom('orders as o').select('o.tax_rate_bp').whereRef('o.subscription_id', '=', 's.id').orderBy('o.created_at', 'desc').limit(1);
      const inclusive = eb.or([eb('s.custom_tax_behavior', '=', 'INCLUSIVE'), eb.and([eb('s.custom_tax_behavior', 'is', null), eb('p.tax_behavior', '=', 'INCLUSIVE')])]);
      return eb.case().when(inclusive).then(newestRate).else(0).end().as('tax_rate_bp');
    })
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('s.environment_id', '=', environmentId)
    .where('s.status', 'in', ['active', 'past_due'])
    .where('s.charge_period', '!=', 'ONE_TIME')
    .groupBy([...terms, 'tax_rate_bp'])
    .execute();
}

export type RecurringSubscriptionRow = Awaited<ReturnType<typeof recurringSubscriptions>>[number];

export function pricesByIds(db: Executor, environmentId: string, ids: string[]): Promise<Selectable<PlanPricesTable>[]> {
  if (ids.length === 0) return Promise.resolve([]);
  return db.selectFrom('plan_prices').selectAll().where('environment_id', '=', environmentId).where('id', 'in', ids).execute();
}

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

/** The newest events of the environment, newest first. */
export function newestEvents(db: Executor, environmentId: string, limit: number) {
  return db
    .selectFrom('events')
    .select(['id', 'type', 'payload', 'actor', 'created_at'])
    .where('environment_id', '=', environmentId)
    .orderBy('seq', 'desc')
    .limit(limit)
    .execute();
}
