import type { AttemptWindow } from './attempt-window.js';

/**
 * Attempts of one kind counted per key (a client address, an email) in a sliding window:
 * past the limit the key is refused (429) until its oldest attempt leaves the window. The
 * per-account lockout (users.locked_until) is the durable part, kept in the database.
 */
export class SignInLimiter {
  constructor(
    private readonly max: number,
    private readonly attempts: AttemptWindow,
  ) {}

  async blocked(key: string, now: number): Promise<boolean> {
    return (await this.attempts.count(key, now)) >= this.max;
  }

  /** Counts one more attempt of `key` (a failed sign-in, a link asked for). */
  fail(key: string, now: number): Promise<void> {
    return this.attempts.add(key, now);
  }
}
