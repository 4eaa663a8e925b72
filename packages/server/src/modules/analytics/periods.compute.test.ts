import { describe, expect, it } from 'vitest';
import { datePeriods, isDate, periodCount } from './periods.compute.js';

describe('datePeriods', () => {
  it('cuts days, weeks from Monday and months, from the one holding the first date to the one holding the last', () => {
    expect(datePeriods('2026-02-27', '2026-03-01', 'day').map((p) => p.label)).toEqual(['2026-02-27', '2026-02-28', '2026-03-01']);
    // 2026-03-04 is a Wednesday: its week began on Monday the 2nd.
    expect(datePeriods('2026-03-04', '2026-03-16', 'week')).toEqual([
      { label: '2026-03-02', start: '2026-03-02', end: '2026-03-09' },
      { label: '2026-03-09', start: '2026-03-09', end: '2026-03-16' },
      { label: '2026-03-16', start: '2026-03-16', end: '2026-03-23' },
    ]);
    expect(datePeriods('2025-12-15', '2026-02-01', 'month')).toEqual([
      { label: '2025-12', start: '2025-12-01', end: '2026-01-01' },
      { label: '2026-01', start: '2026-01-01', end: '2026-02-01' },
      { label: '2026-02', start: '2026-02-01', end: '2026-03-01' },
    ]);
    for (const [first, last, interval] of [['2026-02-27', '2026-03-01', 'day'], ['2026-03-04', '2026-03-16', 'week'], ['2025-12-15', '2026-02-01', 'month']] as const) {
      expect(periodCount(first, last, interval)).toBe(datePeriods(first, last, interval).length);
    }
  });

  it('knows a date that exists from one that does not', () => {
    expect(isDate('2028-02-29')).toBe(true);
    expect(isDate('2026-02-29')).toBe(false);
    expect(isDate('2026-2-01')).toBe(false);
  });
});
