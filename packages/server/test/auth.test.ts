import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authCases, runAuthCase, type AuthCase } from './auth-matrix.js';
import { startTestServer, type TestOrg, type TestServer } from './harness.js';
import { createEnvironmentKey } from '../src/modules/tenancy/service.js';
import { systemClock } from '../src/lib/clock.js';
import { signedInMember } from './accounts-support.js';

let server: TestServer;
let org: TestOrg;
let cases: AuthCase[];

beforeAll(async () => {
  server = await startTestServer();
  org = await server.createOrg();
  const doomed = {
    sandbox: (await createEnvironmentKey(server.database.db, systemClock, org.organizationId, 'sandbox', 'server')).key,
    production: (await createEnvironmentKey(server.database.db, systemClock, org.organizationId, 'production', 'server'))
      .key,
    partner: await server.createPartnerKey(),
  };
  for (const key of Object.values(doomed)) {
    // Used once first, so the revocation must also reach the key cache.
    await server.request('GET', '/api/v1/customers/', { key });
    await server.revoke(key);
  }
  const owner = await signedInMember(server, org, 'owner');
  cases = authCases(server.app.billow.routes, org, doomed, await server.createPartnerKey(), owner);
});
afterAll(() => server.close());

describe('the authentication matrix', () => {
  it('covers every non-public route', () => {
    const protectedRoutes = server.app.billow.routes.filter((r) => r.auth !== 'public');
    expect(protectedRoutes.length).toBeGreaterThanOrEqual(9);
    for (const route of protectedRoutes) {
      expect(cases.some((c) => c.name.includes(` ${route.url} `))).toBe(true);
    }
  });

  it('answers each case as the route declares', async () => {
    const failures: string[] = [];
    for (const c of cases) {
      const { status, body } = await runAuthCase(server, c);
      // A key the route accepts may still meet a rule of the environment: test clocks are sandbox only (403 with their own code).
      const refusedByEnvironment = status === 403 && body?.code === 'test_clocks_sandbox_only';
      const ok = c.expected === 'accepted' ? refusedByEnvironment || (status !== 401 && status !== 403) : status === c.expected;
      if (!ok) failures.push(`${c.name}: expected ${c.expected}, got ${status} ${JSON.stringify(body)}`);
      if (status === 401 || status === 403) {
        if (typeof body?.detail !== 'string' || typeof body?.code !== 'string') {
          failures.push(`${c.name}: error body lacks detail/code: ${JSON.stringify(body)}`);
        }
      }
    }
    expect(failures).toEqual([]);
  });

  it('tells a caller which base URL an environment key belongs to', async () => {
    const res = await server.request('GET', '/api/v1/customers/', { key: org.sandbox.serverKey });
    expect(res.status).toBe(401);
    expect(res.body.detail).toMatch(/sandbox/);
  });

  it('authenticates before validating, so a bad body without a key is 401', async () => {
    const res = await server.request('POST', '/api/v1/customers/', { rawBody: '{nope', headers: { 'content-type': 'application/json' } });
    expect(res.status).toBe(401);
  });

  it('keeps in memory the secrets of keys that exist, never the guessed ones', async () => {
    const cache = server.app.billow.keyCache;
    cache.clear();
    const before = cache.rememberedSecrets;
    for (let i = 0; i < 50; i++) {
      const res = await server.request('GET', '/sandbox/api/v1/customers/', { key: `sk_test_guess${i}${'x'.repeat(2000)}` });
      expect(res.status).toBe(401);
    }
    expect(cache.rememberedSecrets).toBe(before);
    const real = await server.request('GET', '/sandbox/api/v1/customers/', { key: org.sandbox.serverKey });
    expect(real.status).toBe(200);
    expect(cache.has(org.sandbox.serverKey)).toBe(true);
    expect(cache.rememberedSecrets).toBeLessThanOrEqual(before + 1);
    expect(cache.rememberedSecrets).toBeGreaterThanOrEqual(1);
  });

  it('never stores keys in the clear', async () => {
    const rows = await server.database.db.selectFrom('api_keys').select(['key_hash', 'prefix']).execute();
    const secrets = [org.sandbox.serverKey, org.sandbox.clientKey, org.production.serverKey, org.production.clientKey];
    for (const row of rows) {
      expect(secrets).not.toContain(row.key_hash);
      expect(row.key_hash).toMatch(/^[0-9a-f]{64}$/);
      expect(secrets.some((s) => s === row.prefix)).toBe(false);
    }
  });
});
