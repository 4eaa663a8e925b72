import type { FailedPayment, Overview } from '@billow/contract';
import type { Db } from '../../db/connect.js';
import type { Executor } from '../../db/transaction.js';
import type { StoredPrice } from '../catalog/prices/prices.compute.js';
import type { Clock } from '../../lib/clock.js';
import { dayAndMonthStart } from '../../lib/time-zone.js';
import { storedPricesByIds } from '../catalog/queries.js';
import { sellerTimeZone } from '../seller-profile/queries.js';
import { mrrByCurrency, type MrrItem } from '../analytics/mrr.compute.js';
import { recurringNetOfRow } from '../analytics/terms-pricing.js';
import { summarizeEvent } from '../events/queries.js';
import * as repo from './repo.js';

const NEWEST_FAILED = 5;
const NEWEST_EVENTS = 10;
/** Kept MRR counts are folded (one row per terms) once reading them means more rows than this. */
const FOLD_AFTER_ROWS = 200;

type KeptTerms = Awaited<ReturnType<typeof repo.keptRecurringTerms>>['terms'][number];
/** Recurring subscriptions on the same terms, `n` of them. */
type MrrGroup = Omit<repo.RecurringSubscriptionRow, 'n'> & { n: number };

/** The terms on a subscription's row, as one key: the kept counts and the rows read one by one meet on it. */
function rowTermsKey(row: KeptTerms | repo.RecurringSubscriptionRow): string {
  const quantities = Object.entries((row.quantities ?? {}) as Record<string, number>).sort(([a], [b]) => (a < b ? -1 : 1));
  const custom = row.custom_amount_minor === null ? null : Number(row.custom_amount_minor);
  return JSON.stringify([row.currency, row.charge_period, row.price_id, custom, row.custom_tax_behavior, row.promotion_percent, quantities]);
}

/**
 * The kept counts per terms with the subscriptions read one by one taken out of them, and
 * those subscriptions' own groups (with their discount and tax rate) added.
 */
function withReadOnes(kept: readonly KeptTerms[], readOnes: readonly repo.RecurringSubscriptionRow[]): MrrGroup[] {
  const taken = new Map<string, number>();
  for (const row of readOnes) taken.set(rowTermsKey(row), (taken.get(rowTermsKey(row)) ?? 0) + Number(row.n));
  const plain = kept.map((row) => ({
    ...row,
    n: row.n - (taken.get(rowTermsKey(row)) ?? 0),
    discount_type: null,
    percent_off_bp: null,
    discount_amount_minor: null,
    tax_rate_bp: 0,
  }));
  return [...plain, ...readOnes.map((row) => ({ ...row, n: Number(row.n) }))];
}

export interface OverviewScope {
  environmentId: string;
}

/** The money of a window per currency: paid, refunded and the difference, by currency code. */
function revenueOf(rows: Awaited<ReturnType<typeof repo.revenueBetween>>) {
  const byCurrency = new Map<string, { paidUnits: number; refundedUnits: number }>();
  for (const row of rows) {
    const sum = byCurrency.get(row.currency) ?? { paidUnits: 0, refundedUnits: 0 };
    if (row.type === 'CHARGE') sum.paidUnits += row.totalMinor;
    else sum.refundedUnits += row.totalMinor;
    byCurrency.set(row.currency, sum);
  }
  return [...byCurrency.entries()]
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([currency, sum]) => ({ currency, ...sum, netUnits: sum.paidUnits - sum.refundedUnits }));
}

function toFailedPayment(row: Awaited<ReturnType<typeof repo.newestFailedInvoices>>[number]): FailedPayment {
  return {
    invoiceId: row.id,
    invoiceNumber: row.number,
    subscriptionId: row.subscription_id,
    customerId: row.customer_id,
    customerEmail: row.email,
    currency: row.currency,
    amountUnits: row.total_minor,
    attemptCount: row.attempt_count,
    failureCode: row.failure_code,
    failureMessage: row.failure_message,
    nextPaymentAttempt: row.next_attempt_at?.toISOString() ?? null,
    failedOn: row.modified_at.toISOString(),
  };
}


