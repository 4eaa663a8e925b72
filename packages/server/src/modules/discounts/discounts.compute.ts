import type { DiscountDuration, DiscountType } from '../../db/schema.js';
import { AmountError, toMinor } from '../../lib/money.js';

/** What a discount takes off, as the checkout and the billing engine apply it. */
export interface DiscountTerms {
  discountType: DiscountType;
  /** PERCENTAGE: basis points, 1..10000 (1250 is 12.5 %); null otherwise. */
  percentOffBasisPoints: number | null;
  /** FIXED_AMOUNT: minor units per ISO 4217 currency ({ USD: 500 } is 5.00 USD off). */
  amountsOffMinor: Readonly<Record<string, number>>;
}

export type DiscountStatus = 'ACTIVE' | 'EXPIRED' | 'ARCHIVED';

/**
 * The amount a discount takes off `amountMinor` (minor units of `currency`), never
 * more than the amount itself. A percentage is rounded half up to the minor unit;
 * a fixed amount is capped at the amount; a fixed amount with nothing in this
 * currency takes nothing off (resolveDiscountCode refuses such a code first).
 */
export function discountAmountMinor(discount: DiscountTerms, amountMinor: number, currency: string): number {
  if (!Number.isSafeInteger(amountMinor) || amountMinor < 0) {
    throw new RangeError(`amountMinor must be a whole number of minor units, at least 0 (got ${amountMinor})`);
  }
  if (discount.discountType === 'PERCENTAGE') {
    const basisPoints = discount.percentOffBasisPoints ?? 0;
    // amount × bp can pass 2^53: exact in bigint. Half up: (a·bp + 5000) div 10000.
    const off = Number((BigInt(amountMinor) * BigInt(basisPoints) + 5000n) / 10000n);
    return Math.min(off, amountMinor);
  }
  const off = discount.amountsOffMinor[currency.toUpperCase()] ?? 0;
  return Math.min(off, amountMinor);
}

/** ARCHIVED once archived; EXPIRED past its expiry or with every redemption used; else ACTIVE. */
export function discountStatus(
  row: { archived_at: Date | null; expires_at: Date | null; max_redemptions: number | null; times_redeemed: number },
  now: Date,
): DiscountStatus {
  if (row.archived_at) return 'ARCHIVED';
  if (row.expires_at && row.expires_at.getTime() <= now.getTime()) return 'EXPIRED';
  if (row.max_redemptions !== null && row.times_redeemed >= row.max_redemptions) return 'EXPIRED';
  return 'ACTIVE';
}

/**
 * How many renewals of a subscription a discount still covers once it has been
 * redeemed for it; null: every renewal. The first payment is one cycle: ONCE covers
 * it alone, REPEATING N covers it and N − 1 renewals. When the first payment was
 * not discounted (a free trial: nothing charged at the start), every cycle is left
 * for the renewals, the first of which is then the first payment.
 */
export function renewalCyclesLeft(
  duration: DiscountDuration,
  durationInCycles: number | null,
  appliedToFirstPayment: boolean,
): number | null {
  if (duration === 'FOREVER') return null;
  const cycles = duration === 'ONCE' ? 1 : (durationInCycles ?? 1);
  return appliedToFirstPayment ? cycles - 1 : cycles;
}

/** A percentage of the wire (12.5) in basis points (1250), or null when it has more than two decimals. */
export function percentToBasisPoints(percent: number): number | null {
  try {
    // Through the decimal text, as money is: 0.29 is 29, never 28.999….
    return toMinor(percent, 2);
  } catch (error) {
    if (error instanceof AmountError) return null;
    throw error;
  }
}

/** A discount as a purchase's quote takes it: a percentage, or the fixed amounts per currency. */
export function quoteDiscountOf(terms: DiscountTerms): { percentOffBp?: number; amountsOffMinor?: Readonly<Record<string, number>> } {
  return terms.discountType === 'PERCENTAGE' ? { percentOffBp: terms.percentOffBasisPoints ?? 0 } : { amountsOffMinor: terms.amountsOffMinor };
}
