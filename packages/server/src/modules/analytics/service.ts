import type { MrrMovementItem, MrrMovementKind, MrrPeriod, MrrSeries, SubscriberSeries } from '@billow/contract';
import type { Db } from '../../db/connect.js';
import { inTransaction, type Tx } from '../../db/transaction.js';
import type { Clock } from '../../lib/clock.js';
import { localDate } from '../../lib/time-zone.js';
import { divRoundHalfUp } from '../billing/rounding.compute.js';
import { MONTH_PARTS, partsToMinor } from '../billing/month-parts.compute.js';
import type { StoredPrice } from '../catalog/prices/prices.compute.js';
import { ownersOfPrices, storedPricesByIds } from '../catalog/queries.js';
import { sellerTimeZone } from '../seller-profile/queries.js';
import { customerKey, parseCustomerKey, type PricedTerms } from './book.compute.js';
import { applyToBooks, DIMENSIONS, emptyBooks, type BookMovement, type Books, type Owners } from './books.compute.js';
import { bookOfRequest } from './book-request.js';
import { tooManyRows } from './errors.js';
import { addDays, datePeriods, seriesRange, type DatePeriod, type Interval } from './periods.compute.js';
import { periodRatios } from './ratios.compute.js';
import { conversionView, reportingFigures } from './reporting.compute.js';
import { ReportingService } from './reporting.service.js';
import { seriesOf, type MovementTotal, type PeriodFigures } from './series.compute.js';
import { monthlyPartsOfRow } from './terms-pricing.js';
import { keepSubscribers, rebuildSubscribers, subscriberEntry, subscriberFigures, subscribersOnWire, type OwnedEntry } from './subscribers.service.js';
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
  plan?: string;
  product?: string;
  /** Also convert the figures into this currency (decision 0102). */
  reporting_currency?: string;
}

export interface MovementsRequest {
  start?: string;
  end?: string;
  kind?: MrrMovementKind;
  currency?: string;
  plan?: string;
  product?: string;
}

const MAX_DIFFERENCES = 20;

export interface RebuildReport {
  /** Rows of the terms log priced again. */
  logRows: number;
  kept: number;
  rebuilt: number;
  /** The subscriber events (decision 0101): kept, and priced again. */
  subscriberEvents: { kept: number; rebuilt: number };
  /** The first movements (then subscriber events) where the two disagree, in words; empty when they agree. */
  differences: string[];
  applied: boolean;
}

type KeptMovement = Awaited<ReturnType<typeof repo.keptMovements>>[number];

const inBook = (dimension: string, segment: string) => (dimension === 'all' ? '' : ` of ${dimension} ${segment}`);
const describeKept = (m: KeptMovement) =>
  `${m.kind} ${m.parts} of ${m.customer_id} in ${m.currency}${inBook(m.dimension, m.segment)} (log ${m.log_id}, customer at ${m.customer_parts})`;
const describeRebuilt = (m: BookMovement) =>
  `${m.kind} ${m.parts} of ${m.customerId} in ${m.currency}${inBook(m.dimension, m.segment)} (log ${m.logId}, customer at ${m.customerParts})`;

