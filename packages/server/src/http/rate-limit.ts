import type { FastifyInstance, FastifyRequest } from 'fastify';
import rateLimit from '@fastify/rate-limit';
import type { Redis } from 'ioredis';
import { ApiError } from './errors.js';

export interface RateLimitOptions {
  max: number;
  windowMs: number;
  redis: Redis | null;
}

/**
 * Per key: the authenticated key's id, or the caller's address before a key is
 * known. Runs after authentication (preHandler), so it counts keys, not guesses.
 * Headers follow the IETF RateLimit draft plus Retry-After on 429.
 */
export async function registerRateLimit(app: FastifyInstance, options: RateLimitOptions): Promise<void> {
  await app.register(rateLimit, {
    global: true,
    hook: 'preHandler',
    max: options.max,
    timeWindow: options.windowMs,
    enableDraftSpec: true,
    nameSpace: 'billow-rl-',
    ...(options.redis ? { redis: options.redis } : {}),
    keyGenerator: (request: FastifyRequest) =>
      request.auth?.keyId ?? request.partner?.keyId ?? `ip:${request.ip}`,
    errorResponseBuilder: (_request, context) => {
      const seconds = Math.max(1, Math.ceil(context.ttl / 1000));
      return new ApiError(
        429,
        'rate_limited',
        `Too many requests for this key: the limit is ${context.max} per ${context.after}; retry in ${seconds} s`,
      );
    },
  });
}
