import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, uniqueId, type TestServer } from './harness.js';

let server: TestServer;
let partnerKey: string;

beforeAll(async () => {
  server = await startTestServer();
  partnerKey = await server.createPartnerKey();
});
afterAll(() => server.close());

const provision = (body: unknown, key = partnerKey, header = 'x-kelviq-partner-key') =>
  server.request('POST', '/api/v1/partner/organizations/', { body, headers: { [header]: key } });
const get = (path: string, key = partnerKey) =>
  server.request('GET', `/api/v1/partner/organizations/${path}`, { headers: { 'x-billow-partner-key': key } });

describe('partner provisioning', () => {
  it('creates an organization whose keys work in both environments', async () => {
    const externalId = uniqueId('ext');
    const email = `${uniqueId('owner')}@example.com`;
    const res = await provision({ external_id: externalId, email, business_name: 'Acme Tools' });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      userId: null,
      organizationSlug: expect.stringMatching(/^acme-tools/),
      partnerExternalId: externalId,
      email,
      businessName: 'Acme Tools',
    });
    expect(res.body.serverKey).toMatch(/^sk_live_/);
    expect(res.body.clientKey).toMatch(/^ck_live_/);
    expect(res.body.sandboxServerKey).toMatch(/^sk_test_/);
    expect(res.body.sandboxClientKey).toMatch(/^ck_test_/);

    const production = await server.request('POST', '/api/v1/customers/', { key: res.body.serverKey, body: { customerId: 'p1' } });
    expect(production.status).toBe(201);
    const sandbox = await server.request('GET', '/sandbox/api/v1/customers/', { key: res.body.sandboxServerKey });
    expect(sandbox.status).toBe(200);
    expect(sandbox.body.count).toBe(0);
    const wrong = await server.request('GET', '/sandbox/api/v1/customers/', { key: res.body.serverKey });
    expect(wrong.status).toBe(401);
  });

  it('deduplicates slugs', async () => {
    const first = await provision({ externalId: uniqueId('ext'), email: `${uniqueId('a')}@example.com`, businessName: 'Same Name' });
    const second = await provision({ externalId: uniqueId('ext'), email: `${uniqueId('b')}@example.com`, businessName: 'Same Name' });
    expect(first.body.organizationSlug).not.toBe(second.body.organizationSlug);
    expect(second.body.organizationSlug).toMatch(/^same-name-\d+$/);
  });

  it('refuses a duplicate externalId with 400 and a duplicate email with 409', async () => {
    const externalId = uniqueId('ext');
    const email = `${uniqueId('dup')}@example.com`;
    expect((await provision({ externalId, email })).status).toBe(201);
    const sameExternal = await provision({ externalId, email: `${uniqueId('x')}@example.com` });
    expect(sameExternal.status).toBe(400);
    expect(sameExternal.body.detail).toContain(externalId);
    const sameEmail = await provision({ externalId: uniqueId('ext'), email: email.toUpperCase() });
    expect(sameEmail.status).toBe(409);
    const otherPartner = await server.createPartnerKey();
    const elsewhere = await provision({ externalId: uniqueId('ext'), email }, otherPartner);
    expect(elsewhere.status).toBe(409);
    const sameExternalOtherPartner = await provision({ externalId, email: `${uniqueId('y')}@example.com` }, otherPartner);
    expect(sameExternalOtherPartner.status).toBe(201);
  });

  it('lists, filters and retrieves only its own organizations, without keys', async () => {
    const externalId = uniqueId('ext');
    const created = await provision({ externalId, email: `${uniqueId('list')}@example.com`, businessName: 'Listed' });
    const all = await get('');
    expect(all.status).toBe(200);
    expect(Object.keys(all.body).sort()).toEqual(['count', 'results']);
    expect(all.body.count).toBeGreaterThanOrEqual(1);
    const filtered = await get(`?external_id=${externalId}`);
    expect(filtered.body.count).toBe(1);
    expect(filtered.body.results[0].organizationIdentifier).toBe(created.body.organizationIdentifier);
    expect(filtered.body.results[0].serverKey).toBeNull();

    const byId = await get(`${created.body.organizationIdentifier}/`);
    expect(byId.status).toBe(200);
    expect(byId.body).toMatchObject({ partnerExternalId: externalId, serverKey: null, sandboxServerKey: null });
    const byExternal = await get(`by-external-id/${externalId}/`);
    expect(byExternal.body.organizationIdentifier).toBe(created.body.organizationIdentifier);

    const stranger = await server.createPartnerKey();
    expect((await get(`${created.body.organizationIdentifier}/`, stranger)).status).toBe(404);
    expect((await get(`by-external-id/${externalId}/`, stranger)).status).toBe(404);
    expect((await get(`?external_id=${externalId}`, stranger)).body.count).toBe(0);
    expect((await get('not-a-uuid/')).status).toBe(404);
  });

  it('validates the request', async () => {
    for (const [body, field] of [
      [{ email: 'a@example.com' }, 'externalId'],
      [{ externalId: 'x' }, 'email'],
      [{ externalId: 'x', email: 'nope' }, 'email'],
      [{ externalId: 'x'.repeat(129), email: 'a@example.com' }, 'externalId'],
      [{ externalId: 'x', email: 'a@example.com', businessName: 'b'.repeat(201) }, 'businessName'],
    ] as const) {
      const res = await provision(body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.detail).toContain(field);
    }
  });

  it('replays a provisioning request with the same Idempotency-Key, without storing its keys', async () => {
    const body = { externalId: uniqueId('ext'), email: `${uniqueId('idem')}@example.com` };
    const headers = { 'x-billow-partner-key': partnerKey, 'idempotency-key': uniqueId('k') };
    const first = await server.request('POST', '/api/v1/partner/organizations/', { body, headers });
    const second = await server.request('POST', '/api/v1/partner/organizations/', { body, headers });
    expect(first.status).toBe(201);
    expect(first.body.serverKey).toMatch(/^sk_live_/);
    expect(second.status).toBe(201);
    expect(second.body).toEqual({
      ...first.body,
      serverKey: null,
      clientKey: null,
      sandboxServerKey: null,
      sandboxClientKey: null,
    });
    const stored = await server.database.db.selectFrom('idempotency_keys').select('response_body').execute();
    for (const row of stored) expect(row.response_body ?? '').not.toContain(first.body.serverKey);
  });
});

describe('organizations created at the same moment', () => {
  it('get distinct slugs', async () => {
    const created = await Promise.all(
      Array.from({ length: 6 }, () =>
        provision({ externalId: uniqueId('ext'), email: `${uniqueId('race')}@example.com`, businessName: 'Racing Co' }),
      ),
    );
    expect(created.map((r) => r.status)).toEqual(Array(6).fill(201));
    expect(new Set(created.map((r) => r.body.organizationSlug)).size).toBe(6);
  });
});
