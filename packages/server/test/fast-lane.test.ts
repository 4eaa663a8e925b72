/**
 * The Edge's fast lane (http/fast-lane.ts, decision 0045) through HTTP: a cached check or promotion answered
 * ahead of Fastify must be indistinguishable from Fastify's answer (status, body, headers, rate limit, /metrics,
 * request log); whatever the lane does not take gets Fastify's. `off` runs with BILLOW_EDGE_FAST_LANE=false.
 */
import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import { Redis } from 'ioredis';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../src/db/connect.js';
import { systemClock } from '../src/lib/clock.js';
import { createEnvironmentKey, revokeKey } from '../src/modules/tenancy/service.js';
import { catalogClient } from './catalog-support.js';
import { FREE_MONTHLY } from './edge-support.js';
import { openTestDatabase, startTestServer, uniqueId, type Response, type TestOrg, type TestServer } from './harness.js';
import { REDIS_URL, redisAvailable } from './redis-support.js';

type Env = 'production' | 'sandbox';
type LogLine = Record<string, unknown>;
type Seed = { productId: string; featureId: string; customers: string[] };

const ROUTE = '/api/v1/entitlements/';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const IP = { DE: '85.214.0.1', IN: '49.44.0.1' } as const;
const BROWSER = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0 Safari/537.36';
// Keys stay cached and rate-limit windows stay open for the whole file: counts are exact.
const ENV = { BILLOW_TRUST_PROXY: 'true', BILLOW_KEY_CACHE_TTL_MS: '600000', BILLOW_RATE_LIMIT_WINDOW_MS: '600000' };
const LIMITS = { ...ENV, BILLOW_RATE_LIMIT_MAX: '3', BILLOW_RATE_LIMIT_WINDOW_MS: '60000' };
const PREFIX: Record<Env, string> = { production: '', sandbox: '/sandbox' };

let database: DatabaseHandle;
let lane: TestServer;
let off: TestServer;
let org: TestOrg;
const seeds = {} as Record<Env, Seed>;
const logLines: LogLine[] = [];

const expectStatus = (res: Response, status: number) => {
  if (res.status !== status) throw new Error(`${status} expected: ${res.status} ${res.text}`);
  return res;
};

/** A feature granted by a free published plan in one environment, and `count` customers subscribed to it. */
async function seed(env: Env, count: number): Promise<Seed> {
  const key = org[env].serverKey;
  const api = catalogClient(lane, key, PREFIX[env]);
  const product = await api.product();
  const feature = await api.feature({ name: 'SSO', identifier: uniqueId('sso'), featureType: 'BOOLEAN' });
  const plan = await api.plan(product.id);
  const planEntitlements = [{ feature: feature.id, details: { value: true } }];
  expectStatus(await api.call('POST', `/catalog/plans/${plan.identifier}/features/`, { planEntitlements }), 201);
  await api.prices(plan.identifier, [FREE_MONTHLY]);
  await api.publish(plan.identifier);
  const customers: string[] = [];
  for (let i = 0; i < count; i++) {
    const customerId = uniqueId('cust');
    expectStatus(await api.call('POST', '/customers/', { customerId, name: 'Ada', email: `${customerId}@example.com` }), 201);
    const subscription = { planIdentifier: plan.identifier, chargePeriod: 'MONTHLY', customerId };
    expectStatus(await api.call('POST', '/subscriptions/create/', subscription), 201);
    customers.push(customerId);
  }
  return { productId: product.id, featureId: feature.identifier, customers };
}

beforeAll(async () => {
  database = await openTestDatabase();
  const logger = pino({ level: 'info' }, { write: (line: string) => void logLines.push(JSON.parse(line) as LogLine) });
  lane = await startTestServer({ env: ENV, database, logger: logger as unknown as FastifyBaseLogger });
  off = await startTestServer({ env: { ...ENV, BILLOW_EDGE_FAST_LANE: 'false' }, database });
  org = await lane.createOrg();
  seeds.production = await seed('production', 4);
  seeds.sandbox = await seed('sandbox', 11);
  // Lets the change feed's notifications of the subscriptions settle before any answer is cached.
  await new Promise((resolve) => setTimeout(resolve, 200));
});
afterAll(async () => {
  await Promise.all([lane?.close(), off?.close()]);
  await database?.close();
});

