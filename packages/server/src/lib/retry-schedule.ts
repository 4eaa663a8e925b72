/** Delays after the 1st, 2nd, … failed attempt: about three days in all (decision 0031). */
export const DEFAULT_RETRY_SCHEDULE = '5s,5m,30m,2h,5h,10h,14h,20h,24h';

const UNITS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };
const MAX_DELAY_MS = 7 * UNITS.d!;

/** "5s,5m,2h" → milliseconds; null when it is not such a list (1 to 30 delays, each up to 7 days). */
export function parseRetrySchedule(raw: string): number[] | null {
  const delays = raw.split(',').map((part) => {
    const match = /^\s*(\d+)\s*(ms|s|m|h|d)\s*$/.exec(part);
    return match ? Number(match[1]) * UNITS[match[2]!]! : NaN;
  });
  const valid = delays.length >= 1 && delays.length <= 30 && delays.every((d) => Number.isSafeInteger(d) && d <= MAX_DELAY_MS);
  return valid ? delays : null;
}

/** A Retry-After header (seconds, or an HTTP date) as milliseconds from `now`; null when absent or unreadable. */
export function retryAfterMs(header: string | undefined, now: Date): number | null {
  if (!header) return null;
  const trimmed = header.trim();
  if (/^\d+$/.test(trimmed)) return Math.min(Number(trimmed) * 1000, MAX_DELAY_MS);
  const at = Date.parse(trimmed);
  if (Number.isNaN(at)) return null;
  return Math.min(Math.max(at - now.getTime(), 0), MAX_DELAY_MS);
}

/**
 * When the next attempt after `failedAttempts` failures is due, or null when the schedule
 * is spent. Jitter of up to ±10% keeps retries of many deliveries from arriving together;
 * a receiver's Retry-After is honoured when it asks for longer.
 */
export function nextAttemptAt(
  failedAttempts: number,
  schedule: readonly number[],
  now: Date,
  options: { retryAfterMs?: number | null; random?: () => number } = {},
): Date | null {
  const base = schedule[failedAttempts - 1];
  if (base === undefined) return null;
  const jitter = base * 0.1 * ((options.random ?? Math.random)() * 2 - 1);
  const delay = Math.max(Math.round(base + jitter), options.retryAfterMs ?? 0);
  return new Date(now.getTime() + delay);
}

/**
 * Whether an endpoint that has failed every attempt since `failingSince` is to be
 * disabled: it must have failed at least `minFailures` times in a row over `afterMs`.
 */
export function shouldDisable(consecutiveFailures: number, failingSince: Date | null, now: Date, rule: { afterMs: number; minFailures: number }): boolean {
  if (!failingSince || consecutiveFailures < rule.minFailures) return false;
  return now.getTime() - failingSince.getTime() >= rule.afterMs;
}
