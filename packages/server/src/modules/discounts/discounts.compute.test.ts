import { describe, expect, it } from 'vitest';
import { discountAmountMinor, discountStatus, percentToBasisPoints, renewalCyclesLeft, type DiscountTerms } from './discounts.compute.js';

const percent = (basisPoints: number): DiscountTerms => ({ discountType: 'PERCENTAGE', percentOffBasisPoints: basisPoints, amountsOffMinor: {} });
const fixed = (amounts: Record<string, number>): DiscountTerms => ({ discountType: 'FIXED_AMOUNT', percentOffBasisPoints: null, amountsOffMinor: amounts });

describe('discountAmountMinor', () => {
  it('takes a percentage, rounded half up to the minor unit', () => {
    expect(discountAmountMinor(percent(1000), 1999, 'USD')).toBe(200); // 199.9 -> 200
    expect(discountAmountMinor(percent(1250), 1000, 'USD')).toBe(125);
    expect(discountAmountMinor(percent(5000), 1, 'USD')).toBe(1); // 0.5 -> 1 (half up)
    expect(discountAmountMinor(percent(4999), 1, 'USD')).toBe(0); // 0.4999 -> 0
    expect(discountAmountMinor(percent(1), 5000, 'USD')).toBe(1); // 0.01 % of 50.00 = 0.5 cent -> 1
    expect(discountAmountMinor(percent(1), 4999, 'USD')).toBe(0);
    expect(discountAmountMinor(percent(3333), 999, 'JPY')).toBe(333); // 332.9667 -> 333
    expect(discountAmountMinor(percent(1500), 0, 'USD')).toBe(0);
  });

  it('takes all of the amount at 100 %, never more', () => {
    expect(discountAmountMinor(percent(10000), 1999, 'USD')).toBe(1999);
    expect(discountAmountMinor(percent(10000), 10 ** 15, 'USD')).toBe(10 ** 15);
  });

  it('stays exact for amounts whose product with the basis points passes 2^53', () => {
    // 999999999999999 × 3333 / 10000 = 333299999999999.6667 -> ...9.6667 rounds up
    expect(discountAmountMinor(percent(3333), 999_999_999_999_999, 'USD')).toBe(333_300_000_000_000);
  });

  it('takes a fixed amount in the currency, capped at the amount', () => {
    const terms = fixed({ USD: 500, JPY: 700 });
    expect(discountAmountMinor(terms, 1999, 'USD')).toBe(500);
    expect(discountAmountMinor(terms, 300, 'USD')).toBe(300);
    expect(discountAmountMinor(terms, 1000, 'jpy')).toBe(700);
    expect(discountAmountMinor(terms, 1000, 'EUR')).toBe(0);
  });

  it('refuses an amount that is not a whole, non-negative number of minor units', () => {
    expect(() => discountAmountMinor(percent(100), -1, 'USD')).toThrow(RangeError);
    expect(() => discountAmountMinor(percent(100), 1.5, 'USD')).toThrow(RangeError);
    expect(() => discountAmountMinor(fixed({ USD: 1 }), Number.NaN, 'USD')).toThrow(RangeError);
  });
});

describe('percentToBasisPoints', () => {
  it('reads up to two decimals exactly, through the decimal text', () => {
    expect(percentToBasisPoints(12.5)).toBe(1250);
    expect(percentToBasisPoints(0.29)).toBe(29);
    expect(percentToBasisPoints(100)).toBe(10000);
    expect(percentToBasisPoints(0.01)).toBe(1);
    expect(percentToBasisPoints(33.33)).toBe(3333);
  });

  it('refuses more than two decimals', () => {
    expect(percentToBasisPoints(12.345)).toBeNull();
    expect(percentToBasisPoints(0.001)).toBeNull();
    expect(percentToBasisPoints(1e-7)).toBeNull();
  });
});

describe('renewalCyclesLeft', () => {
  it('counts the first payment as a cycle', () => {
    expect(renewalCyclesLeft('ONCE', null, true)).toBe(0);
    expect(renewalCyclesLeft('REPEATING', 3, true)).toBe(2);
    expect(renewalCyclesLeft('REPEATING', 1, true)).toBe(0);
    expect(renewalCyclesLeft('FOREVER', null, true)).toBeNull();
  });

  it('leaves every cycle to the renewals when the first payment was not discounted', () => {
    expect(renewalCyclesLeft('ONCE', null, false)).toBe(1);
    expect(renewalCyclesLeft('REPEATING', 3, false)).toBe(3);
    expect(renewalCyclesLeft('FOREVER', null, false)).toBeNull();
  });
});

describe('discountStatus', () => {
  const now = new Date('2026-11-26T12:00:00Z');
  const base = { archived_at: null, expires_at: null, max_redemptions: null, times_redeemed: 0 };
  it('is derived: archived, then expired by time or by redemptions, else active', () => {
    expect(discountStatus(base, now)).toBe('ACTIVE');
    expect(discountStatus({ ...base, archived_at: now, expires_at: new Date(0) }, now)).toBe('ARCHIVED');
    expect(discountStatus({ ...base, expires_at: now }, now)).toBe('EXPIRED');
    expect(discountStatus({ ...base, expires_at: new Date(now.getTime() + 1) }, now)).toBe('ACTIVE');
    expect(discountStatus({ ...base, max_redemptions: 2, times_redeemed: 2 }, now)).toBe('EXPIRED');
    expect(discountStatus({ ...base, max_redemptions: 2, times_redeemed: 1 }, now)).toBe('ACTIVE');
  });
});
