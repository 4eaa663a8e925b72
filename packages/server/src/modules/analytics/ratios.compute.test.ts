import { describe, expect, it } from 'vitest';
import { basisPoints, convertParts, periodRatios } from './ratios.compute.js';
import { noMovements } from './movements.compute.js';
import type { PeriodFigures } from './series.compute.js';

const month = (minor: number) => BigInt(minor) * 336n;

function figures(endMinor: number, sums: Partial<Record<keyof ReturnType<typeof noMovements>, number>>, customers: PeriodFigures['customers']): PeriodFigures {
  const exact = { ...noMovements(), ...Object.fromEntries(Object.entries(sums).map(([kind, minor]) => [kind, month(minor)])) };
  return { label: 'x', currency: 'USD', startMinor: 0, endMinor, movements: { new: 0, expansion: 0, reactivation: 0, contraction: 0, churned: 0 }, endParts: month(endMinor), sums: exact, customers };
}

describe('periodRatios', () => {
  it('gives the worked month of docs/analytics.md', () => {
    const march = figures(104_000, { new: 5000, expansion: 5000, reactivation: 6000, contraction: -2000, churned: -10_000 }, { start: 10, end: 11, new: 1, reactivated: 1, churned: 1 });
    expect(periodRatios(march)).toEqual({
      customerChurnBp: 1000,
      revenueChurnBp: 1200,
      netRevenueRetentionBp: 9300,
      arpuMinor: 9455,
      // From the exact ARPU (94.5454…), not from $94.55: $945.45.
      lifetimeValueMinor: 94_545,
    });
  });

  it('says nothing rather than 0 % or infinity when a denominator is 0', () => {
    const first = figures(5000, { new: 5000 }, { start: 0, end: 1, new: 1, reactivated: 0, churned: 0 });
    expect(periodRatios(first)).toEqual({ customerChurnBp: null, revenueChurnBp: null, netRevenueRetentionBp: null, arpuMinor: 5000, lifetimeValueMinor: null });
    expect(basisPoints(1n, 3n)).toBe(3333);
  });
});

describe('convertParts', () => {
  it('converts the exact monthly amount and rounds once', () => {
    expect(convertParts(month(50_000), { from: 'EUR', to: 'USD', micros: 1_080_000n }, 2, 2)).toBe(54_000);
    // Yen have no minor digits: €1.00 at 160.5 JPY is ¥161 (160.5 rounded half up).
    expect(convertParts(month(100), { from: 'EUR', to: 'JPY', micros: 160_500_000n }, 2, 0)).toBe(161);
    expect(convertParts(month(1000), { from: 'JPY', to: 'USD', micros: 6_250n }, 0, 2)).toBe(625);
  });
});
