import { describe, expect, it } from 'vitest';
import { dayAndMonthStart } from './time-zone.js';

describe('dayAndMonthStart', () => {
  it('is midnight UTC in UTC', () => {
    const { day, month } = dayAndMonthStart(new Date('2026-03-15T10:20:30Z'), 'UTC');
    expect(day.toISOString()).toBe('2026-03-15T00:00:00.000Z');
    expect(month.toISOString()).toBe('2026-03-01T00:00:00.000Z');
  });

  it("is the zone's local midnight, before and after a change of clocks", () => {
    // Berlin is UTC+1 in winter, UTC+2 from 29 March 2026.
    expect(dayAndMonthStart(new Date('2026-03-31T21:59:00Z'), 'Europe/Berlin').day.toISOString()).toBe('2026-03-30T22:00:00.000Z');
    expect(dayAndMonthStart(new Date('2026-03-31T21:59:00Z'), 'Europe/Berlin').month.toISOString()).toBe('2026-02-28T23:00:00.000Z');
    // 22:30 UTC on 31 March is already 1 April in Berlin.
    const april = dayAndMonthStart(new Date('2026-03-31T22:30:00Z'), 'Europe/Berlin');
    expect(april.day.toISOString()).toBe('2026-03-31T22:00:00.000Z');
    expect(april.month.toISOString()).toBe('2026-03-31T22:00:00.000Z');
  });

  it('counts west of UTC too', () => {
    // 03:00 UTC on 1 June is still 31 May in New York (UTC-4).
    const { day, month } = dayAndMonthStart(new Date('2026-06-01T03:00:00Z'), 'America/New_York');
    expect(day.toISOString()).toBe('2026-05-31T04:00:00.000Z');
    expect(month.toISOString()).toBe('2026-05-01T04:00:00.000Z');
  });

  it('begins a day whose midnight the clocks skip when they jump', () => {
    // Santiago moved its clocks from 00:00 to 01:00 on 6 September 2026 (UTC-4 to UTC-3).
    const { day } = dayAndMonthStart(new Date('2026-09-06T12:00:00Z'), 'America/Santiago');
    expect(day.toISOString()).toBe('2026-09-06T04:00:00.000Z');
  });
});
