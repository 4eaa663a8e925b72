/**
 * Cash and dunning figures (docs/analytics.md, "Cash"; decision 0099), pure: the seller's days
 * as instants, the day rollups summed into periods per currency, the recovery rate, and where
 * kept rollups and a rebuild's differ.
 */
import type { CashPeriod } from '@billow/contract';
import { localDate, localMidnight } from '../../lib/time-zone.js';
import { divRoundHalfUp } from '../billing/rounding.compute.js';
import type { Dimension } from './books.compute.js';
import { addDays, type DatePeriod } from './periods.compute.js';

export const CASH_FIGURES = [
  'collected_count', 'collected_minor', 'refunded_count', 'refunded_minor', 'failed_count', 'failed_minor',
  'recovered_count', 'recovered_minor', 'lost_count', 'lost_minor',
] as const;
export type CashFigure = (typeof CASH_FIGURES)[number];

/**
 * One currency's figures on one of the seller's days, in one book (decision 0107): the whole
 * business's (`all`, segment ''), a plan's or a product's (its identifier).
 */
export type CashDay = { dimension: Dimension; segment: string; currency: string; day: string } & Record<CashFigure, number>;

/** The seller's days as buckets: `bounds[i]` is the instant `days[i]` begins; the last bound ends the last day. */
export interface DayGrid {
  days: string[];
  bounds: Date[];
}

/** The days from `first` to `last` (both included, YYYY-MM-DD) in the zone, each with the instant it begins, and the end of the last. */
export function dayGrid(first: string, last: string, timeZone: string): DayGrid {
  const days: string[] = [];
  for (let day = first; day <= last; day = addDays(day, 1)) days.push(day);
  const midnight = (day: string) => localMidnight(Number(day.slice(0, 4)), Number(day.slice(5, 7)), Number(day.slice(8, 10)), timeZone);
  return { days, bounds: [...days, addDays(last, 1)].map(midnight) };
}

/** The grid of the seller's days that holds every instant from `first` to `last`. */
export function gridCovering(span: { first: Date; last: Date }, timeZone: string): DayGrid {
  return dayGrid(localDate(span.first, timeZone), localDate(span.last, timeZone), timeZone);
}

type Sums = Record<CashFigure, number>;

const noSums = (): Sums => Object.fromEntries(CASH_FIGURES.map((f) => [f, 0])) as Sums;

/** Recovered ÷ failed by amount, in basis points rounded half up; null when nothing failed. */
export function recoveryRateBp(recoveredMinor: number, failedMinor: number): number | null {
  if (failedMinor <= 0) return null;
  return Number(divRoundHalfUp(BigInt(recoveredMinor) * 10_000n, BigInt(failedMinor)));
}

function periodOf(period: DatePeriod, s: Sums): CashPeriod {
  return {
    period: period.label,
    start: period.start,
    end: period.end,
    collected: { count: s.collected_count, amountUnits: s.collected_minor },
    refunded: { count: s.refunded_count, amountUnits: s.refunded_minor },
    netUnits: s.collected_minor - s.refunded_minor,
    failed: { count: s.failed_count, amountUnits: s.failed_minor },
    recovered: { count: s.recovered_count, amountUnits: s.recovered_minor },
    lost: { count: s.lost_count, amountUnits: s.lost_minor },
    recoveryRateBp: recoveryRateBp(s.recovered_minor, s.failed_minor),
  };
}

/** Each currency of the days (by code), with every period summed from the days it holds; days and periods come sorted. */
export function cashPeriods(periods: readonly DatePeriod[], days: readonly CashDay[]): { currency: string; periods: CashPeriod[] }[] {
  const currencies = [...new Set(days.map((d) => d.currency))].sort();
  const sums = new Map(currencies.map((c) => [c, periods.map(noSums)]));
  let at = 0;
  for (const day of days) {
    while (at < periods.length && day.day >= periods[at]!.end) at++;
    if (at === periods.length) break;
    if (day.day < periods[at]!.start) continue;
    const into = sums.get(day.currency)![at]!;
    for (const figure of CASH_FIGURES) into[figure] += day[figure];
  }
  return currencies.map((currency) => ({ currency, periods: periods.map((p, i) => periodOf(p, sums.get(currency)![i]!)) }));
}

const describe = (d: CashDay | undefined) => (d ? CASH_FIGURES.map((f) => `${f} ${d[f]}`).join(', ') : 'nothing');
const isEmpty = (d: CashDay) => CASH_FIGURES.every((f) => d[f] === 0);

/** A day's key: its day, currency and book (nothing for the whole business's). */
export const cashDayKey = (d: CashDay): string => `${d.day} ${d.currency}${d.dimension === 'all' ? '' : ` of ${d.dimension} ${d.segment}`}`;

/** Where the kept day rollups and the rebuilt ones differ, day by day, currency by currency and book by book (a day of zeros is no day). */
export function cashDifferences(kept: readonly CashDay[], rebuilt: readonly CashDay[]): string[] {
  const key = cashDayKey;
  const [a, b] = [new Map(kept.filter((d) => !isEmpty(d)).map((d) => [key(d), d])), new Map(rebuilt.filter((d) => !isEmpty(d)).map((d) => [key(d), d]))];
  const keys = [...new Set([...a.keys(), ...b.keys()])].sort();
  return keys.flatMap((k) => {
    const [was, is] = [describe(a.get(k)), describe(b.get(k))];
    return was === is ? [] : [`cash of ${k}: kept ${was}; rebuilt ${is}`];
  });
}
