import type { MrrMovementItem, MrrMovementKind, MrrPeriod, MrrSeries } from '@billow/contract';
import type { Db } from '../../db/connect.js';
import { inTransaction, type Tx } from '../../db/transaction.js';
import type { Clock } from '../../lib/clock.js';
import { localDate } from '../../lib/time-zone.js';
import { divRoundHalfUp } from '../billing/rounding.compute.js';
import { MONTH_PARTS, partsToMinor } from '../billing/month-parts.compute.js';
import type { StoredPrice } from '../catalog/prices/prices.compute.js';
import { storedPricesByIds } from '../catalog/queries.js';
import { sellerTimeZone } from '../seller-profile/queries.js';
import { MrrBook, type MovementRecord, type PricedTerms } from './book.compute.js';
import { tooManyRows } from './errors.js';
import { addDays, datePeriods, seriesRange, type DatePeriod, type Interval } from './periods.compute.js';
import { periodRatios } from './ratios.compute.js';
import { seriesOf, type MovementTotal, type PeriodFigures } from './series.compute.js';
import { monthlyPartsOfRow } from './terms-pricing.js';
import * as repo from './repo.js';

/** Transactions of the log priced in one database transaction. */
const PRICING_BATCH = 500;
/** A series prices at most this many batches of its environment's pending changes first; `completeUntil` tells when more were left. */
const CATCH_UP_BATCHES = 20;
/** Movements a CSV export holds at most. */
const MAX_EXPORT_ROWS = 50_000;

export interface AnalyticsScope {
  environmentId: string;
}

export interface SeriesRequest {
  start?: string;
  end?: string;
  interval?: Interval;
  currency?: string;
}

export interface MovementsRequest {
  start?: string;
  end?: string;
  kind?: MrrMovementKind;
  currency?: string;
}

const MAX_DIFFERENCES = 20;

export interface RebuildReport {
  /** Rows of the terms log priced again. */
  logRows: number;
  kept: number;
  rebuilt: number;
  /** The first movements where the two disagree, in words; empty when they agree. */
  differences: string[];
  applied: boolean;
}

type KeptMovement = Awaited<ReturnType<typeof repo.keptMovements>>[number];

const describeKept = (m: KeptMovement) => `${m.kind} ${m.parts} of ${m.customer_id} in ${m.currency} (log ${m.log_id}, customer at ${m.customer_parts})`;
const describeRebuilt = (m: MovementRecord) => `${m.kind} ${m.parts} of ${m.customerId} in ${m.currency} (log ${m.logId}, customer at ${m.customerParts})`;

/** Where the kept movements and a rebuild's differ, position by position (amounts in 336ths of a minor unit). */
function movementDifferences(kept: readonly KeptMovement[], rebuilt: readonly MovementRecord[]): string[] {
  const differences: string[] = [];
  for (let i = 0; i < Math.max(kept.length, rebuilt.length); i++) {
    const a = kept[i] ? describeKept(kept[i]!) : 'nothing';
    const b = rebuilt[i] ? describeRebuilt(rebuilt[i]!) : 'nothing';
    if (a !== b) differences.push(`movement ${i + 1}: kept ${a}, rebuilt ${b}`);
  }
  return differences;
}

/** The log rows of one transaction together, in the order of their first row. */
function groupedBy<K>(rows: readonly repo.TermsLogRow[], keyOf: (row: repo.TermsLogRow) => K): Map<K, repo.TermsLogRow[]> {
  const groups = new Map<K, repo.TermsLogRow[]>();
  for (const row of rows) {
    const group = groups.get(keyOf(row));
    if (group) group.push(row);
    else groups.set(keyOf(row), [row]);
  }
  return groups;
}

const byTransaction = (rows: readonly repo.TermsLogRow[]) => [...groupedBy(rows, (row) => Number(row.tx)).values()];
const byEnvironment = (rows: readonly repo.TermsLogRow[]) => groupedBy(rows, (row) => row.environment_id);

/** Each period with the day totals that fall in it; both come sorted by date. */
function totalsByPeriod(periods: readonly DatePeriod[], days: readonly repo.DayTotal[]): { label: string; totals: MovementTotal[] }[] {
  let next = 0;
  return periods.map((period) => {
    const totals: MovementTotal[] = [];
    for (; next < days.length && days[next]!.day < period.end; next++) {
      const d = days[next]!;
      if (d.day >= period.start) totals.push({ currency: d.currency, kind: d.kind, parts: BigInt(d.parts), count: Number(d.count) });
    }
    return { label: period.label, totals };
  });
}

