import { randomUUID } from 'node:crypto';
import { validateEvent } from '@kelviq/node-sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, uniqueId, type TestOrg, type TestServer } from './harness.js';
import { apiOf, createCustomer, createEndpoint, logsOf, renameCustomer, type Api } from './webhook-fixtures.js';
import { Receiver } from './webhook-support.js';

let server: TestServer;
let org: TestOrg;
let sandbox: Api;
let production: Api;
const receivers: Receiver[] = [];

async function receiver(): Promise<Receiver> {
  const started = await Receiver.start();
  receivers.push(started);
  return started;
}

beforeAll(async () => {
  server = await startTestServer({ env: { BILLOW_WEBHOOK_TIMEOUT_MS: '5000', BILLOW_WEBHOOK_RETRY_SCHEDULE: '1h' } });
  org = await server.createOrg();
  sandbox = apiOf(server, org, 'sandbox');
  production = apiOf(server, org, 'production');
});
afterAll(async () => {
  await Promise.all(receivers.map((r) => r.close()));
  await server?.close();
});

/** A public address given as an IP literal: accepted in production without a DNS lookup. */
const PUBLIC_URL = 'https://93.184.215.14/hook';

describe('a sandbox endpoint', () => {
  it('receives customer.created, signed so that the official client accepts it', async () => {
    const hook = await receiver();
    const created = await sandbox('POST', '/webhook/endpoints/', { url: hook.url, description: 'local' });
    expect(created.status, created.text).toBe(201);
    expect(created.body.secret).toMatch(/^kq_whsec_/);
    const customerId = await createCustomer(sandbox);
    await server.deliverWebhooks();
    const [delivery] = hook.ofType('customer.created');
    expect(delivery).toBeDefined();
    const event = validateEvent(delivery!.body, delivery!.headers as Record<string, string>, created.body.secret);
    expect(event).toMatchObject({ type: 'customer.created', data: { object: { object: 'customer', customer_id: customerId } } });
    expect(delivery!.headers['webhook-id']).toBe(event.id);
    const logs = await logsOf(sandbox, `endpoint=${created.body.id}`);
    expect(logs[0]).toMatchObject({ eventId: event.id, isSuccess: true, statusCode: 200, retryCount: 0, eventType: 'customer.created' });
    expect((await sandbox('DELETE', `/webhook/endpoints/${created.body.id}/`)).status).toBe(204);
  });
});

