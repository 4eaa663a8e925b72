import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../src/lib/clock.js';
import { startTestServer, uniqueId, type TestOrg, type TestServer } from './harness.js';

let server: TestServer;
let org: TestOrg;
const clock = new ManualClock(new Date('2026-11-21T10:00:00Z'));

beforeAll(async () => {
  server = await startTestServer({ clock });
  org = await server.createOrg();
});
afterAll(() => server.close());

const create = (idempotencyKey: string, body: unknown, environment: 'sandbox' | 'production' = 'sandbox') =>
  server.request('POST', `${environment === 'sandbox' ? '/sandbox' : ''}/api/v1/customers/`, {
    key: org[environment].serverKey,
    body,
    headers: { 'idempotency-key': idempotencyKey },
  });

async function countWith(customerIdPrefix: string): Promise<number> {
  const res = await server.request('GET', `/sandbox/api/v1/customers/?search=${customerIdPrefix}`, { key: org.sandbox.serverKey });
  return res.body.count;
}

describe('Idempotency-Key', () => {
  it('replays the first response for the same key and body', async () => {
    const key = uniqueId('idem');
    const customerId = uniqueId('replay');
    const first = await create(key, { customerId, name: 'Once' });
    expect(first.status).toBe(201);
    const second = await create(key, { customer_id: customerId, name: 'Once' });
    expect(second.status).toBe(201);
    expect(second.body).toEqual(first.body);
    expect(second.headers.get('idempotent-replayed')).toBe('true');
    expect(await countWith(customerId)).toBe(1);
  });

  it('refuses the same key with a different body with 409', async () => {
    const key = uniqueId('idem');
    const customerId = uniqueId('conflict');
    expect((await create(key, { customerId })).status).toBe(201);
    const other = await create(key, { customerId, name: 'Different' });
    expect(other.status).toBe(409);
    expect(other.body.code).toBe('idempotency_key_reused');
    const stored = await server.request('GET', `/sandbox/api/v1/customers/${customerId}/`, { key: org.sandbox.serverKey });
    expect(stored.body.name).toBeNull();
  });

  it('executes concurrent requests with one key once, and answers them all alike', async () => {
    const key = uniqueId('idem');
    const customerId = uniqueId('race');
    const responses = await Promise.all(Array.from({ length: 12 }, () => create(key, { customerId })));
    expect(responses.map((r) => r.status)).toEqual(Array(12).fill(201));
    expect(new Set(responses.map((r) => r.body.id)).size).toBe(1);
    expect(await countWith(customerId)).toBe(1);
  });

  it('replays a business error too', async () => {
    const customerId = uniqueId('taken');
    expect((await create(uniqueId('idem'), { customerId })).status).toBe(201);
    const key = uniqueId('idem');
    const first = await create(key, { customerId });
    expect(first.status).toBe(409);
    const again = await create(key, { customerId });
    expect(again.status).toBe(409);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
  });

  it('scopes keys to the environment', async () => {
    const key = uniqueId('idem');
    const customerId = uniqueId('scoped');
    const sandbox = await create(key, { customerId }, 'sandbox');
    const production = await create(key, { customerId }, 'production');
    expect(sandbox.status).toBe(201);
    expect(production.status).toBe(201);
    expect(production.body.id).not.toBe(sandbox.body.id);
  });

  it('forgets a key after 24 hours', async () => {
    const key = uniqueId('idem');
    expect((await create(key, { customerId: uniqueId('day1') })).status).toBe(201);
    clock.advance(23 * 60 * 60 * 1000);
    expect((await create(key, { customerId: uniqueId('day1b') })).status).toBe(409);
    clock.advance(2 * 60 * 60 * 1000);
    const later = await create(key, { customerId: uniqueId('day2') });
    expect(later.status).toBe(201);
    expect(later.headers.get('idempotent-replayed')).toBeNull();
  });

  it('refuses an over-long key', async () => {
    const res = await create('k'.repeat(300), { customerId: uniqueId('long') });
    expect(res.status).toBe(400);
    expect(res.body.detail).toMatch(/Idempotency-Key/);
  });
});
