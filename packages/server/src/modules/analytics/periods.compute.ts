/**
 * The periods of a series, as calendar dates in the seller's time zone (YYYY-MM-DD): days,
 * weeks (from Monday) or months, from the one that holds `first` to the one that holds `last`.
 */
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