describe('the endpoints API', () => {
  it('creates, lists, retrieves, updates and deletes; the secret shows only at creation', async () => {
    const created = await sandbox('POST', '/webhook/endpoints/', { url: 'http://127.0.0.1:9/a', description: 'crud' });
    expect(created.status, created.text).toBe(201);
    const { secret, ...endpoint } = created.body;
    expect(secret).toMatch(/^kq_whsec_[A-Za-z0-9+/]{43}=$/);
    expect(endpoint).toMatchObject({
      object: 'webhook_endpoint',
      url: 'http://127.0.0.1:9/a',
      description: 'crud',
      eventTypes: ['*'],
      enabled: true,
      disabledReason: null,
      standardSignature: false,
      previousSecretExpiresAt: null,
    });
    const got = await sandbox('GET', `/webhook/endpoints/${endpoint.id}/`);
    expect(got.status).toBe(200);
    expect(got.body).toEqual(endpoint);
    expect(got.text).not.toContain(secret);

    const list = await sandbox('GET', '/webhook/endpoints/');
    expect(list.status).toBe(200);
    expect(list.body.results.map((e: any) => e.id)).toContain(endpoint.id);
    expect(list.text).not.toContain(secret);
    expect(list.body.results.every((e: any) => !('secret' in e))).toBe(true);

    const patched = await sandbox('PATCH', `/webhook/endpoints/${endpoint.id}/`, {
      description: 'changed',
      eventTypes: ['customer.updated', 'order.created'],
      standardSignature: true,
    });
    expect(patched.status, patched.text).toBe(200);
    expect(patched.body).toMatchObject({ id: endpoint.id, url: endpoint.url, description: 'changed', eventTypes: ['customer.updated', 'order.created'], standardSignature: true });
    expect(patched.body).not.toHaveProperty('secret');
    const back = await sandbox('PATCH', `/webhook/endpoints/${endpoint.id}/`, { eventTypes: ['*'] });
    expect(back.body.eventTypes).toEqual(['*']);

    expect((await sandbox('DELETE', `/webhook/endpoints/${endpoint.id}/`)).status).toBe(204);
    expect((await sandbox('GET', `/webhook/endpoints/${endpoint.id}/`)).status).toBe(404);
    expect((await sandbox('DELETE', `/webhook/endpoints/${endpoint.id}/`)).status).toBe(404);
  });

  it('answers a repeated Idempotency-Key with the same endpoint and a null secret', async () => {
    const key = { 'idempotency-key': uniqueId('idem') };
    const body = { url: 'http://127.0.0.1:9/idem' };
    const first = await sandbox('POST', '/webhook/endpoints/', body, key);
    const again = await sandbox('POST', '/webhook/endpoints/', body, key);
    expect(first.status).toBe(201);
    expect(again.status).toBe(201);
    expect(again.body.id).toBe(first.body.id);
    expect(first.body.secret).toMatch(/^kq_whsec_/);
    expect(again.body.secret).toBeNull();
    expect(again.text).not.toContain(first.body.secret);
    const rotateKey = { 'idempotency-key': uniqueId('idem-rotate') };
    const rotated = await sandbox('POST', `/webhook/endpoints/${first.body.id}/rotate-secret/`, {}, rotateKey);
    const rotatedAgain = await sandbox('POST', `/webhook/endpoints/${first.body.id}/rotate-secret/`, {}, rotateKey);
    expect(rotated.status, rotated.text).toBe(200);
    expect(rotated.body.secret).toMatch(/^kq_whsec_/);
    expect(rotated.body.secret).not.toBe(first.body.secret);
    expect(rotatedAgain.body.secret).toBeNull();
    await sandbox('DELETE', `/webhook/endpoints/${first.body.id}/`);
  });

  it('sends each endpoint only the types it takes, and a disabled endpoint nothing', async () => {
    const [all, updatesOnly, disabled] = [await receiver(), await receiver(), await receiver()];
    const endpoints = [
      await createEndpoint(sandbox, { url: all.url }),
      await createEndpoint(sandbox, { url: updatesOnly.url, eventTypes: ['customer.updated'] }),
      await createEndpoint(sandbox, { url: disabled.url, enabled: false }),
    ];
    const customerId = await createCustomer(sandbox);
    await renameCustomer(sandbox, customerId, 'Renamed');
    await server.deliverWebhooks();
    expect(all.received.map((r) => r.json.type).sort()).toEqual(['customer.created', 'customer.updated']);
    expect(updatesOnly.received.map((r) => r.json.type)).toEqual(['customer.updated']);
    expect(updatesOnly.received[0]!.json.data.object.customer_id).toBe(customerId);
    expect(disabled.received).toEqual([]);
    for (const e of endpoints) await sandbox('DELETE', `/webhook/endpoints/${e.id}/`);
  });

  it('refuses bad input with 400 and a detail, creating nothing', async () => {
    const before = (await sandbox('GET', '/webhook/endpoints/')).body.count;
    const bad: Array<[string, unknown]> = [
      ['no url', { description: 'x' }],
      ['not a url', { url: 'not a url' }],
      ['a relative url', { url: '/hook' }],
      ['ftp', { url: 'ftp://example.com/hook' }],
      ['credentials in the url', { url: 'http://user:pass@127.0.0.1:9/hook' }],
      ['a user name in the url', { url: 'https://user@example.com/hook' }],
      ['an unknown event type', { url: 'http://127.0.0.1:9/x', eventTypes: ['customer.exploded'] }],
      ['an empty list of types', { url: 'http://127.0.0.1:9/x', eventTypes: [] }],
      ['types given twice', { url: 'http://127.0.0.1:9/x', eventTypes: ['customer.created', 'customer.created'] }],
      ['an extra field', { url: 'http://127.0.0.1:9/x', secret: 'kq_whsec_mine' }],
      ['a description too long', { url: 'http://127.0.0.1:9/x', description: 'd'.repeat(501) }],
      ['a url too long', { url: `http://127.0.0.1:9/${'p'.repeat(2100)}` }],
      ['enabled not a boolean', { url: 'http://127.0.0.1:9/x', enabled: 'yes' }],
      ['not an object', ['http://127.0.0.1:9/x']],
    ];
    for (const [name, body] of bad) {
      const res = await sandbox('POST', '/webhook/endpoints/', body);
      expect(res.status, `${name}: ${res.text}`).toBe(400);
      expect(typeof res.body.detail, name).toBe('string');
    }
    const endpoint = await createEndpoint(sandbox, { url: 'http://127.0.0.1:9/patch' });
    for (const [name, body] of [
      ['ftp', { url: 'ftp://example.com/hook' }],
      ['credentials', { url: 'http://a:b@127.0.0.1:9/' }],
      ['an unknown type', { eventTypes: ['nope'] }],
      ['an extra field', { secret: 'x' }],
      ['too long', { description: 'd'.repeat(501) }],
    ] as const) {
      const res = await sandbox('PATCH', `/webhook/endpoints/${endpoint.id}/`, body);
      expect(res.status, `${name}: ${res.text}`).toBe(400);
      expect(typeof res.body.detail).toBe('string');
    }
    expect((await sandbox('GET', `/webhook/endpoints/${endpoint.id}/`)).body.url).toBe('http://127.0.0.1:9/patch');
    for (const [name, body] of [
      ['too long a grace period', { gracePeriodHours: 1000 }],
      ['a negative grace period', { gracePeriodHours: -1 }],
      ['an extra field', { grace: 1 }],
    ] as const) {
      const res = await sandbox('POST', `/webhook/endpoints/${endpoint.id}/rotate-secret/`, body);
      expect(res.status, `${name}: ${res.text}`).toBe(400);
    }
    await sandbox('DELETE', `/webhook/endpoints/${endpoint.id}/`);
    expect((await sandbox('GET', '/webhook/endpoints/')).body.count).toBe(before);
  });

  it('answers 404, never 500, for ids that are unknown, malformed, or another environment’s or organization’s', async () => {
    const other = await server.createOrg();
    const otherApi = apiOf(server, other, 'sandbox');
    const hook = await receiver();
    const theirs = await createEndpoint(otherApi, { url: hook.url });
    await createCustomer(otherApi);
    await server.deliverWebhooks();
    const [theirLog] = await logsOf(otherApi);
    expect(theirLog).toBeDefined();
    const mine = await createEndpoint(sandbox, { url: 'http://127.0.0.1:9/mine' });

    const ids = [randomUUID(), 'not-an-id', '0', "1' OR '1'='1", '%00', 'x'.repeat(100), theirs.id];
    for (const id of ids) {
      const enc = encodeURIComponent(id);
      for (const [method, path, body] of [
        ['GET', `/webhook/endpoints/${enc}/`],
        ['PATCH', `/webhook/endpoints/${enc}/`, { description: 'x' }],
        ['DELETE', `/webhook/endpoints/${enc}/`],
        ['POST', `/webhook/endpoints/${enc}/rotate-secret/`, {}],
        ['POST', `/webhook/endpoints/${enc}/replay/`, { since: new Date(Date.now() - 60_000).toISOString() }],
        ['GET', `/webhook/logs/${enc}/`],
        ['POST', `/webhook/logs/${enc}/resend/`],
      ] as const) {
        const res = await sandbox(method, path, body);
        expect(res.status, `${method} ${path}: ${res.text}`).toBe(404);
      }
    }
    // The production environment of the same organization does not see the sandbox's endpoint.
    expect((await production('GET', `/webhook/endpoints/${mine.id}/`)).status).toBe(404);
    expect((await production('DELETE', `/webhook/endpoints/${mine.id}/`)).status).toBe(404);
    // Another organization's log is not found, and its filters find nothing of it.
    expect((await sandbox('GET', `/webhook/logs/${theirLog.id}/`)).status).toBe(404);
    expect(await logsOf(sandbox, `event_id=${theirLog.eventId}`)).toEqual([]);
    expect(await logsOf(sandbox, `endpoint=${theirs.id}`)).toEqual([]);
    expect(await logsOf(sandbox, 'endpoint=not-a-uuid')).toEqual([]);
    expect((await otherApi('GET', `/webhook/endpoints/${theirs.id}/`)).status).toBe(200);
    await sandbox('DELETE', `/webhook/endpoints/${mine.id}/`);
  });

  it('takes server keys only: a client key is 403, no key 401', async () => {
    const routes: Array<[string, string]> = [
      ['POST', '/webhook/endpoints/'],
      ['GET', '/webhook/endpoints/'],
      ['GET', `/webhook/endpoints/${randomUUID()}/`],
      ['PATCH', `/webhook/endpoints/${randomUUID()}/`],
      ['DELETE', `/webhook/endpoints/${randomUUID()}/`],
      ['POST', `/webhook/endpoints/${randomUUID()}/rotate-secret/`],
      ['POST', `/webhook/endpoints/${randomUUID()}/replay/`],
      ['GET', '/webhook/logs/'],
      ['GET', `/webhook/logs/${randomUUID()}/`],
      ['POST', `/webhook/logs/${randomUUID()}/resend/`],
    ];
    for (const [environment, prefix] of [['sandbox', '/sandbox'], ['production', '']] as const) {
      for (const [method, path] of routes) {
        const body = method === 'GET' || method === 'DELETE' ? undefined : { url: 'https://example.com/x' };
        const asClient = await server.request(method, `${prefix}/api/v1${path}`, { key: org[environment].clientKey, ...(body ? { body } : {}) });
        expect(asClient.status, `${environment} ${method} ${path}`).toBe(403);
        const anonymous = await server.request(method, `${prefix}/api/v1${path}`, body ? { body } : {});
        expect(anonymous.status, `${environment} ${method} ${path}`).toBe(401);
      }
    }
  });

  it('allows 16 endpoints per environment, and refuses the 17th', async () => {
    const crowded = await server.createOrg();
    const api = apiOf(server, crowded, 'sandbox');
    for (let i = 0; i < 16; i++) await createEndpoint(api, { url: `http://127.0.0.1:9/${i}` });
    const seventeenth = await api('POST', '/webhook/endpoints/', { url: 'http://127.0.0.1:9/17' });
    expect(seventeenth.status).toBe(409);
    expect(seventeenth.body.detail).toMatch(/16/);
    expect((await api('GET', '/webhook/endpoints/?page_size=100')).body.count).toBe(16);
    // The other environment has its own 16.
    expect((await apiOf(server, crowded, 'production')('POST', '/webhook/endpoints/', { url: PUBLIC_URL })).status).toBe(201);
    const first = (await api('GET', '/webhook/endpoints/?page_size=1')).body.results[0];
    expect((await api('DELETE', `/webhook/endpoints/${first.id}/`)).status).toBe(204);
    expect((await api('POST', '/webhook/endpoints/', { url: 'http://127.0.0.1:9/17' })).status).toBe(201);
  });
});

