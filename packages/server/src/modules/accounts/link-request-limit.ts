import { tooManyLinkRequests } from './errors.js';
import type { Redis } from 'ioredis';
import { attemptWindow } from './attempt-window.js';
import { SignInLimiter } from './sign-in-limit.js';

const HOUR_MS = 60 * 60 * 1000;

/** How many reset or sign-in links may be asked for, together, per email and per client address, in a sliding hour. */
export interface LinkRequestLimits {
  perEmail: number;
  perAddress: number;
  windowMs: number;
}

export const LINK_REQUEST_LIMITS: LinkRequestLimits = { perEmail: 5, perAddress: 20, windowMs: HOUR_MS };

/**
 * Caps the emails a stranger can make Billow send (password resets and sign-in links share
 * the count): per email address, so that nobody's mailbox is flooded, and per client address,
 * so that nobody walks through many emails. Counted whether the email has an account or not,
 * so that the 429 tells nothing about who has one; in Redis when the installation has one
 * (every process counts together), else in this process's memory. A refused request is not counted.
 */
export class LinkRequestLimiter {
  private readonly emails: SignInLimiter;
  private readonly addresses: SignInLimiter;

  constructor(
    private readonly limits: LinkRequestLimits = LINK_REQUEST_LIMITS,
    redis: Redis | null = null,
  ) {
    this.emails = new SignInLimiter(limits.perEmail, attemptWindow(redis, 'billow-links-email', limits.windowMs));
    this.addresses = new SignInLimiter(limits.perAddress, attemptWindow(redis, 'billow-links-address', limits.windowMs));
  }

  async take(email: string, address: string, now: number): Promise<void> {
    const key = email.trim().toLowerCase();
    const minutes = Math.round(this.limits.windowMs / 60_000);
    if (await this.emails.blocked(key, now)) throw tooManyLinkRequests(`this email (${this.limits.perEmail} in ${minutes} minutes)`);
    if (await this.addresses.blocked(address, now)) throw tooManyLinkRequests(`your address (${this.limits.perAddress} in ${minutes} minutes)`);
    await Promise.all([this.emails.fail(key, now), this.addresses.fail(address, now)]);
  }
}
