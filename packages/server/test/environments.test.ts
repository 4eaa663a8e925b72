import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, uniqueId, type TestOrg, type TestServer } from './harness.js';

let server: TestServer;
let org: TestOrg;

beforeAll(async () => {
  server = await startTestServer();
  org = await server.createOrg();
});
afterAll(() => server.close());

describe('environment isolation', () => {
  it('keeps a sandbox customer out of production and a production customer out of sandbox', async () => {
    const sandboxId = uniqueId('sbx');
    const productionId = uniqueId('prd');
    expect(
      (await server.request('POST', '/sandbox/api/v1/customers/', { key: org.sandbox.serverKey, body: { customerId: sandboxId } })).status,
    ).toBe(201);
    expect(
      (await server.request('POST', '/api/v1/customers/', { key: org.production.serverKey, body: { customerId: productionId } })).status,
    ).toBe(201);

    expect((await server.request('GET', `/api/v1/customers/${sandboxId}/`, { key: org.production.serverKey })).status).toBe(404);
    expect((await server.request('GET', `/sandbox/api/v1/customers/${productionId}/`, { key: org.sandbox.serverKey })).status).toBe(404);

    const productionList = await server.request('GET', '/api/v1/customers/?page_size=100', { key: org.production.serverKey });
    const sandboxList = await server.request('GET', '/sandbox/api/v1/customers/?page_size=100', { key: org.sandbox.serverKey });
    expect(productionList.body.results.map((c: any) => c.customerId)).toEqual([productionId]);
    expect(sandboxList.body.results.map((c: any) => c.customerId)).toEqual([sandboxId]);
  });

  it('lets the same customerId exist once in each environment', async () => {
    const customerId = uniqueId('both');
    for (const [prefix, key] of [
      ['/sandbox', org.sandbox.serverKey],
      ['', org.production.serverKey],
    ] as const) {
      const res = await server.request('POST', `${prefix}/api/v1/customers/`, { key, body: { customerId, name: prefix || 'prod' } });
      expect(res.status).toBe(201);
    }
    const sandbox = await server.request('GET', `/sandbox/api/v1/customers/${customerId}/`, { key: org.sandbox.serverKey });
    expect(sandbox.body.name).toBe('/sandbox');
  });

  it("keeps one organization's customers from another's keys", async () => {
    const other = await server.createOrg();
    const customerId = uniqueId('mine');
    await server.request('POST', '/api/v1/customers/', { key: org.production.serverKey, body: { customerId } });
    expect((await server.request('GET', `/api/v1/customers/${customerId}/`, { key: other.production.serverKey })).status).toBe(404);
    const list = await server.request('GET', '/api/v1/customers/', { key: other.production.serverKey });
    expect(list.body.count).toBe(0);
  });
});

describe('environments chosen by host name', () => {
  let mapped: TestServer;
  beforeAll(async () => {
    mapped = await startTestServer({
      env: { BILLOW_HOST_ENVIRONMENTS: 'sandbox.billow.test=sandbox, api.billow.test=production' },
      database: server.database,
    });
  });
  afterAll(() => mapped.close());

  it('selects sandbox for a host mapped to it, production otherwise, and the prefix still wins', async () => {
    const customerId = uniqueId('host');
    const created = await mapped.request('POST', '/api/v1/customers/', {
      key: org.sandbox.serverKey,
      body: { customerId },
      headers: { host: 'sandbox.billow.test' },
    });
    expect(created.status).toBe(201);
    const viaPrefix = await mapped.request('GET', `/sandbox/api/v1/customers/${customerId}/`, {
      key: org.sandbox.serverKey,
      headers: { host: 'api.billow.test' },
    });
    expect(viaPrefix.status).toBe(200);
    const production = await mapped.request('GET', `/api/v1/customers/${customerId}/`, {
      key: org.sandbox.serverKey,
      headers: { host: 'api.billow.test' },
    });
    expect(production.status).toBe(401);
    const unknownHost = await mapped.request('GET', '/api/v1/customers/', {
      key: org.production.serverKey,
      headers: { host: 'elsewhere.test' },
    });
    expect(unknownHost.status).toBe(200);
  });
});
