import { describe, expect, it } from 'vitest';
import { monthlyParts, partsOfAMonth, partsToMinor } from './month-parts.compute.js';

describe('month parts', () => {
  it('normalises every recurring period to a month without rounding', () => {
    // A year of 12 months, 52 weeks, 365 days: 336ths make each of them whole.
    expect(partsToMinor(monthlyParts(1200, 'YEARLY')!)).toBe(100);
    expect(partsToMinor(monthlyParts(1200, 'WEEKLY')!)).toBe(5200);
    expect(partsToMinor(monthlyParts(1200, 'DAILY')!)).toBe(36500);
    expect(partsToMinor(monthlyParts(2800, 'TWENTY_EIGHT_DAYS')!)).toBe(3042);
    expect(partsToMinor(monthlyParts(300, 'QUARTERLY')!)).toBe(100);
    expect(monthlyParts(100, 'ONE_TIME')).toBeNull();
    expect(partsOfAMonth('MONTHLY')).toBe(336n);
  });

  it('sums before rounding: three yearly $10.00 make $2.50 a month, not $2.49 (docs/analytics.md)', () => {
    const each = monthlyParts(1000, 'YEARLY')!;
    expect(partsToMinor(each)).toBe(83);
    expect(partsToMinor(3n * each)).toBe(250);
  });
});
