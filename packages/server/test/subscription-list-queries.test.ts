import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../src/db/connect.js';
import { shop, type Shop } from './commerce-support.js';
import { openTestDatabase, startTestServer, type TestServer } from './harness.js';

/** A page of subscriptions is read in a constant number of queries, however long the page. */
let database: DatabaseHandle;
let server: TestServer;
let s: Shop;
let customerId: string;
let queries = 0;

beforeAll(async () => {
  database = await openTestDatabase({ onQuery: () => queries++ });
  // Keys stay cached for the whole file: with the default 5 s, a key could expire between
  // the warm-up call and a measured one on a loaded machine, and count one more query.
  server = await startTestServer({ database, env: { BILLOW_KEY_CACHE_TTL_MS: '3600000' } });
  const org = await server.createOrg();
  s = await shop(server, org.sandbox.serverKey);
  customerId = await s.customer();
  await s.card(customerId);
  // One-time purchases are listed with subscriptions; a few subscriptions with priced seats among them.
  for (let i = 0; i < 95; i++) {
    const res = await s.call('POST', '/charges/', { planIdentifier: s.plans.lifetime, chargePeriod: 'ONE_TIME', customerId });
    expect(res.status).toBe(201);
  }
  for (let i = 0; i < 5; i++) {
    const body = { planIdentifier: s.plans.seats, chargePeriod: 'MONTHLY', customerId, features: [{ identifier: s.seats.identifier, quantity: i + 1 }] };
    expect((await s.call('POST', '/subscriptions/create/', body)).status).toBe(201);
  }
});
afterAll(async () => {
  await server.close();
  await database.close();
});

async function queriesFor(pageSize: number): Promise<{ count: number; listed: number }> {
  // The key is cached by the first call, so both pages cost the same to authenticate.
  await s.call('GET', `/subscriptions/?customer_id=${customerId}&page_size=1`);
  queries = 0;
  const res = await s.call('GET', `/subscriptions/?customer_id=${customerId}&page_size=${pageSize}`);
  expect(res.status).toBe(200);
  return { count: queries, listed: res.body.results.length };
}

describe('GET /subscriptions/', () => {
  it('reads a page of 100 in as many queries as a page of 5, each shown as when retrieved alone', async () => {
    const small = await queriesFor(5);
    const large = await queriesFor(100);
    expect(small.listed).toBe(5);
    expect(large.listed).toBe(100);
    expect(large.count).toBe(small.count);
    expect(large.count).toBeLessThanOrEqual(12);
    const page = await s.call('GET', `/subscriptions/?customer_id=${customerId}&page_size=100`);
    for (const listed of [...page.body.results.slice(0, 6), page.body.results.at(-1)]) {
      expect(listed).toEqual((await s.call('GET', `/subscriptions/${listed.id}/`)).body);
    }
    expect(page.body.results[0].plan.identifier).toBe(s.plans.seats);
  });
});
