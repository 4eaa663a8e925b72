import type { IncomingMessage } from 'node:http';
import type { FastifyInstance, FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import type { Redis } from 'ioredis';
import { RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import { ApiError } from './errors.js';

export interface RateLimitOptions {
  max: number;
  windowMs: number;
  redis: Redis | null;
}

/** A route's own limit: its own counters, keyed by its own function of the request. */
export interface RouteRateLimit {
  keyGenerator: (request: FastifyRequest) => string;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** false: not limited; an object: counted apart from the other routes, by its key. */
    rateLimit?: false | RouteRateLimit;
  }
}

/** Requests counted in the key's current window, and the milliseconds until that window ends. */
export interface Count {
  count: number;
  resetMs: number;
}

/** Counters of fixed windows; a shared store answers with a promise, the in-process one at once. */
interface Counters {
  hit(key: string): Count | Promise<Count | null>;
}

/** Keys kept in process at most; past that, the oldest windows are forgotten first. */
const MAX_KEYS = 10_000;

/**
 * The in-process counters: synchronous, so that a request that is allowed, the
 * Edge's cached reads above all, costs no promise (decision 0041).
 */
class MemoryCounters implements Counters {
  private readonly windows = new Map<string, { count: number; start: number }>();

  constructor(private readonly windowMs: number) {}

  hit(key: string): Count {
    const now = Date.now();
    const window = this.windows.get(key);
    if (window !== undefined && now - window.start < this.windowMs) {
      window.count++;
      return { count: window.count, resetMs: this.windowMs - (now - window.start) };
    }
    // A new window goes last: the map stays in order of window start, oldest first.
    if (window !== undefined) this.windows.delete(key);
    this.windows.set(key, { count: 1, start: now });
    if (this.windows.size > MAX_KEYS) this.windows.delete(this.windows.keys().next().value as string);
    return { count: 1, resetMs: this.windowMs };
  }
}

/** Counters shared by every process through Redis; a Redis that cannot answer lets the request through. */
class RedisCounters implements Counters {
  private readonly limiter: RateLimiterRedis;

  constructor(redis: Redis, windowMs: number, keyPrefix: string) {
    // Never refuses by itself (points above any count): the hook compares the count with the limit.
    const duration = Math.max(1, Math.ceil(windowMs / 1000));
    this.limiter = new RateLimiterRedis({ storeClient: redis, useRedisPackage: false, points: Number.MAX_SAFE_INTEGER, duration, keyPrefix });
  }

  hit(key: string): Promise<Count | null> {
    return this.limiter.consume(key).then(
      (state) => ({ count: state.consumedPoints, resetMs: state.msBeforeNext }),
      (error: unknown) => (error instanceof RateLimiterRes ? { count: error.consumedPoints, resetMs: error.msBeforeNext } : null),
    );
  }
}

const defaultKey = (request: FastifyRequest): string => request.auth?.keyId ?? request.partner?.keyId ?? `ip:${request.ip}`;

type Done = (error?: Error) => void;

/**
 * Per key: the authenticated key's id, or the caller's address before a key is
 * known. Runs after authentication (preHandler), so it counts keys, not guesses.
 * Headers follow the IETF RateLimit draft plus Retry-After on 429. Each route
 * gets the hook bound to its counters, so a request reads no route options.
 */
export function registerRateLimit(app: FastifyInstance, options: RateLimitOptions): LaneRateLimit {
  const { max, windowMs, redis } = options;
  const counters = (prefix: string): Counters =>
    redis ? new RedisCounters(redis, windowMs, prefix) : new MemoryCounters(windowMs);
  const shared = counters('billow-rl');
  const limitText = `${max} per ${windowMs >= 1000 && windowMs % 1000 === 0 ? `${windowMs / 1000} s` : `${windowMs} ms`}`;

  const verdict = (reply: FastifyReply, counted: Count | null): ApiError | undefined => {
    if (counted === null) return undefined;
    const allowed = rateLimitHeaders(counted, max);
    if (allowed !== null) {
      for (let i = 0; i < allowed.length; i += 2) reply.header(allowed[i]!, allowed[i + 1]);
      return undefined;
    }
    const reset = String(resetSeconds(counted));
    return new ApiError(429, 'rate_limited', `Too many requests for this key: the limit is ${limitText}; retry in ${reset} s`, {
      'ratelimit-limit': String(max),
      'ratelimit-remaining': '0',
      'ratelimit-reset': reset,
      'retry-after': reset,
    });
  };

  const hookFor = (store: Counters, keyOf: (request: FastifyRequest) => string) =>
    function rateLimit(request: FastifyRequest, reply: FastifyReply, done: Done): void {
      const counted = store === shared ? (takeLaneCount(request.raw) ?? store.hit(keyOf(request))) : store.hit(keyOf(request));
      if (counted instanceof Promise) counted.then((count) => done(verdict(reply, count)), done);
      else done(verdict(reply, counted));
    };
  const everyRoute = hookFor(shared, defaultKey);

  app.addHook('onRoute', (route: RouteOptions) => {
    const own = route.config?.rateLimit;
    if (own === false) return;
    const methods = Array.isArray(route.method) ? route.method.join(',') : route.method;
    const hook = own ? hookFor(counters(`billow-rl-${methods} ${route.url}`), own.keyGenerator) : everyRoute;
    route.preHandler = [...hooksOf(route.preHandler), hook as never];
  });
  return { max, hit: (key) => shared.hit(key) };
}

const hooksOf = <T>(hooks: T | T[] | undefined): T[] => (hooks === undefined ? [] : Array.isArray(hooks) ? hooks : [hooks]);

/** The shared counters as the Edge's fast lane counts with them (http/fast-lane.ts). */
export interface LaneRateLimit {
  max: number;
  hit(key: string): Count | Promise<Count | null>;
}

const resetSeconds = (counted: Count): number => Math.max(1, Math.ceil(counted.resetMs / 1000));

/**
 * The headers of an allowed request, as name, value pairs; null when the count is
 * over the limit; none when the count is unknown (a Redis that did not answer).
 */
export function rateLimitHeaders(counted: Count | null, max: number): string[] | null {
  if (counted === null) return [];
  if (counted.count > max) return null;
  return ['ratelimit-limit', String(max), 'ratelimit-remaining', String(max - counted.count), 'ratelimit-reset', String(resetSeconds(counted))];
}

const LANE_COUNT = Symbol('billow.laneCount');
type LaneCounted = IncomingMessage & { [LANE_COUNT]?: Count | null };

/** A request the fast lane counted and then handed to Fastify (over the limit): the hook answers it without counting it again. */
export function countedInLane(req: IncomingMessage, counted: Count | null): void {
  (req as LaneCounted)[LANE_COUNT] = counted;
}

function takeLaneCount(req: IncomingMessage): Count | null | undefined {
  return (req as LaneCounted)[LANE_COUNT];
}
