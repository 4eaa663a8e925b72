/**
 * Calendar boundaries in a time zone (an IANA name such as Europe/Berlin), from the
 * platform's Intl data: the instant a local day or month begins.
 */

const formats = new Map<string, Intl.DateTimeFormat>();

function formatIn(timeZone: string): Intl.DateTimeFormat {
  let format = formats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    formats.set(timeZone, format);
  }
  return format;
}

/** The wall-clock date and time at `at` in the zone, as numbers (month from 1). */
export function wallClock(at: Date, timeZone: string) {
  const parts = Object.fromEntries(formatIn(timeZone).formatToParts(at).map((p) => [p.type, p.value]));
  const n = (name: string) => Number(parts[name]);
  return { year: n('year'), month: n('month'), day: n('day'), hour: n('hour'), minute: n('minute'), second: n('second') };
}

/** How far the zone's wall clock is ahead of UTC at `at`, in milliseconds. */
function offsetAt(at: Date, timeZone: string): number {
  const w = wallClock(at, timeZone);
  const asUtc = Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute, w.second);
  return asUtc - Math.floor(at.getTime() / 1000) * 1000;
}

/**
 * The instant the zone's wall clock shows local midnight of year-month-day; where that
 * midnight does not exist (a change of clocks at 00:00), the first instant after it.
 */
export function localMidnight(year: number, month: number, day: number, timeZone: string): Date {
  const wall = Date.UTC(year, month - 1, day);
  let guess = wall - offsetAt(new Date(wall), timeZone);
  guess = wall - offsetAt(new Date(guess), timeZone);
  const shown = wallClock(new Date(guess), timeZone);
  // A skipped midnight: the guess shows the day before; the day begins when the clocks jump.
  if (shown.day !== day) guess += 3_600_000 - (shown.minute * 60 + shown.second) * 1000;
  return new Date(guess);
}

/** When the local day and the local month that hold `at` began, in the zone. */
export function dayAndMonthStart(at: Date, timeZone: string): { day: Date; month: Date } {
  const w = wallClock(at, timeZone);
  return { day: localMidnight(w.year, w.month, w.day, timeZone), month: localMidnight(w.year, w.month, 1, timeZone) };
}

/** The zone's calendar date at `at`, as YYYY-MM-DD. */
export function localDate(at: Date, timeZone: string): string {
  const w = wallClock(at, timeZone);
  return `${String(w.year).padStart(4, '0')}-${String(w.month).padStart(2, '0')}-${String(w.day).padStart(2, '0')}`;
}
