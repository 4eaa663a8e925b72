/** How the Analytics page names periods, movement kinds and rates (words, never the API's codes). */
import type { MrrMovementKind, MrrPeriod } from '@billow/contract';
import { day } from '../format';
import { intlLocale, t } from '../i18n/language';

export type Interval = 'month' | 'week' | 'day';

/** The intervals a chart is drawn by, and where each one's default range starts (undefined: the API's year). */
export const INTERVALS: ReadonlyArray<{ value: Interval; label: string; start(): string | undefined }> = [
  {
    value: 'month',
    get label() {
      return t('analytics.months');
    },
    start: () => undefined,
  },
  {
    value: 'week',
    get label() {
      return t('analytics.weeks');
    },
    start: () => daysAgo(7 * 11),
  },
  {
    value: 'day',
    get label() {
      return t('analytics.days');
    },
    start: () => daysAgo(29),
  },
];

const MOVEMENTS: ReadonlyArray<{ kind: MrrMovementKind; units(p: MrrPeriod): number }> = [
  { kind: 'new', units: (p) => p.movements.newUnits },
  { kind: 'expansion', units: (p) => p.movements.expansionUnits },
  { kind: 'reactivation', units: (p) => p.movements.reactivationUnits },
  { kind: 'contraction', units: (p) => p.movements.contractionUnits },
  { kind: 'churned', units: (p) => p.movements.churnedUnits },
];

export const KINDS: ReadonlyArray<{ kind: MrrMovementKind; label: string; units(p: MrrPeriod): number }> = MOVEMENTS.map((k) => ({
  ...k,
  // In the page's language when read, never the API's code.
  get label() {
    return t(`analytics.${k.kind}`);
  },
}));

export const kindLabel = (kind: MrrMovementKind): string => KINDS.find((k) => k.kind === kind)?.label ?? t('analytics.other');


/** A period as a person names it: "Nov 2026", "Week of 23 Nov 2026", "29 Nov 2026". */
export function periodName(period: { start: string }, interval: Interval): string {
  if (interval === 'month') return new Intl.DateTimeFormat(intlLocale(), { month: 'short', year: 'numeric', timeZone: 'UTC' }).format(new Date(`${period.start}T00:00:00Z`));
  return interval === 'week' ? t('analytics.weekOf', { day: day(period.start) }) : day(period.start);
}


/** A rate in basis points as a percentage; null (no denominator yet) in words. */
export function rate(bp: number | null | undefined): string {
  return bp === null || bp === undefined ? t('analytics.notEnough') : new Intl.NumberFormat(intlLocale(), { style: 'percent', maximumFractionDigits: 1 }).format(bp / 10_000);
}

/** The calendar date `days` days before today (UTC), as YYYY-MM-DD. */
export function daysAgo(days: number): string {
  return new Date(Date.now() - days * 86_400_000).toISOString().slice(0, 10);
}

/** The last day of a period (the API's `end` is the day after it). */
export function lastDayOf(period: { end: string }): string {
  return new Date(Date.parse(`${period.end}T00:00:00Z`) - 86_400_000).toISOString().slice(0, 10);
}
