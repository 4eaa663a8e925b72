export interface RetryPolicy {
  /** Attempts in all, the first included; then the job is dead. */
  attempts: number;
  /** Wait after the first failure; each later wait doubles. */
  backoffMs: number;
}

export const DEFAULT_RETRY: RetryPolicy = { attempts: 5, backoffMs: 10_000 };

/** The longest wait between two attempts, however many failed before. */
export const MAX_BACKOFF_MS = 24 * 60 * 60 * 1000;

/** How long to wait before the next attempt, after `attempt` (counted from 1) failed. */
export function backoffAfter(policy: RetryPolicy, attempt: number): number {
  const doublings = Math.min(Math.max(attempt - 1, 0), 40);
  return Math.min(Math.max(policy.backoffMs, 1) * 2 ** doublings, MAX_BACKOFF_MS);
}
