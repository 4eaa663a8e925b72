/**
 * Usage periods of metered entitlements: which reset window an instant falls
 * in, how the reference writes `resetAt`, and what a period carries over into
 * the next. Pure; all arithmetic in UTC.
 */
import { addPeriod } from '../billing/billing-periods.compute.js';
import { DAY_MS } from '../../lib/time.js';

export const RESETS = ['NEVER', 'EVERY_DAY', 'EVERY_28_DAYS', 'EVERY_MONTH', 'EVERY_QUARTER', 'EVERY_YEAR'] as const;
export type Reset = (typeof RESETS)[number];
export type ResetTime = 'BEGINNING_OF_PERIOD' | 'SUBSCRIPTION_START';

/** A usage period: `start` inclusive, `end` exclusive; `end` null for a lifetime allowance (NEVER). */
export interface Window {
  start: Date;
  end: Date | null;
}


/** The charge period that steps a cadence forward, for billing/periods.compute's addPeriod. */
const STEP: Record<Exclude<Reset, 'NEVER'>, string> = {
  EVERY_DAY: 'DAILY',
  EVERY_28_DAYS: 'TWENTY_EIGHT_DAYS',
  EVERY_MONTH: 'MONTHLY',
  EVERY_QUARTER: 'QUARTERLY',
  EVERY_YEAR: 'YEARLY',
};
const MONTHS: Partial<Record<Reset, number>> = { EVERY_MONTH: 1, EVERY_QUARTER: 3, EVERY_YEAR: 12 };

export function isReset(value: unknown): value is Reset {
  return typeof value === 'string' && (RESETS as readonly string[]).includes(value);
}

/**
 * The period of `step` (a charge period: DAILY, MONTHLY, …) anchored at
 * `anchor` that contains `at`: anniversaries of the anchor, month-based ones
 * clamped to shorter months the way renewals are (Jan 31 → Feb 28 → Mar 31).
 * Works before the anchor too.
 */
export function anniversaryWindow(anchor: Date, step: string, at: Date): { start: Date; end: Date } {
  const t = at.getTime();
  const a = anchor.getTime();
  // A first guess, then walk: month lengths vary, so the guess can be off by one either way.
  let n: number;
  if (step === 'DAILY' || step === 'TWENTY_EIGHT_DAYS') {
    n = Math.floor((t - a) / ((step === 'DAILY' ? 1 : 28) * DAY_MS));
  } else {
    const months = step === 'MONTHLY' ? 1 : step === 'QUARTERLY' ? 3 : 12;
    const elapsed =
      (at.getUTCFullYear() - anchor.getUTCFullYear()) * 12 + (at.getUTCMonth() - anchor.getUTCMonth());
    n = Math.floor(elapsed / months);
  }
  while (addPeriod(anchor, step, n).getTime() > t) n -= 1;
  while (addPeriod(anchor, step, n + 1).getTime() <= t) n += 1;
  return { start: addPeriod(anchor, step, n), end: addPeriod(anchor, step, n + 1) };
}

/** The calendar period (UTC day, month, quarter or year) that contains `at`. */
function calendarWindow(reset: 'EVERY_DAY' | 'EVERY_MONTH' | 'EVERY_QUARTER' | 'EVERY_YEAR', at: Date): Window {
  const year = at.getUTCFullYear();
  if (reset === 'EVERY_DAY') {
    const start = new Date(Date.UTC(year, at.getUTCMonth(), at.getUTCDate()));
    return { start, end: new Date(start.getTime() + DAY_MS) };
  }
  const months = MONTHS[reset]!;
  const first = Math.floor(at.getUTCMonth() / months) * months;
  return { start: new Date(Date.UTC(year, first)), end: new Date(Date.UTC(year, first + months)) };
}

/**
 * The reset window of a cadence that contains `at`. BEGINNING_OF_PERIOD aligns
 * to UTC calendar days, months, quarters and years; EVERY_28_DAYS has no
 * calendar period and counts from the subscription start either way.
 * SUBSCRIPTION_START counts from the subscription start (its anniversaries).
 * NEVER is one window from the subscription start, without end.
 */
export function resetWindow(input: { reset: Reset; resetTime: ResetTime; subscriptionStart: Date; at: Date }): Window {
  const { reset, resetTime, subscriptionStart, at } = input;
  if (reset === 'NEVER') return { start: subscriptionStart, end: null };
  if (resetTime === 'BEGINNING_OF_PERIOD' && reset !== 'EVERY_28_DAYS') return calendarWindow(reset, at);
  return anniversaryWindow(subscriptionStart, STEP[reset], at);
}

/** The window just before `window` of the same cadence; null for NEVER. */
export function previousWindow(input: { reset: Reset; resetTime: ResetTime; subscriptionStart: Date; window: Window }): Window | null {
  if (input.reset === 'NEVER' || input.window.end === null) return null;
  return resetWindow({ ...input, at: new Date(input.window.start.getTime() - 1) });
}

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

/** `resetAt` as the reference writes it: `yyyy-MM-dd HH:mm:ss`, UTC, no zone. */
export function formatResetAt(at: Date | null): string | null {
  if (at === null) return null;
  return (
    `${at.getUTCFullYear()}-${pad(at.getUTCMonth() + 1)}-${pad(at.getUTCDate())} ` +
    `${pad(at.getUTCHours())}:${pad(at.getUTCMinutes())}:${pad(at.getUTCSeconds())}`
  );
}

/** Usage timestamps as the reference writes them: `yyyy-MM-dd HH:mm:ss.ffffff`, UTC. */
export function formatUsageTimestamp(at: Date): string {
  return `${formatResetAt(at)}.${pad(at.getUTCMilliseconds(), 3)}000`;
}

export interface RolloverTerms {
  /** Percentage (0–100) of the previous period's unused allowance carried over. */
  percentage: number;
  /** The most that is carried over; null: no cap. */
  limit: number | null;
}

/**
 * What a period carries into the next: `min(unused × percentage / 100, limit)`,
 * rounded down to a whole unit; nothing when nothing was left. Exact integer
 * arithmetic (the percentage is taken to four decimals).
 */
export function rolloverAmount(unused: number, terms: RolloverTerms): number {
  if (!(unused > 0) || !(terms.percentage > 0)) return 0;
  const basisPoints = BigInt(Math.round(Math.min(terms.percentage, 100) * 10_000));
  const carried = Number((BigInt(Math.floor(unused)) * basisPoints) / 1_000_000n);
  const cap = terms.limit === null ? Infinity : Math.max(0, Math.floor(terms.limit));
  return Math.min(carried, cap);
}
