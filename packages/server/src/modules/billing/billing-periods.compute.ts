/**
 * Billing periods: how long each charge period lasts and how the reference
 * names it on a subscription. All arithmetic is in UTC.
 */

import { DAY_MS } from '../../lib/time.js';

const DAYS: Record<string, number> = { DAILY: 1, WEEKLY: 7, TWENTY_EIGHT_DAYS: 28 };
const MONTHS: Record<string, number> = { MONTHLY: 1, QUARTERLY: 3, THREE_MONTHS: 3, SIX_MONTHS: 6, YEARLY: 12 };

const RECURRENCE: Record<string, { recurrence: string; recurrenceUnit: number | null; recurrenceType: string | null }> = {
  ONE_TIME: { recurrence: '', recurrenceUnit: null, recurrenceType: null },
  DAILY: { recurrence: 'day', recurrenceUnit: 1, recurrenceType: 'DAY' },
  WEEKLY: { recurrence: 'week', recurrenceUnit: 1, recurrenceType: 'WEEK' },
  TWENTY_EIGHT_DAYS: { recurrence: '28 days', recurrenceUnit: 28, recurrenceType: 'DAY' },
  MONTHLY: { recurrence: 'month', recurrenceUnit: 1, recurrenceType: 'MONTH' },
  QUARTERLY: { recurrence: '3 months', recurrenceUnit: 3, recurrenceType: 'MONTH' },
  THREE_MONTHS: { recurrence: '3 months', recurrenceUnit: 3, recurrenceType: 'MONTH' },
  SIX_MONTHS: { recurrence: '6 months', recurrenceUnit: 6, recurrenceType: 'MONTH' },
  YEARLY: { recurrence: 'year', recurrenceUnit: 1, recurrenceType: 'YEAR' },
};

/** Every charge period Billow knows, ONE_TIME included. */
export const CHARGE_PERIODS: readonly string[] = Object.keys(RECURRENCE);

/** The number of days in a month (0-based month, as Date counts them). */
function daysInMonth(year: number, month: number): number {
  const probe = new Date(0);
  probe.setUTCFullYear(year, month + 1, 0); // day 0 of the next month: the last day of this one
  return probe.getUTCDate();
}

/** Calendar months later, on the same day of the month, or the month's last day when it has fewer days. */
function addMonths(start: Date, months: number): Date {
  const index = start.getUTCFullYear() * 12 + start.getUTCMonth() + months;
  const year = Math.floor(index / 12);
  const month = index - year * 12;
  const result = new Date(start.getTime()); // keeps the time of day
  result.setUTCFullYear(year, month, Math.min(start.getUTCDate(), daysInMonth(year, month)));
  return result;
}

/**
 * The end of `count` periods (default 1) that begin at `start`. Month-based
 * periods are anchored on the start's day of the month and clamped to the last
 * day of shorter months: Jan 31 + 1 month = Feb 28 (Feb 29 in leap years), and
 * Jan 31 + 2 months = Mar 31. To keep that anchor across renewals, compute the
 * n-th period end as addPeriod(anchor, period, n), not by chaining. A negative
 * count goes back in time. ONE_TIME has no period and throws.
 */
export function addPeriod(start: Date, chargePeriod: string, count = 1): Date {
  if (!(start instanceof Date) || Number.isNaN(start.getTime())) throw new RangeError('addPeriod needs a valid date');
  if (!Number.isSafeInteger(count)) throw new RangeError(`the number of periods must be an integer, got ${count}`);
  const days = DAYS[chargePeriod];
  if (days !== undefined) return new Date(start.getTime() + days * count * DAY_MS);
  const months = MONTHS[chargePeriod];
  if (months !== undefined) return addMonths(start, months * count);
  if (chargePeriod === 'ONE_TIME') throw new RangeError('a ONE_TIME charge has no billing period');
  throw new RangeError(`unknown charge period "${chargePeriod}"`);
}

/** True for the periods that renew; false for ONE_TIME and for names it does not know. */
export function isRecurring(chargePeriod: string): boolean {
  return chargePeriod in DAYS || chargePeriod in MONTHS;
}

/** The reference's subscription fields for a charge period: MONTHLY -> month, 1, MONTH. */
export function recurrenceOf(chargePeriod: string): { recurrence: string; recurrenceUnit: number | null; recurrenceType: string | null } {
  const found = RECURRENCE[chargePeriod];
  if (!found) throw new RangeError(`unknown charge period "${chargePeriod}"`);
  return { ...found };
}

/** "1 month", "3 months", "28 days", as the reference writes a recurrence in license subscriptions and webhooks; null for ONE_TIME. */
export function recurrenceText(unit: number | null, type: string | null): string | null {
  if (unit === null || type === null) return null;
  const word = type.toLowerCase();
  return `${unit} ${unit === 1 ? word : `${word}s`}`;
}
