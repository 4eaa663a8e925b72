/**
 * The periods of a series, as calendar dates in the seller's time zone (YYYY-MM-DD): days,
 * weeks (from Monday) or months, from the one that holds `first` to the one that holds `last`.
 */
import { endBeforeStart, notADate, tooManyPeriods } from './errors.js';

export const INTERVALS = ['day', 'week', 'month'] as const;
export type Interval = (typeof INTERVALS)[number];

/** A period [start, end) of calendar dates; its label is its first day, or YYYY-MM for a month. */
export interface DatePeriod {
  label: string;
  start: string;
  end: string;
}

const DAY_MS = 86_400_000;

function parse(date: string): number {
  return Date.UTC(Number(date.slice(0, 4)), Number(date.slice(5, 7)) - 1, Number(date.slice(8, 10)));
}

function format(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

/** Whether the text is a calendar date that exists, as YYYY-MM-DD. */
export function isDate(text: string): boolean {
  return /^\d{4}-\d{2}-\d{2}$/.test(text) && format(parse(text)) === text;
}

export function addDays(date: string, days: number): string {
  return format(parse(date) + days * DAY_MS);
}

function periodStart(date: string, interval: Interval): number {
  const ms = parse(date);
  if (interval === 'day') return ms;
  if (interval === 'week') return ms - ((new Date(ms).getUTCDay() + 6) % 7) * DAY_MS;
  return Date.UTC(new Date(ms).getUTCFullYear(), new Date(ms).getUTCMonth(), 1);
}

function nextStart(ms: number, interval: Interval): number {
  if (interval === 'day') return ms + DAY_MS;
  if (interval === 'week') return ms + 7 * DAY_MS;
  const at = new Date(ms);
  return Date.UTC(at.getUTCFullYear(), at.getUTCMonth() + 1, 1);
}

/** How many periods `datePeriods` would give, without making them. */
export function periodCount(first: string, last: string, interval: Interval): number {
  if (interval === 'day') return Math.floor((parse(last) - parse(first)) / DAY_MS) + 1;
  if (interval === 'week') return Math.floor((periodStart(last, 'week') - periodStart(first, 'week')) / (7 * DAY_MS)) + 1;
  const [a, b] = [new Date(parse(first)), new Date(parse(last))];
  return (b.getUTCFullYear() - a.getUTCFullYear()) * 12 + b.getUTCMonth() - a.getUTCMonth() + 1;
}

export function datePeriods(first: string, last: string, interval: Interval): DatePeriod[] {
  const periods: DatePeriod[] = [];
  const end = parse(last);
  for (let start = periodStart(first, interval); start <= end; start = nextStart(start, interval)) {
    const label = interval === 'month' ? format(start).slice(0, 7) : format(start);
    periods.push({ label, start: format(start), end: format(nextStart(start, interval)) });
  }
  return periods;
}

/** The first day of the month `months` months before the month of `date`. */
export function firstOfMonthBefore(date: string, months: number): string {
  const at = new Date(parse(date));
  return format(Date.UTC(at.getUTCFullYear(), at.getUTCMonth() - months, 1));
}

const MAX_PERIODS = 1_000;
/** Without a start, a series covers a year: this month and the 11 before it. */
const DEFAULT_MONTHS = 12;

/** The first and last days a request for a series or a drill-down asks for (defaults filled in), refused in words when it cannot be answered. */
export function seriesRange(request: { start?: string; end?: string }, today: string, interval: Interval): { first: string; last: string } {
  if (request.start !== undefined && !isDate(request.start)) throw notADate('start', request.start);
  if (request.end !== undefined && !isDate(request.end)) throw notADate('end', request.end);
  const last = request.end ?? today;
  const first = request.start ?? firstOfMonthBefore(last, DEFAULT_MONTHS - 1);
  if (first > last) throw endBeforeStart(first, last);
  const count = periodCount(first, last, interval);
  if (count > MAX_PERIODS) throw tooManyPeriods(count, MAX_PERIODS, interval);
  return { first, last };
}
