/**
 * Recurring amounts normalised to a month, exactly: as 336ths of a month (the least common
 * multiple of 12, 3, 6 and 28 × 12), so that no period's normalisation is ever rounded.
 * A year is 12 months, 52 weeks or 365 days:
 * yearly ÷ 12 = 28/336, quarterly ÷ 3 = 112/336, weekly × 52 ÷ 12 = 1456/336,
 * daily × 365 ÷ 12 = 10220/336, 28 days × 365 ÷ 28 ÷ 12 = 365/336.
 */
import { divRoundHalfUp } from './rounding.compute.js';

export const MONTH_PARTS = 336n;

const PARTS_OF_A_MONTH: Readonly<Record<string, bigint>> = {
  DAILY: 10_220n,
  WEEKLY: 1_456n,
  TWENTY_EIGHT_DAYS: 365n,
  MONTHLY: 336n,
  QUARTERLY: 112n,
  THREE_MONTHS: 112n,
  SIX_MONTHS: 56n,
  YEARLY: 28n,
};

/** How many 336ths of a month one period of this charge period is; undefined when it does not recur. */
export function partsOfAMonth(chargePeriod: string): bigint | undefined {
  return PARTS_OF_A_MONTH[chargePeriod];
}

/** One period's amount (minor units) as a monthly amount in 336ths of a minor unit; null when it does not recur. */
export function monthlyParts(amountMinor: number, chargePeriod: string): bigint | null {
  const parts = PARTS_OF_A_MONTH[chargePeriod];
  return parts === undefined ? null : BigInt(amountMinor) * parts;
}

/** A monthly amount in 336ths back to minor units, rounded half up once. */
export function partsToMinor(parts: bigint): number {
  return Number(divRoundHalfUp(parts, MONTH_PARTS));
}
