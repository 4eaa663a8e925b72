import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestOrg, type TestServer } from './harness.js';
import { apiOf, createCustomer, createEndpoint, logsOf, type Api } from './webhook-fixtures.js';
import { Receiver } from './webhook-support.js';

let server: TestServer;
let org: TestOrg;
let production: Api;
let receiver: Receiver;

beforeAll(async () => {
  server = await startTestServer({ env: { BILLOW_WEBHOOK_TIMEOUT_MS: '10000', BILLOW_WEBHOOK_RETRY_SCHEDULE: '1h' } });
  org = await server.createOrg();
  production = apiOf(server, org, 'production');
  receiver = await Receiver.start();
});
afterAll(async () => {
  await receiver?.close();
  await server?.close();
});

describe('production endpoint urls', () => {
  it.each([
    ['http (not https)', 'http://93.184.215.14/hook'],
    ['IPv4 loopback', 'https://127.0.0.1/hook'],
    ['IPv4 loopback, short form', 'https://127.1/hook'],
    ['IPv4 loopback, as a number', 'https://2130706433/hook'],
    ['a private address', 'https://10.0.0.5/hook'],
    ['a private address (192.168)', 'https://192.168.1.1/hook'],
    ['the cloud metadata address', 'https://169.254.169.254/latest/meta-data/'],
    ['the unspecified address', 'https://0.0.0.0/hook'],
    ['IPv6 loopback', 'https://[::1]/hook'],
    ['IPv4 loopback mapped into IPv6', 'https://[::ffff:127.0.0.1]/hook'],
    ['IPv4 loopback in an IPv4-compatible IPv6 address', 'https://[::127.0.0.1]/hook'],
    ['IPv4 loopback in an IPv4-compatible IPv6 address, hex', 'https://[::7f00:1]/hook'],
    ['a private address in an IPv4-compatible IPv6 address', 'https://[::a00:1]/hook'],
    ['the metadata address in an IPv4-compatible IPv6 address', 'https://[::a9fe:a9fe]/hook'],
    ['NAT64 of loopback', 'https://[64:ff9b::7f00:1]/hook'],
    ['6to4 of loopback', 'https://[2002:7f00:1::1]/hook'],
    ['an IPv6 unique local address', 'https://[fd00::1]/hook'],
    ['an IPv6 link-local address', 'https://[fe80::1]/hook'],
    ['a name that resolves to loopback', 'https://localhost/hook'],
    ['a name that resolves to loopback, port given', 'https://localhost:8443/hook'],
  ])('refuses %s with 400', async (_name, url) => {
    const res = await production('POST', '/webhook/endpoints/', { url });
    expect(res.status, res.text).toBe(400);
    expect(res.body.detail).toMatch(/https|loopback|private|linkLocal|unspecified|uniqueLocal|public/i);
    expect(res.body.code).toBe('webhook_url_refused');
  });

  it('refuses them on update too, and keeps the url', async () => {
    const endpoint = await createEndpoint(production, { url: 'https://93.184.215.14/hook', enabled: false });
    for (const url of ['https://127.0.0.1/hook', 'https://localhost/hook', 'http://93.184.215.14/hook', 'https://[::7f00:1]/hook', 'https://[::a9fe:a9fe]/hook']) {
      const res = await production('PATCH', `/webhook/endpoints/${endpoint.id}/`, { url });
      expect(res.status, res.text).toBe(400);
    }
    expect((await production('GET', `/webhook/endpoints/${endpoint.id}/`)).body.url).toBe('https://93.184.215.14/hook');
    expect((await production('DELETE', `/webhook/endpoints/${endpoint.id}/`)).status).toBe(204);
  });

  it('accepts a public https address; the sandbox takes http and loopback', async () => {
    const sandbox = apiOf(server, org, 'sandbox');
    for (const url of ['http://127.0.0.1:9/hook', 'http://localhost:9/hook', 'https://[::1]:9/hook', 'http://10.0.0.5/hook']) {
      const created = await sandbox('POST', '/webhook/endpoints/', { url, enabled: false });
      expect(created.status, `${url}: ${created.text}`).toBe(201);
      await sandbox('DELETE', `/webhook/endpoints/${created.body.id}/`);
    }
    const created = await production('POST', '/webhook/endpoints/', { url: 'https://93.184.215.14:8443/hook', enabled: false });
    expect(created.status, created.text).toBe(201);
    await production('DELETE', `/webhook/endpoints/${created.body.id}/`);
  });
});

