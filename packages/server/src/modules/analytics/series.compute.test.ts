import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { mrrSeries, type CustomerMrr, type Period } from './series.compute.js';
import { MOVEMENT_KINDS } from './movements.compute.js';

const month = (minor: number) => BigInt(minor) * 336n;
const at = (day: string) => new Date(`${day}T12:00:00Z`);
const change = (customerId: string, day: string, minor: number, currency = 'USD'): CustomerMrr => ({ customerId, currency, at: at(day), parts: month(minor) });
const MARCH: Period = { label: '2026-03', start: new Date('2026-03-01T00:00:00Z'), end: new Date('2026-04-01T00:00:00Z') };

/** The month of docs/analytics.md: ten customers at $100.00, then K, A, B, C and D in March. */
function workedMonth(): CustomerMrr[] {
  const ten = 'ABCEFGHIJL'.split('').map((c) => change(c, '2026-02-01', 10_000));
  return [
    ...ten,
    change('D', '2026-01-05', 6000),
    change('D', '2026-01-20', 0),
    change('K', '2026-03-03', 5000),
    change('A', '2026-03-10', 15_000),
    change('B', '2026-03-12', 8000),
    change('C', '2026-03-20', 0),
    change('D', '2026-03-25', 6000),
  ];
}

describe('mrrSeries', () => {
  it('gives the worked month of docs/analytics.md', () => {
    const [march] = mrrSeries(workedMonth(), [MARCH]);
    expect(march).toMatchObject({
      label: '2026-03',
      currency: 'USD',
      startMinor: 100_000,
      endMinor: 104_000,
      movements: { new: 5000, expansion: 5000, reactivation: 6000, contraction: -2000, churned: -10_000 },
      customers: { start: 10, end: 11, new: 1, reactivated: 1, churned: 1 },
    });
  });

  it('keeps each currency apart and counts a change before the first period as the start', () => {
    const figures = mrrSeries([change('A', '2026-02-01', 1000, 'EUR'), change('A', '2026-03-02', 3000, 'USD'), change('B', '2026-04-02', 500, 'EUR')], [MARCH]);
    expect(figures.map((f) => [f.currency, f.startMinor, f.endMinor, f.customers.new])).toEqual([
      ['EUR', 1000, 1000, 0],
      ['USD', 0, 3000, 1],
    ]);
  });

  it('always: the rounded movements add up to the rounded change, and the exact ones to the exact change', () => {
    const customers = ['a', 'b', 'c', 'd', 'e'];
    const periods: Period[] = [0, 1, 2, 3].map((i) => ({ label: `p${i}`, start: new Date(Date.UTC(2026, i, 1)), end: new Date(Date.UTC(2026, i + 1, 1)) }));
    const history = fc.array(
      fc.record({
        customerId: fc.constantFrom(...customers),
        currency: fc.constantFrom('USD', 'EUR'),
        at: fc.date({ min: new Date(Date.UTC(2025, 11, 1)), max: new Date(Date.UTC(2026, 4, 15)), noInvalidDate: true }),
        parts: fc.oneof(fc.constant(0n), fc.bigInt({ min: 1n, max: 10n ** 9n })),
      }),
      { maxLength: 60 },
    );
    fc.assert(
      fc.property(history, (changes) => {
        const figures = mrrSeries(changes, periods);
        const byCurrency = new Map<string, bigint>();
        for (const f of figures) {
          const rounded = MOVEMENT_KINDS.reduce((sum, kind) => sum + f.movements[kind], 0);
          expect(rounded).toBe(f.endMinor - f.startMinor);
          const exact = MOVEMENT_KINDS.reduce((sum, kind) => sum + f.sums[kind], 0n);
          const previous = byCurrency.get(f.currency);
          if (previous !== undefined) expect(f.endParts - exact).toBe(previous);
          byCurrency.set(f.currency, f.endParts);
          for (const kind of MOVEMENT_KINDS) expect(Math.abs(f.movements[kind] - Number(f.sums[kind]) / 336)).toBeLessThanOrEqual(1);
          expect(f.customers.end).toBe(f.customers.start + f.customers.new + f.customers.reactivated - f.customers.churned);
        }
      }),
      { numRuns: 300 },
    );
  });
});