function movementOnWire(row: repo.MovementListRow): MrrMovementItem {
  return {
    customer: { customerId: row.customer_key, name: row.name, email: row.email },
    subscriptionId: row.subscription_id,
    kind: row.kind,
    currency: row.currency,
    amountUnits: partsToMinor(BigInt(row.parts)),
    customerMrrAfterUnits: partsToMinor(BigInt(row.customer_parts)),
    at: row.at.toISOString(),
    day: row.day,
  };
}

function periodOnWire(figures: PeriodFigures, dates: { start: string; end: string }): MrrPeriod {
  const ratios = periodRatios(figures);
  return {
    period: figures.label,
    start: dates.start,
    end: dates.end,
    mrrStartUnits: figures.startMinor,
    mrrEndUnits: figures.endMinor,
    arrEndUnits: Number(divRoundHalfUp(figures.endParts * 12n, MONTH_PARTS)),
    movements: {
      newUnits: figures.movements.new,
      expansionUnits: figures.movements.expansion,
      reactivationUnits: figures.movements.reactivation,
      contractionUnits: figures.movements.contraction,
      churnedUnits: figures.movements.churned,
    },
    customers: figures.customers,
    customerChurnRateBp: ratios.customerChurnBp,
    revenueChurnRateBp: ratios.revenueChurnBp,
    netRevenueRetentionBp: ratios.netRevenueRetentionBp,
    arpuUnits: ratios.arpuMinor,
    lifetimeValueUnits: ratios.lifetimeValueMinor,
  };
}

