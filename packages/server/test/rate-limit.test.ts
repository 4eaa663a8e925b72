import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase, startTestServer, type TestServer } from './harness.js';
import type { DatabaseHandle } from '../src/db/connect.js';

const LIMITS = { BILLOW_RATE_LIMIT_MAX: '3', BILLOW_RATE_LIMIT_WINDOW_MS: '60000' };

describe('rate limiting in process', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ env: LIMITS });
  });
  afterAll(() => server.close());

  it('counts per key and answers 429 with Retry-After and RateLimit headers', async () => {
    const org = await server.createOrg();
    const key = org.production.serverKey;
    const remaining: string[] = [];
    for (let i = 0; i < 3; i++) {
      const res = await server.request('GET', '/api/v1/customers/', { key });
      expect(res.status).toBe(200);
      expect(res.headers.get('ratelimit-limit')).toBe('3');
      remaining.push(res.headers.get('ratelimit-remaining') ?? '');
      expect(Number(res.headers.get('ratelimit-reset'))).toBeGreaterThan(0);
    }
    expect(remaining).toEqual(['2', '1', '0']);
    const limited = await server.request('GET', '/api/v1/customers/', { key });
    expect(limited.status).toBe(429);
    expect(limited.body.code).toBe('rate_limited');
    expect(limited.body.detail).toMatch(/limit/);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);

    const otherKey = await server.request('GET', '/sandbox/api/v1/customers/', { key: org.sandbox.serverKey });
    expect(otherKey.status).toBe(200);
  });

  it('leaves health checks alone', async () => {
    for (let i = 0; i < 5; i++) expect((await server.request('GET', '/healthz')).status).toBe(200);
  });
});

async function redisReachable(): Promise<boolean> {
  const url = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
  const probe = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 0, connectTimeout: 500, retryStrategy: () => null });
  try {
    await probe.connect();
    await probe.ping();
    return true;
  } catch {
    return false;
  } finally {
    probe.disconnect();
  }
}

const haveRedis = await redisReachable();

describe.skipIf(!haveRedis)('rate limiting shared through Redis', () => {
  let database: DatabaseHandle;
  let redisA: Redis;
  let redisB: Redis;
  let a: TestServer;
  let b: TestServer;
  beforeAll(async () => {
    const url = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
    redisA = new Redis(url);
    redisB = new Redis(url);
    database = await openTestDatabase();
    a = await startTestServer({ env: LIMITS, database, redis: redisA });
    b = await startTestServer({ env: LIMITS, database, redis: redisB });
  });
  afterAll(async () => {
    await a.close();
    await b.close();
    await database.close();
    redisA.disconnect();
    redisB.disconnect();
  });

  it('counts one key across two processes', async () => {
    const org = await a.createOrg();
    const key = org.production.serverKey;
    const statuses = [];
    for (const server of [a, b, a, b]) statuses.push((await server.request('GET', '/api/v1/customers/', { key })).status);
    expect(statuses).toEqual([200, 200, 200, 429]);
  });
});
