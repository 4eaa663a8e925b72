/**
 * Monthly recurring revenue (decision 0080), pure: each subscription's recurring amount for
 * its period, after its recurring discount and before tax, normalised to a month and summed
 * per currency exactly, then rounded once.
 */
import type { StoredPrice } from '../catalog/prices/prices.compute.js';
import { PricingError, quotePurchase } from '../billing/pricing.compute.js';
import { divRoundHalfUp } from '../billing/rounding.compute.js';
import type { Discount } from '../billing/types.js';

/**
 * A month as 336ths (the least common multiple of 12, 3, 6 and 28 × 12): how many 336ths of
 * a month one period of each charge period is. A year is 12 months, 52 weeks or 365 days.
 * Yearly ÷ 12 = 28/336, quarterly ÷ 3 = 112/336, weekly × 52 ÷ 12 = 1456/336,
 * daily × 365 ÷ 12 = 10220/336, 28 days × 365 ÷ 28 ÷ 12 = 365/336.
 */
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

/** What one subscription renews at: the price it renews on, its committed quantities, its discount, its tax rate. */
export interface RecurringTerms {
  chargePeriod: string;
  price: StoredPrice;
  quantities: Record<string, number>;
  discount: Discount | null;
  taxRateBp: number;
}

/**
 * The recurring amount of one period, after the discount and before tax, in minor units:
 * the renewal's quote without usage (pay-as-you-go usage is not recurring revenue).
 * Null when it cannot be priced (the renewal would fail too) or is not recurring.
 */
export function recurringNetMinor(terms: RecurringTerms): number | null {
  if (PARTS_OF_A_MONTH[terms.chargePeriod] === undefined || terms.price.priceType === 'FREE') return null;
  try {
    const quote = quotePurchase({
      price: terms.price,
      chargePeriod: terms.chargePeriod,
      quantities: terms.quantities,
      ...(terms.discount ? { discount: terms.discount } : {}),
      taxRateBp: terms.taxRateBp,
      taxCountry: null,
      planName: '',
    });
    return quote.totalMinor - quote.taxMinor;
  } catch (error) {
    if (error instanceof PricingError) return null;
    throw error;
  }
}

export interface MrrItem {
  currency: string;
  chargePeriod: string;
  /** The recurring amount of one period, minor units. */
  netMinor: number;
  /** How many subscriptions bring it (1 unless told). */
  subscriptions?: number;
}

/**
 * MRR per currency, by currency code: every amount normalised to 336ths of a month and
 * summed exactly, then divided by 336 once, rounding half up. Amounts of 0 (free plans,
 * 100 % discounts) are not counted.
 */
export function mrrByCurrency(items: readonly MrrItem[]): { currency: string; amountUnits: number; subscriptions: number }[] {
  const sums = new Map<string, { parts: bigint; subscriptions: number }>();
  for (const item of items) {
    const parts = PARTS_OF_A_MONTH[item.chargePeriod];
    if (parts === undefined || item.netMinor <= 0) continue;
    const sum = sums.get(item.currency) ?? { parts: 0n, subscriptions: 0 };
    const count = item.subscriptions ?? 1;
    sum.parts += BigInt(item.netMinor) * parts * BigInt(count);
    sum.subscriptions += count;
    sums.set(item.currency, sum);
  }
  return [...sums.entries()]
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([currency, sum]) => ({ currency, amountUnits: Number(divRoundHalfUp(sum.parts, MONTH_PARTS)), subscriptions: sum.subscriptions }));
}