/** Revenue analytics (decision 0097): the terms log priced into movements, and series read from them. */
export class AnalyticsService {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
  ) {}

  /**
   * Prices what the log gained since the last run, a batch at a time, of every environment or
   * of one (a series catching up); how many log rows it priced.
   */
  async priceLog(maxBatches = 20, environmentId: string | null = null): Promise<number> {
    let priced = 0;
    for (let batch = 0; batch < maxBatches; batch++) {
      const count = await inTransaction(this.db, async (tx) => {
        await repo.lockPricing(tx);
        const rows = await repo.unpricedLog(tx, PRICING_BATCH, environmentId);
        for (const [environmentId, envRows] of byEnvironment(rows)) await this.priceEnvironment(tx, environmentId, envRows);
        await repo.markPriced(tx, rows.map((row) => row.id));
        return rows.length;
      });
      priced += count;
      if (count === 0) break;
    }
    return priced;
  }

  private async priceEnvironment(tx: Tx, environmentId: string, rows: readonly repo.TermsLogRow[]): Promise<void> {
    const prices = await storedPricesByIds(tx, environmentId, rows.map((row) => row.price_id));
    const book = await this.bookOf(tx, environmentId, rows);
    const timeZone = await sellerTimeZone(tx, environmentId);
    const movements = byTransaction(rows).flatMap((group) => book.apply(group.map((row) => this.pricedTerms(row, prices))));
    await this.saveBook(tx, environmentId, book, movements, timeZone);
  }

  private async saveBook(tx: Tx, environmentId: string, book: MrrBook, movements: readonly MovementRecord[], timeZone: string): Promise<void> {
    await repo.saveSubscriptionStandings(tx, environmentId, [...book.subscriptions].map(([subscriptionId, s]) => ({ subscriptionId, ...s })));
    await repo.saveCustomerStandings(
      tx,
      environmentId,
      [...book.customers].map(([key, c]) => ({ customerId: key.slice(0, key.lastIndexOf(' ')), currency: key.slice(key.lastIndexOf(' ') + 1), ...c })),
    );
    await repo.insertMovements(tx, movements.map((m) => this.movementRow(environmentId, m, timeZone)));
  }

  private pricedTerms(row: repo.TermsLogRow, prices: Map<string, StoredPrice>): PricedTerms {
    const parts = row.counts ? monthlyPartsOfRow(row, prices.get(row.price_id)) : 0n;
    return { logId: Number(row.id), subscriptionId: row.subscription_id, customerId: row.customer_id, currency: row.currency, at: row.at, parts };
  }

  /** The standing of the subscriptions and customers the rows touch, as the last run left it. */
  private async bookOf(tx: Tx, environmentId: string, rows: readonly repo.TermsLogRow[]): Promise<MrrBook> {
    const [subscriptions, customers] = await Promise.all([
      repo.subscriptionStandings(tx, environmentId, [...new Set(rows.map((row) => row.subscription_id))]),
      repo.customerStandings(tx, environmentId, [...new Set(rows.map((row) => row.customer_id))]),
    ]);
    return new MrrBook(
      new Map(subscriptions.map((s) => [s.subscription_id, { customerId: s.customer_id, currency: s.currency, parts: BigInt(s.parts) }])),
      new Map(customers.map((c) => [`${c.customer_id} ${c.currency}`, { parts: BigInt(c.parts), everPaid: c.ever_paid }])),
    );
  }

  private movementRow(environmentId: string, m: MovementRecord, timeZone: string) {
    return {
      environment_id: environmentId,
      customer_id: m.customerId,
      subscription_id: m.subscriptionId,
      currency: m.currency,
      at: m.at,
      day: localDate(m.at, timeZone),
      kind: m.kind,
      parts: m.parts.toString(),
      customer_parts: m.customerParts.toString(),
      log_id: m.logId,
    };
  }

  /**
   * Prices the environment's whole log again from an empty book and compares the movements
   * with the kept ones, in order; `apply` replaces the kept ones (and the standings) with it.
   */
  async rebuild(scope: AnalyticsScope, apply: boolean): Promise<RebuildReport> {
    return inTransaction(this.db, async (tx) => {
      await repo.lockPricing(tx);
      const rows = await repo.logOf(tx, scope.environmentId);
      const prices = await storedPricesByIds(tx, scope.environmentId, rows.map((row) => row.price_id));
      const book = new MrrBook();
      const timeZone = await sellerTimeZone(tx, scope.environmentId);
      const rebuilt = byTransaction(rows).flatMap((group) => book.apply(group.map((row) => this.pricedTerms(row, prices))));
      const kept = await repo.keptMovements(tx, scope.environmentId);
      const differences = movementDifferences(kept, rebuilt);
      if (apply && differences.length > 0) {
        await repo.clearEnvironment(tx, scope.environmentId);
        await this.saveBook(tx, scope.environmentId, book, rebuilt, timeZone);
        await repo.markPriced(tx, rows.filter((row) => !row.priced).map((row) => row.id));
      }
      return { logRows: rows.length, kept: kept.length, rebuilt: rebuilt.length, differences: differences.slice(0, MAX_DIFFERENCES), applied: apply && differences.length > 0 };
    });
  }

  /** The MRR series of an environment, per currency (docs/analytics.md). */
  async mrrSeries(scope: AnalyticsScope, request: SeriesRequest): Promise<MrrSeries> {
    // What the environment changed since the job's last run is counted first: the answer holds every change committed before it.
    await this.priceLog(CATCH_UP_BATCHES, scope.environmentId);
    const timeZone = await sellerTimeZone(this.db, scope.environmentId);
    const now = this.clock.now();
    const interval = request.interval ?? 'month';
    const { first, last } = seriesRange(request, localDate(now, timeZone), interval);
    const periods = datePeriods(first, last, interval);
    const from = periods[0]!.start;
    const to = periods[periods.length - 1]!.end;
    const [openings, days, pending] = await Promise.all([
      repo.openingBefore(this.db, scope.environmentId, from),
      repo.dailyTotals(this.db, scope.environmentId, from, to, request.currency ?? null),
      repo.oldestUnpriced(this.db, scope.environmentId),
    ]);
    const wanted = openings.filter((o) => !request.currency || o.currency === request.currency);
    const totals = totalsByPeriod(periods, days);
    const figures = seriesOf(wanted.map((o) => ({ currency: o.currency, parts: BigInt(o.parts), paying: Number(o.paying) })), totals);
    const dates = new Map(periods.map((p) => [p.label, p]));
    const currencies = [...new Set(figures.map((f) => f.currency))].map((currency) => ({
      currency,
      periods: figures.filter((f) => f.currency === currency).map((f) => periodOnWire(f, dates.get(f.label)!)),
    }));
    return { timeZone, interval, start: from, end: to, completeUntil: (pending && pending < now ? pending : now).toISOString(), currencies };
  }

  /** The movements behind a figure (the drill-down): those of the days from start to end, newest first, with their customers. */
  async movements(scope: AnalyticsScope, request: MovementsRequest, page: { limit: number; offset: number }): Promise<{ count: number; results: MrrMovementItem[] }> {
    await this.priceLog(CATCH_UP_BATCHES, scope.environmentId);
    const timeZone = await sellerTimeZone(this.db, scope.environmentId);
    const { first, last } = seriesRange(request, localDate(this.clock.now(), timeZone), 'month');
    const filter = { from: first, to: addDays(last, 1), kind: request.kind ?? null, currency: request.currency ?? null };
    const [count, rows] = await Promise.all([
      repo.movementCount(this.db, scope.environmentId, filter),
      repo.movementList(this.db, scope.environmentId, filter, page),
    ]);
    return { count, results: rows.map(movementOnWire) };
  }

  /** Every movement of a drill-down, for a CSV export: refused past MAX_EXPORT_ROWS. */
  async allMovements(scope: AnalyticsScope, request: MovementsRequest): Promise<MrrMovementItem[]> {
    const { count, results } = await this.movements(scope, request, { limit: MAX_EXPORT_ROWS, offset: 0 });
    if (count > MAX_EXPORT_ROWS) throw tooManyRows(count, MAX_EXPORT_ROWS);
    return results;
  }

}
