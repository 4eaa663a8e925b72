/** Cash and dunning analytics (decision 0099): the log the triggers append to, folded into day rollups, and series read from them. */
import type { CashSeries } from '@billow/contract';
import type { Db } from '../../db/connect.js';
import { inTransaction, type Tx } from '../../db/transaction.js';
import type { Clock } from '../../lib/clock.js';
import { localDate } from '../../lib/time-zone.js';
import { sellerTimeZone } from '../seller-profile/queries.js';
import { cashDayKey, cashDifferences, cashPeriods, gridCovering, type CashDay, CASH_FIGURES } from './cash.compute.js';
import { reportingCash } from './cash-reporting.compute.js';
import { bookOfRequest } from './book-request.js';
import { datePeriods, seriesRange } from './periods.compute.js';
import { conversionView } from './reporting.compute.js';
import { ReportingService } from './reporting.service.js';
import * as repo from './repo/cash.js';
import type { AnalyticsScope, SeriesRequest } from './service.js';

/** Environments folded by one run of the job. */
const ENVIRONMENTS_A_RUN = 200;
const MAX_DIFFERENCES = 20;

export interface CashRebuildReport {
  /** Days (of a currency) with figures, kept and rebuilt. */
  kept: number;
  rebuilt: number;
  /** The first days where the two disagree, in words; empty when they agree. */
  differences: string[];
  applied: boolean;
}

/** The sum of two sets of day rollups, day by day, currency by currency and book by book. */
function added(a: readonly CashDay[], b: readonly CashDay[]): CashDay[] {
  const sums = new Map<string, CashDay>();
  for (const day of [...a, ...b]) {
    const key = cashDayKey(day);
    const into = sums.get(key);
    if (!into) sums.set(key, { ...day });
    else for (const figure of CASH_FIGURES) into[figure] += day[figure];
  }
  return [...sums.values()].filter((d) => CASH_FIGURES.some((f) => d[f] !== 0)).sort((x, y) => cashDayKey(x).localeCompare(cashDayKey(y)));
}

const spanOf = (spans: ReadonlyArray<{ first: Date; last: Date } | null>) => {
  const found = spans.filter((s) => s !== null);
  if (found.length === 0) return null;
  return { first: new Date(Math.min(...found.map((s) => s.first.getTime()))), last: new Date(Math.max(...found.map((s) => s.last.getTime()))) };
};

export class CashService {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly reporting = new ReportingService(db, clock),
    /** Where series are read once caught up: a replica, when one is set (decision 0123). */
    private readonly reads: Db = db,
  ) {}

  /** Folds what the log gained into the day rollups, of every environment with rows or of one; how many environments it folded. */
  async foldPending(environmentId: string | null = null): Promise<number> {
    const environments = environmentId ? [environmentId] : await repo.environmentsWithPendingCash(this.db, ENVIRONMENTS_A_RUN);
    let folded = 0;
    for (const id of environments) if (await this.foldEnvironment(id)) folded++;
    return folded;
  }

  private async foldEnvironment(environmentId: string): Promise<boolean> {
    if (!(await repo.pendingCashSpan(this.db, environmentId))) return false;
    return inTransaction(this.db, async (tx) => {
      await repo.lockCash(tx);
      const span = await repo.pendingCashSpan(tx, environmentId);
      if (!span) return false;
      await repo.foldCash(tx, environmentId, gridCovering(span, await sellerTimeZone(tx, environmentId)));
      return true;
    });
  }

  /** The cash series of an environment, per currency, of the whole business or of one plan or product (docs/analytics.md, "Cash"). */
  async series(scope: AnalyticsScope, request: SeriesRequest): Promise<CashSeries> {
    const book = bookOfRequest(request);
    // What the environment's payments appended since the job's last run is counted first.
    await this.foldPending(scope.environmentId);
    const timeZone = await sellerTimeZone(this.reads, scope.environmentId);
    const now = this.clock.now();
    const interval = request.interval ?? 'month';
    const { first, last } = seriesRange(request, localDate(now, timeZone), interval);
    const periods = datePeriods(first, last, interval);
    const [from, to] = [periods[0]!.start, periods[periods.length - 1]!.end];
    const days = await repo.cashDays(this.reads, scope.environmentId, book, { from, to }, request.currency ?? null);
    const currencies = cashPeriods(periods, days);
    const reporting = request.reporting_currency ? await this.inReportingCurrency(scope, request.reporting_currency, currencies) : undefined;
    return { timeZone, interval, start: from, end: to, completeUntil: now.toISOString(), currencies, ...(reporting ? { reporting } : {}) };
  }

  /** The series' figures converted into the reporting currency, with the conversion that states how (decision 0102). */
  private async inReportingCurrency(scope: AnalyticsScope, to: string, currencies: CashSeries['currencies']): Promise<NonNullable<CashSeries['reporting']>> {
    const conversion = await this.reporting.conversion(this.reads, scope.environmentId, to, currencies.map((c) => c.currency));
    return { conversion: conversionView(conversion), periods: reportingCash(currencies, conversion) };
  }

  /**
   * Recomputes the environment's cash figures from the raw tables and compares them with the
   * kept ones (the day rollups plus the log not folded yet), all in one snapshot; `apply`
   * replaces the kept ones with the rebuild when they differ.
   */
  async rebuild(scope: AnalyticsScope, apply: boolean): Promise<CashRebuildReport> {
    return this.db
      .transaction()
      .setIsolationLevel('repeatable read')
      .execute(async (tx) => {
        await repo.lockCash(tx);
        const { kept, rebuilt } = await this.keptAndRebuilt(tx, scope.environmentId);
        const differences = cashDifferences(kept, rebuilt);
        const applied = apply && differences.length > 0;
        if (applied) {
          await repo.clearCashLog(tx, scope.environmentId);
          await repo.replaceCashDays(tx, scope.environmentId, rebuilt);
        }
        return { kept: kept.length, rebuilt: rebuilt.length, differences: differences.slice(0, MAX_DIFFERENCES), applied };
      });
  }

  private async keptAndRebuilt(tx: Tx, environmentId: string): Promise<{ kept: CashDay[]; rebuilt: CashDay[] }> {
    const timeZone = await sellerTimeZone(tx, environmentId);
    const [raw, pending, days] = await Promise.all([repo.rawCashSpan(tx, environmentId), repo.pendingCashSpan(tx, environmentId), repo.cashDays(tx, environmentId, null, null, null)]);
    const span = spanOf([raw, pending]);
    if (!span) return { kept: days, rebuilt: [] };
    const grid = gridCovering(span, timeZone);
    const [waiting, rebuilt] = [await repo.pendingCashDays(tx, environmentId, grid), await repo.rebuiltCashDays(tx, environmentId, grid)];
    return { kept: added(days, waiting), rebuilt };
  }
}
