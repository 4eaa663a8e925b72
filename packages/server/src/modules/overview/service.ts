import type { FailedPayment, Overview } from '@billow/contract';
import type { Db } from '../../db/connect.js';
import type { Clock } from '../../lib/clock.js';
import { dayAndMonthStart } from '../../lib/time-zone.js';
import type { Discount } from '../billing/types.js';
import { toStored } from '../catalog/queries.js';
import { overriddenPrice } from '../purchases/purchase.js';
import { sellerTimeZone } from '../seller-profile/queries.js';
import { mrrByCurrency, recurringNetMinor, type MrrItem } from './mrr.compute.js';
import { summarizeEvent } from '../events/queries.js';
import * as repo from './repo.js';

const NEWEST_FAILED = 5;
const NEWEST_EVENTS = 10;

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

/** The discount a renewal of the row applies: the one it carries (with cycles left), else its promotion. */
function discountOf(row: repo.RecurringSubscriptionRow): Discount | null {
  if (row.discount_type === 'PERCENTAGE') return { percentOffBp: row.percent_off_bp ?? 0 };
  if (row.discount_type === 'FIXED_AMOUNT') return { amountOffMinor: row.discount_amount_minor ?? 0 };
  return row.promotion_percent ? { percentOffBp: row.promotion_percent * 100 } : null;
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
      events: events.map(summarizeEvent),
    };
  }

  /** Each group of recurring subscriptions on the same terms priced once, as their next renewal would be, without usage and before tax. */
  private async mrr(environmentId: string) {
    const rows = await repo.recurringSubscriptions(this.db, environmentId);
    const prices = new Map((await repo.pricesByIds(this.db, environmentId, [...new Set(rows.map((r) => r.price_id))])).map((p) => [p.id, toStored(p)]));
    const items: MrrItem[] = [];
    for (const row of rows) {
      const listed = prices.get(row.price_id);
      if (!listed) continue;
      const override = row.custom_amount_minor && row.custom_tax_behavior ? { amountMinor: row.custom_amount_minor, taxBehavior: row.custom_tax_behavior } : null;
      const price = override ? overriddenPrice(listed, row.charge_period, override) : listed;
      const quantities = (row.quantities ?? {}) as Record<string, number>;
      const netMinor = recurringNetMinor({ chargePeriod: row.charge_period, price, quantities, discount: discountOf(row), taxRateBp: row.tax_rate_bp ?? 0 });
      if (netMinor !== null) items.push({ currency: row.currency, chargePeriod: row.charge_period, netMinor, subscriptions: Number(row.n) });
    }
    return mrrByCurrency(items);
  }
}
