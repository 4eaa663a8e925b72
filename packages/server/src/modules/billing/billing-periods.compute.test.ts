import { describe, expect, it } from 'vitest';
import { addPeriod, isRecurring, recurrenceOf } from './billing-periods.compute.js';

const at = (iso: string) => new Date(iso);
const iso = (date: Date) => date.toISOString();

describe('addPeriod', () => {
  it.each([
    ['DAILY', '2024-02-28T10:30:00.000Z', '2024-02-29T10:30:00.000Z'],
    ['DAILY', '2023-12-31T23:00:00.000Z', '2024-01-01T23:00:00.000Z'],
    ['WEEKLY', '2024-02-27T10:30:00.000Z', '2024-03-05T10:30:00.000Z'],
    ['WEEKLY', '2023-02-27T10:30:00.000Z', '2023-03-06T10:30:00.000Z'],
    ['TWENTY_EIGHT_DAYS', '2024-02-01T00:00:00.000Z', '2024-02-29T00:00:00.000Z'],
    ['TWENTY_EIGHT_DAYS', '2023-02-01T00:00:00.000Z', '2023-03-01T00:00:00.000Z'],
  ])('%s from %s ends at %s', (period, start, end) => {
    expect(iso(addPeriod(at(start), period))).toBe(end);
  });

  it.each([
    ['2024-01-15T08:00:00.000Z', '2024-02-15T08:00:00.000Z'],
    ['2023-01-31T00:00:00.000Z', '2023-02-28T00:00:00.000Z'],
    ['2024-01-31T00:00:00.000Z', '2024-02-29T00:00:00.000Z'],
    ['2024-01-29T12:00:00.000Z', '2024-02-29T12:00:00.000Z'],
    ['2023-01-29T12:00:00.000Z', '2023-02-28T12:00:00.000Z'],
    ['2024-03-31T00:00:00.000Z', '2024-04-30T00:00:00.000Z'],
    ['2024-12-15T09:00:00.000Z', '2025-01-15T09:00:00.000Z'],
    ['2024-12-31T00:00:00.000Z', '2025-01-31T00:00:00.000Z'],
    ['2024-01-31T23:59:59.999Z', '2024-02-29T23:59:59.999Z'],
  ])('MONTHLY from %s ends at %s, clamped to the end of a shorter month', (start, end) => {
    expect(iso(addPeriod(at(start), 'MONTHLY'))).toBe(end);
  });

  it('stays anchored on the original day of the month when counting periods from the anchor', () => {
    const anchor = at('2023-01-31T00:00:00.000Z');
    expect(iso(addPeriod(anchor, 'MONTHLY', 1))).toBe('2023-02-28T00:00:00.000Z');
    expect(iso(addPeriod(anchor, 'MONTHLY', 2))).toBe('2023-03-31T00:00:00.000Z');
    expect(iso(addPeriod(anchor, 'MONTHLY', 3))).toBe('2023-04-30T00:00:00.000Z');
    expect(iso(addPeriod(anchor, 'MONTHLY', 13))).toBe('2024-02-29T00:00:00.000Z');
    // Chaining loses the anchor: that is why renewals count from the anchor.
    expect(iso(addPeriod(addPeriod(anchor, 'MONTHLY'), 'MONTHLY'))).toBe('2023-03-28T00:00:00.000Z');
  });

  it.each([
    ['QUARTERLY', '2023-11-30T00:00:00.000Z', '2024-02-29T00:00:00.000Z'],
    ['THREE_MONTHS', '2023-11-30T00:00:00.000Z', '2024-02-29T00:00:00.000Z'],
    ['QUARTERLY', '2024-10-31T00:00:00.000Z', '2025-01-31T00:00:00.000Z'],
    ['SIX_MONTHS', '2024-08-31T00:00:00.000Z', '2025-02-28T00:00:00.000Z'],
    ['SIX_MONTHS', '2024-07-15T00:00:00.000Z', '2025-01-15T00:00:00.000Z'],
    ['YEARLY', '2024-02-29T00:00:00.000Z', '2025-02-28T00:00:00.000Z'],
    ['YEARLY', '2023-03-01T00:00:00.000Z', '2024-03-01T00:00:00.000Z'],
  ])('%s from %s ends at %s', (period, start, end) => {
    expect(iso(addPeriod(at(start), period))).toBe(end);
  });

  it('counts several periods and goes back with a negative count', () => {
    expect(iso(addPeriod(at('2024-02-29T00:00:00.000Z'), 'YEARLY', 4))).toBe('2028-02-29T00:00:00.000Z');
    expect(iso(addPeriod(at('2024-01-01T00:00:00.000Z'), 'WEEKLY', 3))).toBe('2024-01-22T00:00:00.000Z');
    expect(iso(addPeriod(at('2024-03-31T00:00:00.000Z'), 'MONTHLY', -1))).toBe('2024-02-29T00:00:00.000Z');
    expect(iso(addPeriod(at('2024-01-15T00:00:00.000Z'), 'MONTHLY', -1))).toBe('2023-12-15T00:00:00.000Z');
    expect(iso(addPeriod(at('2024-05-05T05:05:05.005Z'), 'MONTHLY', 0))).toBe('2024-05-05T05:05:05.005Z');
  });

  it('does not change the date it is given', () => {
    const start = at('2024-01-31T00:00:00.000Z');
    addPeriod(start, 'MONTHLY');
    expect(iso(start)).toBe('2024-01-31T00:00:00.000Z');
  });

  it('refuses ONE_TIME, unknown periods, fractional counts and invalid dates', () => {
    expect(() => addPeriod(at('2024-01-01T00:00:00Z'), 'ONE_TIME')).toThrow(/ONE_TIME/);
    expect(() => addPeriod(at('2024-01-01T00:00:00Z'), 'FORTNIGHTLY')).toThrow(/FORTNIGHTLY/);
    expect(() => addPeriod(at('2024-01-01T00:00:00Z'), 'MONTHLY', 1.5)).toThrow(RangeError);
    expect(() => addPeriod(new Date('nope'), 'MONTHLY')).toThrow(RangeError);
  });
});

