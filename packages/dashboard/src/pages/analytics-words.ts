/** How the Analytics page names periods, movement kinds and rates (words, never the API's codes). */
import type { MrrMovementKind, MrrPeriod } from '@billow/contract';
import { day } from '../format';

export type Interval = 'month' | 'week' | 'day';

/** The intervals a chart is drawn by, and where each one's default range starts (undefined: the API's year). */
export const INTERVALS: ReadonlyArray<{ value: Interval; label: string; start(): string | undefined }> = [
  { value: 'month', label: 'Months', start: () => undefined },
  { value: 'week', label: 'Weeks', start: () => daysAgo(7 * 11) },
  { value: 'day', label: 'Days', start: () => daysAgo(29) },
];

export const KINDS: ReadonlyArray<{ kind: MrrMovementKind; label: string; units(p: MrrPeriod): number }> = [
  { kind: 'new', label: 'New', units: (p) => p.movements.newUnits },
  { kind: 'expansion', label: 'Expansion', units: (p) => p.movements.expansionUnits },
  { kind: 'reactivation', label: 'Reactivation', units: (p) => p.movements.reactivationUnits },
  { kind: 'contraction', label: 'Contraction', units: (p) => p.movements.contractionUnits },
  { kind: 'churned', label: 'Churned', units: (p) => p.movements.churnedUnits },
];

export const kindLabel = (kind: MrrMovementKind): string => KINDS.find((k) => k.kind === kind)?.label ?? 'Other';

const MONTH = new Intl.DateTimeFormat(undefined, { month: 'short', year: 'numeric', timeZone: 'UTC' });

/** A period as a person names it: "Nov 2026", "Week of 23 Nov 2026", "29 Nov 2026". */
export function periodName(period: { start: string }, interval: Interval): string {
  if (interval === 'month') return MONTH.format(new Date(`${period.start}T00:00:00Z`));
  return interval === 'week' ? `Week of ${day(period.start)}` : day(period.start);
}

const PERCENT = new Intl.NumberFormat(undefined, { style: 'percent', maximumFractionDigits: 1 });

/** A rate in basis points as a percentage; null (no denominator yet) in words. */
export function rate(bp: number | null | undefined): string {
  return bp === null || bp === undefined ? 'Not enough data yet' : PERCENT.format(bp / 10_000);
}

/** The calendar date `days` days before today (UTC), as YYYY-MM-DD. */
export function daysAgo(days: number): string {
  return new Date(Date.now() - days * 86_400_000).toISOString().slice(0, 10);
}

/** The last day of a period (the API's `end` is the day after it). */
export function lastDayOf(period: { end: string }): string {
  return new Date(Date.parse(`${period.end}T00:00:00Z`) - 86_400_000).toISOString().slice(0, 10);
}
