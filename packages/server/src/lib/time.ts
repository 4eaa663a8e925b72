/** Milliseconds in a day of UTC time (no daylight saving: Billow counts in UTC). */
export const DAY_MS = 86_400_000;