describe('isRecurring', () => {
  it.each(['DAILY', 'WEEKLY', 'TWENTY_EIGHT_DAYS', 'MONTHLY', 'QUARTERLY', 'THREE_MONTHS', 'SIX_MONTHS', 'YEARLY'])(
    '%s renews',
    (period) => expect(isRecurring(period)).toBe(true),
  );
  it('ONE_TIME and unknown names do not', () => {
    expect(isRecurring('ONE_TIME')).toBe(false);
    expect(isRecurring('monthly')).toBe(false);
    expect(isRecurring('')).toBe(false);
  });
});

describe('recurrenceOf', () => {
  it.each([
    ['MONTHLY', 'month', 1, 'MONTH'],
    ['YEARLY', 'year', 1, 'YEAR'],
    ['QUARTERLY', '3 months', 3, 'MONTH'],
    ['THREE_MONTHS', '3 months', 3, 'MONTH'],
    ['SIX_MONTHS', '6 months', 6, 'MONTH'],
    ['WEEKLY', 'week', 1, 'WEEK'],
    ['DAILY', 'day', 1, 'DAY'],
    ['TWENTY_EIGHT_DAYS', '28 days', 28, 'DAY'],
    ['ONE_TIME', '', null, null],
  ])('%s -> %s, %s, %s', (period, recurrence, recurrenceUnit, recurrenceType) => {
    expect(recurrenceOf(period)).toEqual({ recurrence, recurrenceUnit, recurrenceType });
  });
  it('refuses an unknown period', () => {
    expect(() => recurrenceOf('HOURLY')).toThrow(/HOURLY/);
  });
});