const customer = (env: Env) => seeds[env].customers.shift()!;
const checkUrl = (env: Env, customerId: string) => `${PREFIX[env]}/api/v1/entitlements?customer_id=${customerId}`;
const get = (server: TestServer, url: string, key: string | null, headers: Record<string, string> = {}) =>
  server.request('GET', url, { key, headers });

/** The lane's counter and the check route's 200s in the duration histogram, from /metrics. */
async function meters(server: TestServer): Promise<{ lane: number; checks: number }> {
  const text = (await server.request('GET', '/metrics')).text;
  const answered = /^billow_http_fast_lane_requests_total (\d+)$/m.exec(text);
  const series = `method="GET",route="${ROUTE}",status_code="200"`;
  const checks = text.split('\n').find((line) => line.startsWith('billow_http_request_duration_seconds_count{') && line.includes(series));
  return { lane: Number(answered?.[1]), checks: checks === undefined ? 0 : Number(checks.split(' ').pop()) };
}

/** The response, and how much the lane's counter and the check's histogram count grew with it. */
async function measured(server: TestServer, send: () => Promise<Response>) {
  const before = await meters(server);
  const res = await send();
  const after = await meters(server);
  return { res, lane: after.lane - before.lane, checks: after.checks - before.checks };
}

/** What must not tell a lane answer from Fastify's. */
const shape = ({ status, text, headers }: Response) => ({
  status,
  text,
  names: [...headers.keys()].sort(),
  type: headers.get('content-type'),
  length: headers.get('content-length'),
  limit: headers.get('ratelimit-limit'),
});
const remaining = (res: Response) => Number(res.headers.get('ratelimit-remaining'));
const requestLines = (res: Response) => logLines.filter((line) => line.msg === 'request' && line.reqId === res.headers.get('x-request-id'));

