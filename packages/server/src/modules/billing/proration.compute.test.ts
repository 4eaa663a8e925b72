import { describe, expect, it } from 'vitest';
import { prorate } from './proration.compute.js';

// April 2024: 30 days.
const START = new Date('2024-04-01T00:00:00.000Z');
const END = new Date('2024-05-01T00:00:00.000Z');
const april = (oldAmountMinor: number, newAmountMinor: number, at: string) =>
  prorate({ oldAmountMinor, newAmountMinor, periodStart: START, periodEnd: END, at: new Date(at) });

describe('prorate', () => {
  it('at the start of the period, credits all of the old price and charges all of the new one', () => {
    expect(april(10000, 20000, '2024-04-01T00:00:00.000Z')).toEqual({ creditMinor: 10000, chargeMinor: 20000, netMinor: 10000 });
  });

  it('in the middle of the period, an upgrade from 100.00 to 200.00 collects 50.00', () => {
    expect(april(10000, 20000, '2024-04-16T00:00:00.000Z')).toEqual({ creditMinor: 5000, chargeMinor: 10000, netMinor: 5000 });
  });

  it('a downgrade gives a negative net: credit for the customer', () => {
    // 20 of 30 days remain: credit 200.00 × 2/3 = 133.333 -> 133.33, charge 100.00 × 2/3 = 66.667 -> 66.67
    expect(april(20000, 10000, '2024-04-11T00:00:00.000Z')).toEqual({ creditMinor: 13333, chargeMinor: 6667, netMinor: -6666 });
  });

  it('at or after the end nothing remains', () => {
    expect(april(10000, 20000, '2024-05-01T00:00:00.000Z')).toEqual({ creditMinor: 0, chargeMinor: 0, netMinor: 0 });
    expect(april(10000, 20000, '2024-06-01T00:00:00.000Z')).toEqual({ creditMinor: 0, chargeMinor: 0, netMinor: 0 });
  });

  it('before the start the whole period remains', () => {
    expect(april(10000, 20000, '2024-03-15T00:00:00.000Z')).toEqual({ creditMinor: 10000, chargeMinor: 20000, netMinor: 10000 });
  });

  it('counts by the millisecond', () => {
    // One millisecond before the end: 10000 × 1 / 2 592 000 000 rounds to 0.
    expect(april(10000, 20000, '2024-04-30T23:59:59.999Z')).toEqual({ creditMinor: 0, chargeMinor: 0, netMinor: 0 });
    // One millisecond after the start: 2 591 999 999 / 2 592 000 000 of the amounts.
    expect(april(10 ** 12, 2 * 10 ** 12, '2024-04-01T00:00:00.001Z')).toEqual({
      creditMinor: 999_999_999_614, // 999 999 999 614.197...
      chargeMinor: 1_999_999_999_228, // 1 999 999 999 228.395...
      netMinor: 999_999_999_614,
    });
  });

  it('rounds half up on each side', () => {
    // Half the period: 1 -> 0.5 -> 1, 3 -> 1.5 -> 2
    expect(april(1, 3, '2024-04-16T00:00:00.000Z')).toEqual({ creditMinor: 1, chargeMinor: 2, netMinor: 1 });
  });

  it('prorates JPY (no decimals)', () => {
    // February 2024 has 29 days; from Feb 11, 19 remain: 1000 × 19/29 = 655.17, 3000 × 19/29 = 1965.52
    const proration = prorate({
      oldAmountMinor: 1000,
      newAmountMinor: 3000,
      periodStart: new Date('2024-02-01T00:00:00.000Z'),
      periodEnd: new Date('2024-03-01T00:00:00.000Z'),
      at: new Date('2024-02-11T00:00:00.000Z'),
    });
    expect(proration).toEqual({ creditMinor: 655, chargeMinor: 1966, netMinor: 1311 });
  });

  it('prorates a KWD downgrade (three decimals)', () => {
    // January 2025 has 31 days; from Jan 21 12:00, 10.5 remain: 9.750 × 10.5/31 = 3.302419, 4.500 × 10.5/31 = 1.524194
    const proration = prorate({
      oldAmountMinor: 9750,
      newAmountMinor: 4500,
      periodStart: new Date('2025-01-01T00:00:00.000Z'),
      periodEnd: new Date('2025-02-01T00:00:00.000Z'),
      at: new Date('2025-01-21T12:00:00.000Z'),
    });
    expect(proration).toEqual({ creditMinor: 3302, chargeMinor: 1524, netMinor: -1778 });
  });

  it('stays exact where the products pass 2^53', () => {
    // 10^15 × 1 728 000 000 ms (20 of 30 days) / 2 592 000 000 = 666 666 666 666 666.67
    expect(april(10 ** 15, 0, '2024-04-11T00:00:00.000Z')).toEqual({
      creditMinor: 666_666_666_666_667,
      chargeMinor: 0,
      netMinor: -666_666_666_666_667,
    });
  });

  it('refuses an empty period, negative amounts and invalid dates', () => {
    expect(() => prorate({ oldAmountMinor: 1, newAmountMinor: 1, periodStart: END, periodEnd: START, at: START })).toThrow(/end after/);
    expect(() => prorate({ oldAmountMinor: 1, newAmountMinor: 1, periodStart: START, periodEnd: START, at: START })).toThrow(RangeError);
    expect(() => april(-1, 1, '2024-04-02T00:00:00.000Z')).toThrow(RangeError);
    expect(() => april(1, 1, 'not a date')).toThrow(RangeError);
  });
});
