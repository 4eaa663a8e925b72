import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase, startTestServer, type TestServer } from './harness.js';
import { REDIS_URL, redisAvailable } from './redis-support.js';
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

describe('requests without a valid key', () => {
  let server: TestServer;
  let lookups = 0;
  beforeAll(async () => {
    server = await startTestServer({ env: { BILLOW_AUTH_FAILURE_LIMIT_MAX: '3', BILLOW_AUTH_FAILURE_WINDOW_MS: '60000' } });
    // Counts the key lookups that reach the database (cache misses).
    const cache = server.app.billow.keyCache;
    const lookup = cache.lookup.bind(cache);
    cache.lookup = (secret: string) => {
      lookups++;
      return lookup(secret);
    };
  });
  afterAll(() => server.close());

  const bogus = (i: number) => `sk_live_${String(i).padStart(40, 'x')}`;

  it('are limited per address: past the budget, 429 before any key lookup; a cached valid key still works', async () => {
    const org = await server.createOrg();
    expect((await server.request('GET', '/api/v1/customers/', { key: org.production.serverKey })).status).toBe(200);
    lookups = 0;
    for (let i = 0; i < 3; i++) expect((await server.request('GET', '/api/v1/customers/', { key: bogus(i) })).status).toBe(401);
    expect(lookups).toBe(3);

    for (let i = 3; i < 23; i++) {
      const res = await server.request('GET', '/api/v1/customers/', { key: bogus(i) });
      expect(res.status).toBe(429);
      expect(res.body).toEqual({ detail: expect.stringMatching(/without a valid key from this address/), code: 'rate_limited' });
      expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(res.headers.get('ratelimit-remaining')).toBe('0');
    }
    // No guess from a blocked address reaches the database.
    expect(lookups).toBe(3);

    expect((await server.request('GET', '/api/v1/customers/')).status).toBe(429);
    const partner = await server.request('GET', '/api/v1/partner/organizations/', { headers: { 'x-billow-partner-key': 'bpk_nope' } });
    expect(partner.status).toBe(429);
    expect((await server.request('GET', '/api/v1/customers/', { key: org.production.serverKey })).status).toBe(200);
  });

  it('never refuse a key that verifies, cached or not, old or new, while guesses from its address go on (decision 0055)', async () => {
    const org = await server.createOrg();
    const cache = server.app.billow.keyCache;
    const statuses: number[] = [];
    for (let round = 0; round < 10; round++) {
      // A guesser on the same address, some of its guesses under a real key's public prefix.
      for (let i = 0; i < 5; i++) {
        const guess = i % 2 === 0 ? bogus(100 + round * 5 + i) : `${org.sandbox.serverKey.slice(0, 16)}${'z'.repeat(32)}`;
        expect((await server.request('GET', '/sandbox/api/v1/customers/', { key: guess })).status).toBe(429);
      }
      cache.clear();
      statuses.push((await server.request('GET', '/sandbox/api/v1/customers/', { key: org.sandbox.serverKey })).status);
      statuses.push((await server.request('GET', '/sandbox/api/v1/catalog/features/', { key: org.sandbox.clientKey })).status);
    }
    expect(statuses.every((status) => status !== 429 && status !== 401)).toBe(true);

    // A key made while the address is blocked (another organization's, as another process would make it).
    const later = await server.createOrg();
    expect((await server.request('GET', '/api/v1/customers/', { key: later.production.serverKey })).status).toBe(200);
    const key = later.production.serverKey;
    const nearMiss = await server.request('GET', '/api/v1/customers/', { key: `${key.slice(0, -1)}${key.endsWith('A') ? 'B' : 'A'}` });
    expect(nearMiss.status).toBe(429);
  });
});

const haveRedis = await redisAvailable('rate limiting');

describe.skipIf(!haveRedis)('rate limiting shared through Redis', () => {
  let database: DatabaseHandle;
  let redisA: Redis;
  let redisB: Redis;
  let a: TestServer;
  let b: TestServer;
  beforeAll(async () => {
    redisA = new Redis(REDIS_URL);
    redisB = new Redis(REDIS_URL);
    database = await openTestDatabase();
    // Failures counted by an earlier run (in the last minute) must not count against this one.
    const stale = await redisA.keys('billow-authfail*');
    if (stale.length > 0) await redisA.del(...stale);
    const env = { ...LIMITS, BILLOW_AUTH_FAILURE_LIMIT_MAX: '3' };
    a = await startTestServer({ env, database, redis: redisA });
    b = await startTestServer({ env, database, redis: redisB });
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

  it('counts failed authentications of one address across two processes', async () => {
    const bogus = `sk_live_${'y'.repeat(40)}`;
    const statuses = [];
    for (const server of [a, b, a, b]) statuses.push((await server.request('GET', '/api/v1/customers/', { key: bogus })).status);
    expect(statuses.slice(0, 3)).toEqual([401, 401, 401]);
    // Past the shared budget: 429, unless this second's one lookup of a blocked address is still unused.
    expect([429, 401]).toContain(statuses[3]);
    const next = await a.request('GET', '/api/v1/customers/', { key: bogus });
    expect(next.status).toBe(429);
    const stale = await redisA.keys('billow-authfail*');
    if (stale.length > 0) await redisA.del(...stale);
  });
});
