import { describe, expect, it } from 'vitest';
import type { CashPeriod } from '@billow/contract';
import { reportingCash } from './cash-reporting.compute.js';
import type { Conversion } from './conversion.compute.js';

const tally = (amountUnits: number, count = amountUnits ? 1 : 0) => ({ amountUnits, count });
const period = (collected: number, refunded: number, failed = 0, recovered = 0): CashPeriod => ({
  period: '2026-05',
  start: '2026-05-01',
  end: '2026-06-01',
  collected: tally(collected),
  refunded: tally(refunded),
  netUnits: collected - refunded,
  failed: tally(failed),
  recovered: tally(recovered),
  lost: tally(failed - recovered, failed - recovered ? 1 : 0),
  recoveryRateBp: null,
});

const conversion: Conversion = {
  to: 'USD',
  toDigits: 2,
  rates: [
    { currency: 'EUR', digits: 2, rate: { digits: 108n, scale: 2 }, origin: { source: 'seller', setAt: new Date('2026-11-01T00:00:00Z'), setBy: 'ana@example.com' } },
    { currency: 'GBP', digits: 2, rate: null, origin: { source: 'none' } },
    { currency: 'USD', digits: 2, rate: { digits: 1n, scale: 0 }, origin: { source: 'reporting' } },
  ],
};

describe('reportingCash', () => {
  it('converts each amount exactly and rounds it once, counts only the converted currencies, and leaves out those without a rate', () => {
    const [may] = reportingCash(
      [
        { currency: 'EUR', periods: [period(1001, 1, 800, 500)] },
        { currency: 'GBP', periods: [period(9999, 0)] },
        { currency: 'USD', periods: [period(100_000, 5000, 80_000, 50_000)] },
      ],
      conversion,
    );
    // €10.01 at 1.08 = $10.8108 → $10.81; €0.01 = $0.0108 → $0.01; the net €10.00 = $10.80, rounded from its own exact amount.
    expect(may).toMatchObject({
      collected: { amountUnits: 101_081, count: 2 },
      refunded: { amountUnits: 5001, count: 2 },
      netUnits: 96_080,
      failed: { amountUnits: 80_864, count: 2 },
      recovered: { amountUnits: 50_540, count: 2 },
      recoveryRateBp: 6250,
    });
  });

  it('answers nothing for no currency', () => {
    expect(reportingCash([], conversion)).toEqual([]);
  });
});