describe('production delivery', () => {
  it('refuses, at delivery time, an endpoint whose address became loopback, and reaches nothing', async () => {
    const port = new URL(receiver.url).port;
    const moved = [`https://127.0.0.1:${port}/hook`, `http://127.0.0.1:${port}/hook`, `https://localhost:${port}/hook`, `https://[::1]:${port}/hook`];
    const endpoints: string[] = [];
    for (const url of moved) {
      // Created with a public address; the stored url then changes (as if its DNS now pointed home).
      const endpoint = await createEndpoint(production, { url: 'https://93.184.215.14/hook' });
      await server.database.db.updateTable('webhook_endpoints').set({ url }).where('id', '=', endpoint.id).execute();
      endpoints.push(endpoint.id);
    }
    await createCustomer(production, 'ssrf');
    await server.deliverWebhooks();
    expect(receiver.connections).toBe(0);
    expect(receiver.received).toEqual([]);
    const logs = await logsOf(production);
    expect(logs.map((l) => l.endpoint).sort()).toEqual([...endpoints].sort());
    for (const log of logs) {
      expect(log).toMatchObject({ isSuccess: false, statusCode: null, retryCount: 0 });
      const detail = (await production('GET', `/webhook/logs/${log.id}/`)).body;
      expect(detail.error, detail.url).toMatch(/loopback|https/);
    }
    for (const id of endpoints) await production('DELETE', `/webhook/endpoints/${id}/`);
  });
});

describe('sandbox endpoints on an installation that keeps them public (BILLOW_WEBHOOK_SANDBOX_PRIVATE_TARGETS=false)', () => {
  let shared: TestServer;
  let sandbox: Api;
  beforeAll(async () => {
    shared = await startTestServer({
      env: { BILLOW_WEBHOOK_TIMEOUT_MS: '10000', BILLOW_WEBHOOK_RETRY_SCHEDULE: '1h', BILLOW_WEBHOOK_SANDBOX_PRIVATE_TARGETS: 'false' },
    });
    sandbox = apiOf(shared, await shared.createOrg(), 'sandbox');
  });
  afterAll(() => shared?.close());

  it('refuses private and local addresses, still takes http to a public one', async () => {
    for (const url of ['http://127.0.0.1:9/hook', 'http://localhost:9/hook', 'http://[::1]:9/hook', 'http://10.0.0.5/hook', 'http://[::7f00:1]/hook']) {
      const res = await sandbox('POST', '/webhook/endpoints/', { url });
      expect(res.status, `${url}: ${res.text}`).toBe(400);
      expect(res.body.detail).toMatch(/sandbox endpoints of this installation must be public/);
    }
    const created = await sandbox('POST', '/webhook/endpoints/', { url: 'http://93.184.215.14/hook', enabled: false });
    expect(created.status, created.text).toBe(201);
    const moved = await sandbox('PATCH', `/webhook/endpoints/${created.body.id}/`, { url: 'http://localhost:9/hook' });
    expect(moved.status, moved.text).toBe(400);
    await sandbox('DELETE', `/webhook/endpoints/${created.body.id}/`);
  });

  it('delivers nothing to, and shows nothing of, a local service whose address an endpoint came to have', async () => {
    const port = new URL(receiver.url).port;
    const endpoint = await createEndpoint(sandbox, { url: 'http://93.184.215.14/hook' });
    await shared.database.db.updateTable('webhook_endpoints').set({ url: `http://localhost:${port}/hook` }).where('id', '=', endpoint.id).execute();
    const before = receiver.connections;
    await createCustomer(sandbox, 'ssrf-sandbox');
    await shared.deliverWebhooks();
    expect(receiver.connections).toBe(before);
    const [log] = await logsOf(sandbox);
    const detail = (await sandbox('GET', `/webhook/logs/${log!.id}/`)).body;
    expect(detail).toMatchObject({ statusCode: null });
    expect(detail.error).toMatch(/loopback/);
    await sandbox('DELETE', `/webhook/endpoints/${endpoint.id}/`);
  });
});