describe('an entitlement check in and out of the lane', () => {
  it.each([
    { env: 'production', path: '/api/v1/entitlements', feature: false },
    { env: 'production', path: '/api/v1/entitlements/', feature: false },
    { env: 'production', path: '/api/v1/entitlements', feature: true },
    { env: 'production', path: '/api/v1/entitlements/', feature: true },
    { env: 'sandbox', path: '/sandbox/api/v1/entitlements', feature: false },
    { env: 'sandbox', path: '/sandbox/api/v1/entitlements/', feature: true },
  ] as const)('$path (feature_id: $feature): the same answer, counted and logged alike', async ({ env, path, feature }) => {
    const { featureId } = seeds[env];
    const customerId = customer(env);
    const url = `${path}?customer_id=${customerId}${feature ? `&feature_id=${featureId}` : ''}`;
    const key = org[env].serverKey;
    const miss = await measured(lane, () => get(lane, url, key));
    const hit = await measured(lane, () => get(lane, url, key));
    expectStatus(await get(off, url, key), 200);
    const fastify = await measured(off, () => get(off, url, key));

    expect(miss.res.body).toEqual({ customerId, entitlements: [expect.objectContaining({ featureId, featureType: 'BOOLEAN', hasAccess: true })] });
    expect([miss.lane, hit.lane, fastify.lane]).toEqual([0, 1, 0]);
    expect([miss.checks, hit.checks, fastify.checks]).toEqual([1, 1, 1]);
    // The server without the lane: the same answers, and its counter stays at 0.
    expect((await meters(off)).lane).toBe(0);
    expect(shape(hit.res)).toEqual(shape(miss.res));
    expect(shape(fastify.res)).toEqual(shape(miss.res));
    expect(hit.res.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(remaining(hit.res)).toBe(remaining(miss.res) - 1);
    expect(Number(hit.res.headers.get('ratelimit-reset'))).toBeGreaterThan(0);
    expect(hit.res.headers.get('x-request-id')).toMatch(UUID);
    expect(hit.res.headers.get('x-request-id')).not.toBe(miss.res.headers.get('x-request-id'));

    // One `request` line each, with the same fields.
    const [missLines, hitLines] = [requestLines(miss.res), requestLines(hit.res)];
    expect([missLines.length, hitLines.length]).toEqual([1, 1]);
    for (const line of [...missLines, ...hitLines]) expect(line).toMatchObject({ level: 30, method: 'GET', url, environment: env, statusCode: 200 });
    expect(Object.keys(hitLines[0]!).sort()).toEqual(Object.keys(missLines[0]!).sort());
  });
});

/** A fresh key's checks on a server limited to 3 a minute: warm-up (a miss), two lane answers, then 429. */
async function countdown(server: TestServer, key: string) {
  const url = checkUrl('sandbox', customer('sandbox'));
  const steps = [];
  for (let i = 0; i < 5; i++) steps.push(await measured(server, () => get(server, url, key)));
  expect(steps.map((step) => step.res.status)).toEqual([200, 200, 200, 429, 429]);
  expect(steps.map((step) => step.lane)).toEqual([0, 1, 1, 0, 0]);
  expect(steps.map((step) => step.res.headers.get('ratelimit-remaining'))).toEqual(['2', '1', '0', '0', '0']);
  expect(steps.map((step) => step.res.headers.get('ratelimit-limit'))).toEqual(['3', '3', '3', '3', '3']);
  const limited = steps[3]!.res;
  const reset = limited.headers.get('ratelimit-reset');
  expect(Number(reset)).toBeGreaterThan(0);
  expect(Number(reset)).toBeLessThanOrEqual(60);
  expect(limited.headers.get('retry-after')).toBe(reset);
  expect(limited.body).toEqual({ code: 'rate_limited', detail: `Too many requests for this key: the limit is 3 per 60 s; retry in ${reset} s` });
  expect(shape(steps[2]!.res)).toEqual(shape(steps[0]!.res));
}

const haveRedis = await redisAvailable('fast lane');

describe('the rate limit', () => {
  it('counts each lane answer once, and the request past the limit is answered 429 by Fastify', async () => {
    const limited = await startTestServer({ env: LIMITS, database });
    try {
      // A key this server has never counted.
      await countdown(limited, org.sandbox.clientKey);
    } finally {
      await limited.close();
    }
  });

  it.skipIf(!haveRedis)('counts the same through Redis', async () => {
    const redis = new Redis(REDIS_URL);
    const limited = await startTestServer({ env: LIMITS, database, redis });
    try {
      const key = (await createEnvironmentKey(database.db, systemClock, org.organizationId, 'sandbox', 'client')).key;
      await countdown(limited, key);
    } finally {
      await limited.close();
      redis.disconnect();
    }
  });
});

describe('keys', () => {
  const fresh = (kind: 'server' | 'client') => createEnvironmentKey(database.db, systemClock, org.organizationId, 'sandbox', kind).then((k) => k.key);

  it('serves a client key in the lane once it is cached', async () => {
    const url = checkUrl('sandbox', customer('sandbox'));
    const server = expectStatus(await get(lane, url, org.sandbox.serverKey), 200);
    const client = await fresh('client');
    const first = await measured(lane, () => get(lane, url, client));
    const second = await measured(lane, () => get(lane, url, client));
    expect([first.res.status, second.res.status, first.lane, second.lane]).toEqual([200, 200, 0, 1]);
    expect(second.res.text).toBe(server.text);
  });

  const revoked = { code: 'unauthorized', detail: 'The API key has been revoked' };

  it('refuses a revoked key at once, though the lane answered it before', async () => {
    const url = checkUrl('sandbox', customer('sandbox'));
    for (const key of [await fresh('server'), await fresh('client')]) {
      await get(lane, url, key);
      expect((await measured(lane, () => get(lane, url, key))).lane).toBe(1);
      await lane.revoke(key);
      for (let i = 0; i < 2; i++) {
        const refused = await measured(lane, () => get(lane, url, key));
        expect([refused.res.status, refused.lane, refused.res.body]).toEqual([401, 0, revoked]);
      }
    }
  });

  it('refuses a key revoked elsewhere once the notification arrives (as the CLI revokes)', async () => {
    const url = checkUrl('sandbox', customer('sandbox'));
    const key = await fresh('client');
    await get(lane, url, key);
    expect((await measured(lane, () => get(lane, url, key))).lane).toBe(1);
    await revokeKey(database.db, systemClock, key);
    const deadline = Date.now() + 3_000;
    let res = await get(lane, url, key);
    while (res.status === 200 && Date.now() < deadline) res = await get(lane, url, key);
    expect([res.status, res.body]).toEqual([401, revoked]);
  });

  it('refuses another environment’s key, a partner key and no key with 401, as Fastify does', async () => {
    const customerId = customer('sandbox');
    expectStatus(await get(lane, checkUrl('sandbox', customerId), org.sandbox.serverKey), 200);
    // Every key below is in the lane server's key cache (an unknown customer: 404).
    for (const key of [org.production.serverKey, org.production.clientKey]) expectStatus(await get(lane, checkUrl('production', uniqueId('nobody')), key), 404);
    const partner = await lane.createPartnerKey();
    const cases: Array<[string | null, string]> = [
      [org.production.serverKey, checkUrl('sandbox', customerId)],
      [org.production.clientKey, checkUrl('sandbox', customerId)],
      [org.sandbox.serverKey, checkUrl('production', customerId)],
      [partner, checkUrl('sandbox', customerId)],
      [partner, checkUrl('sandbox', customerId)],
      [null, checkUrl('sandbox', customerId)],
    ];
    for (const [key, url] of cases) {
      const refused = await measured(lane, () => get(lane, url, key));
      const fastify = await get(off, url, key);
      expect([refused.res.status, refused.lane, refused.res.body.code], `${key} ${url}`).toEqual([401, 0, 'unauthorized']);
      expect(refused.res.body).toEqual(fastify.body);
    }
  });
});

describe('a request the lane has answered before', () => {
  it('is judged again by its host: the same URL and key from another host name is that host’s environment', async () => {
    const hosts = await startTestServer({ env: { ...ENV, BILLOW_HOST_ENVIRONMENTS: 'sandbox.test=sandbox' }, database });
    try {
      const customerId = customer('sandbox');
      const url = `/api/v1/entitlements?customer_id=${customerId}`;
      const key = org.sandbox.serverKey;
      const asSandbox = () => get(hosts, url, key, { host: 'sandbox.test' });
      expectStatus(await asSandbox(), 200);
      const again = await measured(hosts, asSandbox);
      expect([again.res.status, again.lane]).toEqual([200, 1]);
      // The same request line and key, from a host name that is production's: the sandbox key is refused.
      const elsewhere = await measured(hosts, () => get(hosts, url, key, { host: 'api.test' }));
      expect([elsewhere.res.status, elsewhere.lane, elsewhere.res.body.code]).toEqual([401, 0, 'unauthorized']);
      expect((await measured(hosts, asSandbox)).lane).toBe(1);
    } finally {
      await hosts.close();
    }
  });
});

describe('requests the lane does not take', () => {
  let customerId: string;
  let plain: Response;
  beforeAll(async () => {
    customerId = customer('sandbox');
    const url = checkUrl('sandbox', customerId);
    for (const server of [lane, off]) expectStatus(await get(server, url, org.sandbox.serverKey), 200);
    const served = await measured(lane, () => get(lane, url, org.sandbox.serverKey));
    expect(served.lane).toBe(1);
    plain = served.res;
  });

  it.each([
    ['an unknown parameter', (c: string) => `?customer_id=${c}&utm_source=mail`, 200],
    ['customer_id twice', (c: string) => `?customer_id=${c}&customer_id=${c}`, 400],
    ['customer_id and customerId', (c: string) => `?customer_id=${c}&customerId=${c}`, 400],
    ['an empty customer_id', () => '?customer_id=', 400],
    ['a 256-character customer_id', () => `?customer_id=${'c'.repeat(256)}`, 400],
    ['an empty feature_id', (c: string) => `?customer_id=${c}&feature_id=`, 400],
    ['no query', () => '', 400],
    ['%00 in the query', (c: string) => `?customer_id=${c}%00`, 400],
    ['%00 in the path', (c: string) => `%00?customer_id=${c}`, 400],
  ] as const)('%s: Fastify’s answer', async (_label, query, status) => {
    const url = `/sandbox/api/v1/entitlements${query(customerId)}`;
    const res = await measured(lane, () => get(lane, url, org.sandbox.serverKey));
    const fastify = await get(off, url, org.sandbox.serverKey);
    expect([res.res.status, res.lane, fastify.status]).toEqual([status, 0, status]);
    expect(res.res.body).toEqual(fastify.body);
    if (status === 200) expect(res.res.text).toBe(plain.text);
    if (url.includes('%00')) expect(res.res.body.code).toBe('invalid_character');
  });

  it('a doubled slash, a differently cased path and a HEAD: Fastify’s answer', async () => {
    const cases: Array<[string, string, number]> = [
      ['GET', `/sandbox//api/v1/entitlements?customer_id=${customerId}`, 200],
      ['GET', `/sandbox/api/v1/Entitlements?customer_id=${customerId}`, 404],
      ['HEAD', `/sandbox/api/v1/entitlements?customer_id=${customerId}`, 200],
    ];
    for (const [method, url, status] of cases) {
      const res = await measured(lane, () => lane.request(method, url, { key: org.sandbox.serverKey }));
      const fastify = await off.request(method, url, { key: org.sandbox.serverKey });
      expect([res.res.status, res.lane], `${method} ${url}`).toEqual([status, 0]);
      expect({ ...shape(res.res), limit: null }).toEqual({ ...shape(fastify), limit: null });
    }
  });

  it('a camelCase customerId, or a feature the customer lacks, is a plain check: served by the lane', async () => {
    const camel = await measured(lane, () => get(lane, `/sandbox/api/v1/entitlements?customerId=${customerId}`, org.sandbox.serverKey));
    expect([camel.res.status, camel.lane, camel.res.text]).toEqual([200, 1, plain.text]);
    const url = `${checkUrl('sandbox', customerId)}&feature_id=${uniqueId('nope')}`;
    const lacking = await measured(lane, () => get(lane, url, org.sandbox.serverKey));
    expect([lacking.res.status, lacking.lane, lacking.res.body]).toEqual([200, 1, { customerId, entitlements: [] }]);
    expect(shape(lacking.res)).toEqual(shape(await get(off, url, org.sandbox.serverKey)));
  });
});

describe('X-Request-Id on a lane answer', () => {
  it('echoes a valid one and replaces one with spaces or of 200 characters with a UUID, as Fastify does', async () => {
    const url = checkUrl('sandbox', customer('sandbox'));
    expectStatus(await get(lane, url, org.sandbox.serverKey), 200);
    for (const id of ['trace.lane-1:ok/2=+@', 'not a valid id', 'x'.repeat(200)]) {
      const res = await measured(lane, () => get(lane, url, org.sandbox.serverKey, { 'x-request-id': id }));
      const fastify = await get(off, url, org.sandbox.serverKey, { 'x-request-id': id });
      const expected = id.startsWith('trace') ? id : expect.stringMatching(UUID);
      expect([res.res.status, res.lane, res.res.headers.get('x-request-id'), fastify.headers.get('x-request-id')]).toEqual([200, 1, expected, expected]);
      expect(requestLines(res.res)).toHaveLength(1);
    }
  });
});

describe('a promotion in and out of the lane', () => {
  const visit = (server: TestServer, promotionId: string, from: keyof typeof IP) =>
    server.request('GET', `/sandbox/api/v1/promotions?promotion_id=${promotionId}`, {
      key: org.sandbox.clientKey,
      headers: { 'x-forwarded-for': IP[from], 'user-agent': BROWSER },
    });

  it('answers the caller’s country from the cache, as Fastify does; an unknown one stays 404', async () => {
    const created = await lane.request('POST', '/sandbox/api/v1/promotion-rules/', {
      key: org.sandbox.serverKey,
      body: {
        name: uniqueId('PPP'),
        productId: seeds.sandbox.productId,
        pppDiscounts: [1, 2, 3, 4, 5].map((group) => ({ group, percentage: (group - 1) * 10 })),
        countryOverrides: [{ countryCode: 'in', percentage: 55 }],
        couponCode: 'PPP-2026',
      },
    });
    const id = expectStatus(created, 201).body.id as string;
    const first = await measured(lane, () => visit(lane, id, 'DE'));
    const second = await measured(lane, () => visit(lane, id, 'DE'));
    const india = await measured(lane, () => visit(lane, id, 'IN'));
    await visit(off, id, 'IN');
    const fastify = await visit(off, id, 'IN');
    expect([first.lane, second.lane, india.lane]).toEqual([0, 1, 1]);
    expect(first.res.body).toMatchObject({ countryCode: 'DE', country: 'Germany', percentage: 10, code: 'PPP-2026' });
    expect(india.res.body).toMatchObject({ countryCode: 'IN', country: 'India', percentage: 55, code: 'PPP-2026' });
    expect(shape(second.res)).toEqual(shape(first.res));
    expect(shape(india.res)).toEqual(shape(fastify));

    const unknown = randomUUID();
    for (let i = 0; i < 2; i++) {
      const missing = await measured(lane, () => visit(lane, unknown, 'DE'));
      expect([missing.res.status, missing.lane, missing.res.body.code]).toEqual([404, 0, 'promotion_not_found']);
    }
  });
});
