import { describe, expect, it } from 'vitest';
import {
  anniversaryWindow,
  formatResetAt,
  formatUsageTimestamp,
  previousWindow,
  resetWindow,
  rolloverAmount,
  type Reset,
  type ResetTime,
} from './reset-periods.compute.js';

const at = (iso: string) => new Date(iso);
const span = (window: { start: Date; end: Date | null }) => [window.start.toISOString(), window.end?.toISOString() ?? null];

describe('resetWindow', () => {
  const started = at('2024-01-31T15:30:00.000Z');
  it.each<[Reset, ResetTime, string, string, string | null]>([
    ['EVERY_DAY', 'BEGINNING_OF_PERIOD', '2024-02-29T23:59:59.999Z', '2024-02-29T00:00:00.000Z', '2024-03-01T00:00:00.000Z'],
    ['EVERY_MONTH', 'BEGINNING_OF_PERIOD', '2024-02-10T00:00:00.000Z', '2024-02-01T00:00:00.000Z', '2024-03-01T00:00:00.000Z'],
    ['EVERY_MONTH', 'BEGINNING_OF_PERIOD', '2024-12-31T23:00:00.000Z', '2024-12-01T00:00:00.000Z', '2025-01-01T00:00:00.000Z'],
    ['EVERY_QUARTER', 'BEGINNING_OF_PERIOD', '2024-05-20T00:00:00.000Z', '2024-04-01T00:00:00.000Z', '2024-07-01T00:00:00.000Z'],
    ['EVERY_QUARTER', 'BEGINNING_OF_PERIOD', '2024-12-20T00:00:00.000Z', '2024-10-01T00:00:00.000Z', '2025-01-01T00:00:00.000Z'],
    ['EVERY_YEAR', 'BEGINNING_OF_PERIOD', '2024-07-04T00:00:00.000Z', '2024-01-01T00:00:00.000Z', '2025-01-01T00:00:00.000Z'],
    // No calendar period is 28 days long: counted from the subscription start either way.
    ['EVERY_28_DAYS', 'BEGINNING_OF_PERIOD', '2024-03-01T00:00:00.000Z', '2024-02-28T15:30:00.000Z', '2024-03-27T15:30:00.000Z'],
    ['EVERY_28_DAYS', 'SUBSCRIPTION_START', '2024-02-28T15:29:59.999Z', '2024-01-31T15:30:00.000Z', '2024-02-28T15:30:00.000Z'],
    ['EVERY_DAY', 'SUBSCRIPTION_START', '2024-02-10T08:00:00.000Z', '2024-02-09T15:30:00.000Z', '2024-02-10T15:30:00.000Z'],
    // Anniversaries clamp to shorter months and come back to the 31st.
    ['EVERY_MONTH', 'SUBSCRIPTION_START', '2024-02-29T15:30:00.000Z', '2024-02-29T15:30:00.000Z', '2024-03-31T15:30:00.000Z'],
    ['EVERY_MONTH', 'SUBSCRIPTION_START', '2024-02-29T15:29:59.999Z', '2024-01-31T15:30:00.000Z', '2024-02-29T15:30:00.000Z'],
    ['EVERY_MONTH', 'SUBSCRIPTION_START', '2024-04-30T16:00:00.000Z', '2024-04-30T15:30:00.000Z', '2024-05-31T15:30:00.000Z'],
    ['EVERY_QUARTER', 'SUBSCRIPTION_START', '2024-06-01T00:00:00.000Z', '2024-04-30T15:30:00.000Z', '2024-07-31T15:30:00.000Z'],
    ['EVERY_YEAR', 'SUBSCRIPTION_START', '2026-01-31T15:30:00.000Z', '2026-01-31T15:30:00.000Z', '2027-01-31T15:30:00.000Z'],
    ['NEVER', 'BEGINNING_OF_PERIOD', '2030-01-01T00:00:00.000Z', '2024-01-31T15:30:00.000Z', null],
  ])('%s from the %s at %s is [%s, %s)', (reset, resetTime, now, start, end) => {
    expect(span(resetWindow({ reset, resetTime, subscriptionStart: started, at: at(now) }))).toEqual([start, end]);
  });

  it('finds the anniversary window far from the anchor, before it too', () => {
    const anchor = at('2020-08-31T00:00:00.000Z');
    expect(span(anniversaryWindow(anchor, 'MONTHLY', at('2031-02-28T12:00:00.000Z')))).toEqual([
      '2031-02-28T00:00:00.000Z',
      '2031-03-31T00:00:00.000Z',
    ]);
    expect(span(anniversaryWindow(anchor, 'MONTHLY', at('2020-07-15T00:00:00.000Z')))).toEqual([
      '2020-06-30T00:00:00.000Z',
      '2020-07-31T00:00:00.000Z',
    ]);
    expect(span(anniversaryWindow(anchor, 'DAILY', at('2020-08-30T23:59:59.999Z')))).toEqual([
      '2020-08-30T00:00:00.000Z',
      '2020-08-31T00:00:00.000Z',
    ]);
  });

  it('gives the period before, and none for NEVER', () => {
    const cadence = { reset: 'EVERY_MONTH' as const, resetTime: 'SUBSCRIPTION_START' as const, subscriptionStart: at('2024-01-31T00:00:00.000Z') };
    const window = resetWindow({ ...cadence, at: at('2024-03-05T00:00:00.000Z') });
    expect(span(previousWindow({ ...cadence, window })!)).toEqual(['2024-01-31T00:00:00.000Z', '2024-02-29T00:00:00.000Z']);
    const never = { ...cadence, reset: 'NEVER' as const };
    expect(previousWindow({ ...never, window: resetWindow({ ...never, at: at('2024-03-05T00:00:00.000Z') }) })).toBeNull();
  });
});

describe('formats', () => {
  it('writes resetAt as yyyy-MM-dd HH:mm:ss in UTC, and usage timestamps with microseconds', () => {
    expect(formatResetAt(at('2025-05-22T08:27:45.430Z'))).toBe('2025-05-22 08:27:45');
    expect(formatResetAt(null)).toBeNull();
    expect(formatUsageTimestamp(at('2025-05-02T08:07:05.043Z'))).toBe('2025-05-02 08:07:05.043000');
  });
});

describe('rolloverAmount', () => {
  it.each([
    // unused, percentage, limit, carried
    [2000, 50, 750, 750], // DOMAIN.md §3.3: 10,000 included, 2,000 unused, 50 % capped at 750
    [1000, 50, 750, 500],
    [999, 50, null, 499],
    [1000, 33.3, null, 333],
    [3, 33.3333, null, 0],
    [7, 100, null, 7],
    [0, 50, null, 0],
    [-40, 50, null, 0],
    [1000, 0, null, 0],
    [1000, 50, 0, 0],
    [9_000_000_000_000, 12.5, null, 1_125_000_000_000],
  ])('%d unused at %d %% capped at %s carries %d', (unused, percentage, limit, carried) => {
    expect(rolloverAmount(unused, { percentage, limit })).toBe(carried);
  });
});