describe('environments', () => {
  it('keep their endpoints apart: a sandbox endpoint never gets production events, nor the other way round', async () => {
    const isolated = await server.createOrg();
    const sandboxApi = apiOf(server, isolated, 'sandbox');
    const productionApi = apiOf(server, isolated, 'production');
    const hook = await receiver();
    const sandboxEndpoint = await createEndpoint(sandboxApi, { url: hook.url });
    const productionEndpoint = await createEndpoint(productionApi, { url: PUBLIC_URL });
    const inSandbox = await createCustomer(sandboxApi, 'sandbox-side');
    const inProduction = await createCustomer(productionApi, 'production-side');

    // The production endpoint was given exactly the production event (it is not sent: no public receiver here).
    const queued = await server.database.db
      .selectFrom('webhook_deliveries as d')
      .innerJoin('events as e', 'e.id', 'd.event_id')
      .select(['d.endpoint_id', 'e.payload'])
      .where('d.endpoint_id', 'in', [sandboxEndpoint.id, productionEndpoint.id])
      .execute();
    const customersOf = (endpointId: string) =>
      queued.filter((d) => d.endpoint_id === endpointId).map((d) => (d.payload as any).data.object.customer_id);
    expect(customersOf(productionEndpoint.id)).toEqual([inProduction]);
    expect(customersOf(sandboxEndpoint.id)).toEqual([inSandbox]);
    expect((await productionApi('DELETE', `/webhook/endpoints/${productionEndpoint.id}/`)).status).toBe(204);

    await server.deliverWebhooks();
    expect(hook.received.map((r) => r.json.data.object.customer_id)).toEqual([inSandbox]);
    expect((await logsOf(productionApi)).length).toBe(0);
    expect((await logsOf(sandboxApi)).map((l) => l.endpoint)).toEqual([sandboxEndpoint.id]);
    expect((await productionApi('GET', '/webhook/endpoints/')).body.count).toBe(0);
    expect((await productionApi('GET', `/webhook/endpoints/${sandboxEndpoint.id}/`)).status).toBe(404);
  });
});

describe('dispatchers side by side', () => {
  it('make each delivery once: claims made at the same time never take the same one', async () => {
    const busy = await server.createOrg();
    const api = apiOf(server, busy, 'sandbox');
    const hook = await receiver();
    hook.fallback = { status: 200, delayMs: 5 };
    const endpoints = [await createEndpoint(api, { url: hook.url }), await createEndpoint(api, { url: hook.url })];
    for (let i = 0; i < 15; i++) await createCustomer(api, `busy${i}`);
    await Promise.all([server.deliverWebhooks(), server.deliverWebhooks(), server.deliverWebhooks()]);
    expect(hook.received).toHaveLength(30);
    const perEndpoint = new Set(hook.received.map((r) => `${r.headers['webhook-id']}`));
    expect(perEndpoint.size).toBe(15);
    const logs = await logsOf(api);
    expect(logs).toHaveLength(30);
    expect(new Set(logs.map((l) => `${l.endpoint}:${l.eventId}`)).size).toBe(30);
    for (const e of endpoints) await api('DELETE', `/webhook/endpoints/${e.id}/`);
  });
});
