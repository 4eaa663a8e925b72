/**
 * Monthly recurring revenue (decision 0080), pure: each subscription's recurring amount for
 * its period, after its recurring discount and before tax, normalised to a month and summed
 * per currency exactly, then rounded once.
 */
import type { StoredPrice } from '../catalog/prices/prices.compute.js';
import { PricingError, quotePurchase } from '../billing/pricing.compute.js';
import { partsOfAMonth, partsToMinor } from '../billing/month-parts.compute.js';
import type { Discount } from '../billing/types.js';

/** What one subscription renews at: the price it renews on, its committed quantities, its discount, its tax rate. */
export interface RecurringTerms {
  chargePeriod: string;
  price: StoredPrice;
  quantities: Record<string, number>;
  discount: Discount | null;
  taxRateBp: number;
  /** The pay-as-you-go quantity of each feature its last closed period used, priced in arrears; none when absent. */
  usage?: Record<string, number>;
}

/**
 * The recurring amount of one period, after the discount and before tax, in minor units:
 * the renewal's quote, with the usage of the last closed period when it is given (Home's MRR
 * gives none: decision 0080).
 * Null when it cannot be priced (the renewal would fail too) or is not recurring.
 */
export function recurringNetMinor(terms: RecurringTerms): number | null {
  if (partsOfAMonth(terms.chargePeriod) === undefined || terms.price.priceType === 'FREE') return null;
  try {
    const quote = quotePurchase({
      price: terms.price,
      chargePeriod: terms.chargePeriod,
      quantities: terms.quantities,
      ...(terms.discount ? { discount: terms.discount } : {}),
      taxRateBp: terms.taxRateBp,
      ...(terms.usage ? { arrears: terms.usage } : {}),
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
    const parts = partsOfAMonth(item.chargePeriod);
    if (parts === undefined || item.netMinor <= 0) continue;
    const sum = sums.get(item.currency) ?? { parts: 0n, subscriptions: 0 };
    const count = item.subscriptions ?? 1;
    sum.parts += BigInt(item.netMinor) * parts * BigInt(count);
    sum.subscriptions += count;
    sums.set(item.currency, sum);
  }
  return [...sums.entries()]
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([currency, sum]) => ({ currency, amountUnits: partsToMinor(sum.parts), subscriptions: sum.subscriptions }));
}
