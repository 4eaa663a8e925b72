import { describe, expect, it } from 'vitest';
import { cashDifferences, cashPeriods, dayGrid, recoveryRateBp, type CashDay } from './cash.compute.js';
import { datePeriods } from './periods.compute.js';

const day = (date: string, figures: Partial<CashDay> = {}): CashDay => ({
  dimension: 'all',
  segment: '',
  currency: 'USD',
  day: date,
  collected_count: 0, collected_minor: 0, refunded_count: 0, refunded_minor: 0, failed_count: 0, failed_minor: 0,
  recovered_count: 0, recovered_minor: 0, lost_count: 0, lost_minor: 0,
  ...figures,
});

describe('the cash figures (docs/analytics.md, "Cash")', () => {
  it("gives the docs' May its 62.50 % recovery rate, and no rate without a failure", () => {
    expect(recoveryRateBp(50_000, 80_000)).toBe(6250);
    expect(recoveryRateBp(1, 3)).toBe(3333);
    expect(recoveryRateBp(2, 3)).toBe(6667);
    expect(recoveryRateBp(0, 0)).toBeNull();
  });

  it('sums the days of each period, per currency, with every period present', () => {
    const periods = datePeriods('2027-04-01', '2027-06-30', 'month');
    const days = [
      day('2027-04-30', { collected_count: 1, collected_minor: 1000 }),
      day('2027-05-01', { failed_count: 8, failed_minor: 80_000, recovered_count: 5, recovered_minor: 50_000, lost_count: 3, lost_minor: 30_000 }),
      { ...day('2027-05-02', { refunded_count: 1, refunded_minor: 400 }), currency: 'EUR' },
      day('2027-05-31', { collected_count: 2, collected_minor: 2500, refunded_count: 1, refunded_minor: 500 }),
    ];
    const [eur, usd] = cashPeriods(periods, days);
    expect(eur!.currency).toBe('EUR');
    expect(eur!.periods.map((p) => p.netUnits)).toEqual([0, -400, 0]);
    expect(usd!.periods.map((p) => [p.period, p.collected.amountUnits, p.refunded.amountUnits, p.netUnits, p.recoveryRateBp])).toEqual([
      ['2027-04', 1000, 0, 1000, null],
      ['2027-05', 2500, 500, 2000, 6250],
      ['2027-06', 0, 0, 0, null],
    ]);
    expect(usd!.periods[1]).toMatchObject({ failed: { count: 8, amountUnits: 80_000 }, recovered: { count: 5 }, lost: { count: 3, amountUnits: 30_000 } });
  });

  it("cuts the seller's days at local midnight, a day of 23 hours too", () => {
    const grid = dayGrid('2027-03-27', '2027-03-28', 'Europe/Berlin');
    expect(grid.days).toEqual(['2027-03-27', '2027-03-28']);
    expect(grid.bounds.map((b) => b.toISOString())).toEqual(['2027-03-26T23:00:00.000Z', '2027-03-27T23:00:00.000Z', '2027-03-28T22:00:00.000Z']);
  });

  it('tells where kept and rebuilt days differ, a day of zeros being no day', () => {
    expect(cashDifferences([day('2027-05-01', { collected_count: 1, collected_minor: 100 }), day('2027-05-02')], [day('2027-05-01', { collected_count: 1, collected_minor: 100 })])).toEqual([]);
    const differences = cashDifferences([day('2027-05-01', { collected_count: 1, collected_minor: 101 })], [day('2027-05-01', { collected_count: 1, collected_minor: 100 }), day('2027-05-03', { lost_count: 1, lost_minor: 7 })]);
    expect(differences).toHaveLength(2);
    expect(differences[0]).toMatch(/^cash of 2027-05-01 USD: kept collected_count 1, collected_minor 101, .*; rebuilt collected_count 1, collected_minor 100,/);
    expect(differences[1]).toMatch(/^cash of 2027-05-03 USD: kept nothing; rebuilt .*lost_count 1, lost_minor 7$/);
    // A plan's day is a day of its own: the whole business's agreeing says nothing of it.
    const pro = (figures: Partial<CashDay>) => ({ ...day('2027-05-01', figures), dimension: 'plan' as const, segment: 'pro' });
    const both = [day('2027-05-01', { collected_count: 1, collected_minor: 100 })];
    expect(cashDifferences([...both, pro({ collected_count: 1, collected_minor: 100 })], [...both, pro({ collected_count: 1, collected_minor: 99 })])).toEqual([
      expect.stringMatching(/^cash of 2027-05-01 USD of plan pro: kept collected_count 1, collected_minor 100, .*; rebuilt collected_count 1, collected_minor 99,/),
    ]);
  });
});
