import { describe, expect, it } from 'vitest';
import { lineAmounts, rateTotals, share } from './amounts.compute.js';

describe('share', () => {
  it('adds up to the total whatever the rounding', () => {
    expect(share(100, [1, 1, 1])).toEqual([33, 34, 33]);
    expect(share(990, [4900, 5000, 7707])).toEqual([276, 281, 433]);
    expect(share(0, [5, 5])).toEqual([0, 0]);
    expect(share(7, [0, 0])).toEqual([0, 0]);
  });

  it('takes negative weights (a credited line) and keeps the sum', () => {
    const parts = share(-50, [-258, 1032, 7707]);
    expect(parts.reduce((a, b) => a + b, 0)).toBe(-50);
    expect(parts[0]).toBeGreaterThan(0);
  });
});

describe('lineAmounts', () => {
  it('shares the discount over the lines that cost something, and the tax over all, exclusive', () => {
    const lines = lineAmounts({ lineAmounts: [10000, -2000, 3000], discountMinor: 1300, taxMinor: 1940, taxRateBp: 2000, taxBehavior: 'EXCLUSIVE' });
    expect(lines.map((l) => l.discountMinor)).toEqual([1000, 0, 300]);
    expect(lines.map((l) => l.netMinor)).toEqual([9000, -2000, 2700]);
    expect(lines.reduce((a, l) => a + l.taxMinor, 0)).toBe(1940);
    expect(rateTotals(lines.map((l) => ({ ...l, taxRateBp: 2000 })))).toEqual([{ taxRateBp: 2000, netMinor: 9700, taxMinor: 1940 }]);
  });

  it('takes the tax out of inclusive amounts', () => {
    const lines = lineAmounts({ lineAmounts: [1190, 2380], discountMinor: 0, taxMinor: 570, taxRateBp: 1900, taxBehavior: 'INCLUSIVE' });
    expect(lines).toEqual([
      { discountMinor: 0, netMinor: 1000, taxMinor: 190 },
      { discountMinor: 0, netMinor: 2000, taxMinor: 380 },
    ]);
  });
});