/** Where the kept movements and a rebuild's differ, position by position (amounts in 336ths of a minor unit). */
function movementDifferences(kept: readonly KeptMovement[], rebuilt: readonly BookMovement[]): string[] {
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

const NO_OWNERS: Owners = { plan: '', product: '' };

/** A priced transaction's rows as the subscriber books read them. */
const ownedEntries = (group: readonly { row: repo.TermsLogRow; terms: PricedTerms; owners: Owners }[]): OwnedEntry[] =>
  group.map((g) => ({ entry: subscriberEntry(g.row, g.terms.parts), owners: g.owners }));

/** Until when a series counts every change: now, or the oldest change the job has not priced yet. */
const completeUntil = (pending: Date | null, now: Date) => (pending && pending < now ? pending : now).toISOString();

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
    arrEndUnits: Number(divRoundHalfUp(figures.endParts * 12n, figures.per ?? MONTH_PARTS)),
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
    private readonly reporting = new ReportingService(db, clock),
    /** Where series are read once caught up: a replica, when one is set (decision 0123). */
    private readonly reads: Db = db,
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
    const books = await this.booksOf(tx, environmentId, rows);
    const timeZone = await sellerTimeZone(tx, environmentId);
    const groups = await this.pricedGroups(tx, environmentId, rows);
    await this.saveBooks(tx, environmentId, books, groups.flatMap((group) => applyToBooks(books, group)), timeZone);
    await keepSubscribers(tx, environmentId, groups.map(ownedEntries), timeZone);
  }

  /** The rows of each logged transaction, each with its priced terms and the plan and product it is priced from. */
  private async pricedGroups(tx: Tx, environmentId: string, rows: readonly repo.TermsLogRow[]) {
    const priceIds = rows.map((row) => row.price_id);
    const [prices, owners] = await Promise.all([storedPricesByIds(tx, environmentId, priceIds), ownersOfPrices(tx, environmentId, priceIds)]);
    return byTransaction(rows).map((group) =>
      group.map((row) => ({ row, terms: this.pricedTerms(row, prices), owners: owners.get(row.price_id) ?? NO_OWNERS })),
    );
  }

  private async saveBooks(tx: Tx, environmentId: string, books: Books, movements: readonly BookMovement[], timeZone: string): Promise<void> {
    for (const dimension of DIMENSIONS) {
      const book = books[dimension];
      await repo.saveSubscriptionStandings(tx, environmentId, [...book.subscriptions].map(([subscriptionId, s]) => ({ subscriptionId, dimension, ...s })));
      await repo.saveCustomerStandings(tx, environmentId, [...book.customers].map(([key, c]) => ({ ...parseCustomerKey(key), dimension, ...c })));
    }
    await repo.insertMovements(tx, movements.map((m) => this.movementRow(environmentId, m, timeZone)));
  }

  private pricedTerms(row: repo.TermsLogRow, prices: Map<string, StoredPrice>): PricedTerms {
    const parts = row.counts ? monthlyPartsOfRow(row, prices.get(row.price_id)) : 0n;
    return { logId: Number(row.id), subscriptionId: row.subscription_id, customerId: row.customer_id, currency: row.currency, at: row.at, parts, segment: '' };
  }

  /** The standing of the subscriptions and customers the rows touch in each book, as the last run left it. */
  private async booksOf(tx: Tx, environmentId: string, rows: readonly repo.TermsLogRow[]): Promise<Books> {
    const [subscriptions, customers] = await Promise.all([
      repo.subscriptionStandings(tx, environmentId, [...new Set(rows.map((row) => row.subscription_id))]),
      repo.customerStandings(tx, environmentId, [...new Set(rows.map((row) => row.customer_id))]),
    ]);
    const books = emptyBooks();
    for (const s of subscriptions) {
      books[s.dimension].subscriptions.set(s.subscription_id, { customerId: s.customer_id, currency: s.currency, parts: BigInt(s.parts), segment: s.segment });
    }
    for (const c of customers) {
      books[c.dimension].customers.set(customerKey({ customerId: c.customer_id, currency: c.currency, segment: c.segment }), { parts: BigInt(c.parts), everPaid: c.ever_paid });
    }
    return books;
  }

  private movementRow(environmentId: string, m: BookMovement, timeZone: string) {
    return {
      dimension: m.dimension,
      segment: m.segment,
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
      const books = emptyBooks();
      const timeZone = await sellerTimeZone(tx, scope.environmentId);
      const groups = await this.pricedGroups(tx, scope.environmentId, rows);
      const rebuilt = groups.flatMap((group) => applyToBooks(books, group));
      const kept = await repo.keptMovements(tx, scope.environmentId);
      const subscribers = await rebuildSubscribers(tx, scope.environmentId, groups.map(ownedEntries), timeZone);
      const differences = [...movementDifferences(kept, rebuilt), ...subscribers.differences];
      if (apply && differences.length > 0) {
        await repo.clearEnvironment(tx, scope.environmentId);
        await this.saveBooks(tx, scope.environmentId, books, rebuilt, timeZone);
        await subscribers.apply();
        await repo.markPriced(tx, rows.filter((row) => !row.priced).map((row) => row.id));
      }
      return {
        logRows: rows.length,
        kept: kept.length,
        rebuilt: rebuilt.length,
        subscriberEvents: { kept: subscribers.kept, rebuilt: subscribers.rebuilt },
        differences: differences.slice(0, MAX_DIFFERENCES),
        applied: apply && differences.length > 0,
      };
    });
  }

  /** The MRR series of an environment, per currency (docs/analytics.md). */
  async mrrSeries(scope: AnalyticsScope, request: SeriesRequest): Promise<MrrSeries> {
    const { timeZone, now, interval, periods, from, to } = await this.seriesFrame(scope, request);
    const book = bookOfRequest(request);
    const [openings, days, pending] = await Promise.all([
      repo.openingBefore(this.reads, scope.environmentId, book, from),
      repo.dailyTotals(this.reads, scope.environmentId, book, from, to, request.currency ?? null),
      repo.oldestUnpriced(this.reads, scope.environmentId),
    ]);
    const wanted = openings.filter((o) => !request.currency || o.currency === request.currency);
    const totals = totalsByPeriod(periods, days);
    const figures = seriesOf(wanted.map((o) => ({ currency: o.currency, parts: BigInt(o.parts), paying: Number(o.paying) })), totals);
    const dates = new Map(periods.map((p) => [p.label, p]));
    const currencies = [...new Set(figures.map((f) => f.currency))].map((currency) => ({
      currency,
      periods: figures.filter((f) => f.currency === currency).map((f) => periodOnWire(f, dates.get(f.label)!)),
    }));
    const reporting = request.reporting_currency ? await this.inReportingCurrency(scope, request.reporting_currency, figures, dates) : undefined;
    return { timeZone, interval, start: from, end: to, completeUntil: completeUntil(pending, now), currencies, ...(reporting ? { reporting } : {}) };
  }

  /**
   * What a series covers: its periods in the seller's time zone, once what the environment
   * changed since the job's last run is counted, so that the answer holds every change
   * committed before it.
   */
  private async seriesFrame(scope: AnalyticsScope, request: SeriesRequest) {
    await this.priceLog(CATCH_UP_BATCHES, scope.environmentId);
    const timeZone = await sellerTimeZone(this.reads, scope.environmentId);
    const now = this.clock.now();
    const interval = request.interval ?? 'month';
    const { first, last } = seriesRange(request, localDate(now, timeZone), interval);
    const periods = datePeriods(first, last, interval);
    return { timeZone, now, interval, periods, from: periods[0]!.start, to: periods[periods.length - 1]!.end };
  }

  /** The series' figures converted into the reporting currency, with the conversion that states how (decision 0102). */
  private async inReportingCurrency(scope: AnalyticsScope, to: string, figures: readonly PeriodFigures[], dates: Map<string, DatePeriod>): Promise<NonNullable<MrrSeries['reporting']>> {
    const conversion = await this.reporting.conversion(this.reads, scope.environmentId, to, figures.map((f) => f.currency));
    return { conversion: conversionView(conversion), periods: reportingFigures(figures, conversion).map((f) => periodOnWire(f, dates.get(f.label)!)) };
  }

  /**
   * Active subscriptions, trials and trial-to-paid conversion per period, per currency and all
   * together (decision 0101), of the whole business or of one plan or product (decision 0107).
   */
  async subscribersSeries(scope: AnalyticsScope, request: SeriesRequest): Promise<SubscriberSeries> {
    const book = bookOfRequest(request);
    const { timeZone, now, interval, periods, from, to } = await this.seriesFrame(scope, request);
    const [figures, pending] = await Promise.all([
      subscriberFigures(this.reads, scope.environmentId, book, periods, request.currency ?? null),
      repo.oldestUnpriced(this.reads, scope.environmentId),
    ]);
    return { timeZone, interval, start: from, end: to, completeUntil: completeUntil(pending, now), ...subscribersOnWire(periods, figures) };
  }

  /** The movements behind a figure (the drill-down): those of the days from start to end, newest first, with their customers. */
  async movements(scope: AnalyticsScope, request: MovementsRequest, page: { limit: number; offset: number }): Promise<{ count: number; results: MrrMovementItem[] }> {
    await this.priceLog(CATCH_UP_BATCHES, scope.environmentId);
    const timeZone = await sellerTimeZone(this.reads, scope.environmentId);
    const { first, last } = seriesRange(request, localDate(this.clock.now(), timeZone), 'month');
    const filter = { book: bookOfRequest(request), from: first, to: addDays(last, 1), kind: request.kind ?? null, currency: request.currency ?? null };
    const [count, rows] = await Promise.all([
      repo.movementCount(this.reads, scope.environmentId, filter),
      repo.movementList(this.reads, scope.environmentId, filter, page),
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
