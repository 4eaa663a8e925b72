import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemClock } from '../src/lib/clock.js';
import { revokeKey } from '../src/modules/tenancy/service.js';
import { startTestServer, type TestServer } from './harness.js';

let server: TestServer;

beforeAll(async () => {
  // A cache that would keep a key for ten minutes: only the notification can evict it.
  server = await startTestServer({ env: { BILLOW_KEY_CACHE_TTL_MS: '600000' } });
});
afterAll(() => server.close());

async function refusedWithin(ms: number, key: string): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if ((await server.request('GET', '/api/v1/customers/', { key })).status === 401) return true;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  return false;
}

describe('key revocation', () => {
  it('reaches a running server at once when revoked elsewhere (as the CLI does)', async () => {
    const org = await server.createOrg();
    const key = org.production.serverKey;
    expect((await server.request('GET', '/api/v1/customers/', { key })).status).toBe(200);
    // Straight through the database, not through this server: its cache learns only by notification.
    await revokeKey(server.database.db, systemClock, key);
    expect(await refusedWithin(3000, key)).toBe(true);
    expect((await server.request('GET', '/api/v1/customers/', { key: org.production.clientKey })).status).toBe(403);
  });
});