/** The figures of the dashboard's Home page (decision 0080), read in one go; nothing is written. */
export class OverviewService {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
  ) {}

  async overview(scope: OverviewScope): Promise<Overview> {
    const env = scope.environmentId;
    const now = this.clock.now();
    const timeZone = await sellerTimeZone(this.db, env);
    const starts = dayAndMonthStart(now, timeZone);
    const [today, month, mrr, counts, failedCount, failed, events] = await Promise.all([
      repo.revenueBetween(this.db, env, starts.day, now),
      repo.revenueBetween(this.db, env, starts.month, now),
      this.mrr(env),
      repo.liveSubscriptionCounts(this.db, env),
      repo.countFailedInvoices(this.db, env),
      repo.newestFailedInvoices(this.db, env, NEWEST_FAILED),
      repo.newestEvents(this.db, env, NEWEST_EVENTS),
    ]);
    const end = now.toISOString();
    return {
      timeZone,
      revenue: {
        today: { start: starts.day.toISOString(), end, currencies: revenueOf(today) },
        month: { start: starts.month.toISOString(), end, currencies: revenueOf(month) },
      },
      mrr,
      activeSubscriptions: (counts.active ?? 0) + (counts.past_due ?? 0),
      trials: counts.trialing ?? 0,
      failedPayments: { count: failedCount, newest: failed.map(toFailedPayment) },
      events: events.map((row) => ({
        ...summarizeEvent(row),
        customer: row.customer_id ? { customerId: row.customer_id, name: row.customer_name, email: row.customer_email } : null,
      })),
    };
  }

  /**
   * MRR from the counts kept per terms (decision 0090): the subscriptions a renewal prices
   * from their row alone are counted there; those carrying a live discount or on a price
   * that includes tax (their newest order's rate counts) are read one by one and take
   * their place. Now and then the kept counts are folded into one row per terms.
   */
  private async mrr(environmentId: string) {
    // One snapshot for the counts and the rows read one by one, so a change committed between them is in both or neither.
    const { kept, prices, readOnes } = await this.db
      .transaction()
      .setIsolationLevel('repeatable read')
      .execute(async (tx) => {
        const kept = await repo.keptRecurringTerms(tx, environmentId);
        const prices = await this.pricesOf(tx, environmentId, kept.terms.map((t) => t.price_id));
        const inclusivePriceIds = [...prices].filter(([, price]) => price.taxBehavior === 'INCLUSIVE').map(([id]) => id);
        const custom = kept.terms.some((t) => t.custom_tax_behavior === 'INCLUSIVE');
        const discounted = await repo.recurringSubscriptions(tx, environmentId, { discounted: true });
        const inclusive =
          inclusivePriceIds.length > 0 || custom ? await repo.recurringSubscriptions(tx, environmentId, { inclusive: { priceIds: inclusivePriceIds, custom } }) : [];
        return { kept, prices, readOnes: [...discounted, ...inclusive] };
      });
    if (kept.rowsRead > FOLD_AFTER_ROWS && kept.rowsRead > 2 * kept.terms.length) await repo.foldRecurringTerms(this.db, environmentId);
    return this.priced(prices, withReadOnes(kept.terms, readOnes));
  }

  /** The same MRR recomputed from every recurring subscription, without the kept counts: what they are checked against. */
  async recomputedMrr(scope: OverviewScope) {
    const groups = (await repo.recurringSubscriptions(this.db, scope.environmentId, { all: true })).map((row) => ({ ...row, n: Number(row.n) }));
    return this.priced(await this.pricesOf(this.db, scope.environmentId, groups.map((g) => g.price_id)), groups);
  }

  private async pricesOf(db: Executor, environmentId: string, ids: string[]) {
    return storedPricesByIds(db, environmentId, ids);
  }

  /** Each group of recurring subscriptions on the same terms priced once, as their next renewal would be, without usage and before tax. */
  private priced(prices: Map<string, StoredPrice>, groups: readonly MrrGroup[]) {
    const items: MrrItem[] = [];
    for (const row of groups) {
      const listed = prices.get(row.price_id);
      if (!listed || row.n <= 0) continue;
      const netMinor = recurringNetOfRow(row, listed);
      if (netMinor !== null) items.push({ currency: row.currency, chargePeriod: row.charge_period, netMinor, subscriptions: row.n });
    }
    return mrrByCurrency(items);
  }
}
