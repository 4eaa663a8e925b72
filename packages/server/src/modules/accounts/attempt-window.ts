import { createHash, randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';

/**
 * Attempts counted per key in a sliding window (failed sign-ins per address, links asked for
 * per email and per address). In this process's memory, or in Redis when the installation has
 * one, so that every process behind a balancer counts together (decision 0121). Times are the
 * injected clock's milliseconds.
 */
export interface AttemptWindow {
  count(key: string, now: number): Promise<number>;
  add(key: string, now: number): Promise<void>;
}

export class MemoryAttemptWindow implements AttemptWindow {
  private readonly attempts = new Map<string, number[]>();

  constructor(private readonly windowMs: number) {}

  private recent(key: string, now: number): number[] {
    const kept = (this.attempts.get(key) ?? []).filter((at) => at > now - this.windowMs);
    if (kept.length === 0) this.attempts.delete(key);
    else this.attempts.set(key, kept);
    return kept;
  }

  async count(key: string, now: number): Promise<number> {
    return this.recent(key, now).length;
  }

  async add(key: string, now: number): Promise<void> {
    if (this.attempts.size > 50_000) this.attempts.clear();
    this.attempts.set(key, [...this.recent(key, now), now]);
  }
}

/**
 * One sorted set per key, scored by the attempt's time, expiring with the window. Keys are
 * hashed: no email or address is written to Redis. A Redis that cannot answer counts nothing,
 * as the API's failed-key limit does: the per-account lockout, in the database, still holds.
 */
export class RedisAttemptWindow implements AttemptWindow {
  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
    private readonly windowMs: number,
  ) {}

  private keyOf(key: string): string {
    return `${this.prefix}:${createHash('sha256').update(key).digest('hex')}`;
  }

  async count(key: string, now: number): Promise<number> {
    const at = this.keyOf(key);
    const answers = await this.redis
      .multi()
      .zremrangebyscore(at, '-inf', now - this.windowMs)
      .zcard(at)
      .exec()
      .catch(() => null);
    const counted = answers?.[1];
    return counted && counted[0] === null ? Number(counted[1]) : 0;
  }

  async add(key: string, now: number): Promise<void> {
    const at = this.keyOf(key);
    await this.redis
      .multi()
      .zadd(at, now, `${now}:${randomUUID()}`)
      .pexpire(at, this.windowMs)
      .exec()
      .catch(() => null);
  }
}

export function attemptWindow(redis: Redis | null, prefix: string, windowMs: number): AttemptWindow {
  return redis ? new RedisAttemptWindow(redis, prefix, windowMs) : new MemoryAttemptWindow(windowMs);
}
