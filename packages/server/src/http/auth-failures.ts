import type { FastifyInstance } from 'fastify';
import type { Redis } from 'ioredis';
import { RateLimiterMemory, RateLimiterRedis, type RateLimiterAbstract } from 'rate-limiter-flexible';
import { ApiError } from './errors.js';
import type { KnownKeys } from './known-keys.js';

export interface AuthFailureLimits {
  /** Failed authentications an address may make in a window before it is turned away. */
  max: number;
  windowMs: number;
  /** Shares the counts between processes when set. */
  redis: Redis | null;
}

function limiter(limits: AuthFailureLimits, points: number, durationSeconds: number, keyPrefix: string): RateLimiterAbstract {
  const options = { points, duration: durationSeconds, keyPrefix };
  return limits.redis
    ? new RateLimiterRedis({ ...options, storeClient: limits.redis, useRedisPackage: false })
    : new RateLimiterMemory(options);
}

/**
 * Counts failed authentications (401s) per client address (decision 0055). An address over
 * its budget is refused (429) before any database read, except for a key that will verify:
 * the presented secret's public prefix and hash are checked against the index of keys in
 * memory (KnownKeys), so guessing costs the guesser a SHA-256 and the database nothing,
 * while a valid key behind an address it shares with a guesser (a NAT, a proxy without
 * BILLOW_TRUST_PROXY) is never turned away.
 */
export class AuthFailureLimiter {
  private readonly failures: RateLimiterAbstract;

  constructor(
    private readonly limits: AuthFailureLimits,
    private readonly known: KnownKeys,
  ) {
    this.failures = limiter(limits, limits.max, Math.max(1, Math.ceil(limits.windowMs / 1000)), 'billow-authfail');
  }

  /** Refuses (429) an address that has used up its failures, unless `secret` is a key; a store that can't answer lets it through. */
  async refuseIfBlocked(address: string, secret: string | null): Promise<void> {
    const state = await this.failures.get(address).catch(() => null);
    if (!state || state.consumedPoints < this.limits.max) return;
    if (secret !== null && (await this.known.vouchesFor(secret))) return;
    const seconds = Math.max(1, Math.ceil(state.msBeforeNext / 1000));
    throw new ApiError(
      429,
      'rate_limited',
      `Too many requests without a valid key from this address: at most ${this.limits.max} per ${this.limits.windowMs / 1000} s; retry in ${seconds} s`,
      {
        'retry-after': String(seconds),
        'ratelimit-limit': String(this.limits.max),
        'ratelimit-remaining': '0',
        'ratelimit-reset': String(seconds),
      },
    );
  }

  recordFailure(address: string): Promise<void> {
    return this.failures.penalty(address, 1).then(
      () => undefined,
      () => undefined,
    );
  }
}

/** Every 401 counts against the address it came from. */
export function countAuthFailures(app: FastifyInstance, limiter: AuthFailureLimiter): void {
  // Callback style: every response passes here, and only a 401 has anything to wait for.
  app.addHook('onResponse', (request, reply, done) => {
    if (reply.statusCode !== 401) return done();
    void limiter.recordFailure(request.ip).then(() => done());
  });
}
