/**
 * Issue 29, "Developers: API keys (create, shown once, revoke)" (decision 0084): an environment's
 * keys through the API, with a server key or a session; only owners and admins make or revoke.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signedInMember } from './accounts-support.js';
import { startTestServer, type TestOrg, type TestServer } from './harness.js';

let server: TestServer;
let org: TestOrg;

beforeAll(async () => {
  server = await startTestServer();
  org = await server.createOrg('Keys Co');
});
afterAll(() => server?.close());

const withKey = (key: string, method: string, path: string, body?: unknown) =>
  server.request(method, path, { key, ...(body === undefined ? {} : { body }) });

describe('API keys through the API', () => {
  it('are in the OpenAPI document, the secret only in the answer that makes a key', async () => {
    const { body: doc } = await server.request('GET', '/api/v1/openapi.json');
    expect(Object.keys(doc.paths['/api/v1/api-keys/']).sort()).toEqual(['get', 'post']);
    expect(Object.keys(doc.paths['/api/v1/api-keys/{prefix}/'])).toEqual(['delete']);
    const schemaOf = (operation: any, status: string) => operation.responses[status].content['application/json'].schema;
    expect(schemaOf(doc.paths['/api/v1/api-keys/'].post, '201').required).toContain('key');
    const listed = schemaOf(doc.paths['/api/v1/api-keys/'].get, '200').properties.results.items;
    expect(Object.keys(listed.properties).sort()).toEqual(['createdOn', 'environment', 'kind', 'name', 'prefix', 'revokedOn']);
  });


  it('makes a key shown once, which works at once; lists it by prefix; revokes it, refused at once; audits both without the secret', async () => {
    const sk = org.sandbox.serverKey;
    const made = await withKey(sk, 'POST', '/sandbox/api/v1/api-keys/', { kind: 'server', name: '  CI deploys ' });
    expect(made.status, made.text).toBe(201);
    expect(made.body).toMatchObject({ kind: 'server', name: 'CI deploys', environment: 'sandbox', revokedOn: null });
    const secret: string = made.body.key;
    expect(secret).toMatch(/^sk_test_[A-Za-z0-9]{40}$/);
    expect(secret.startsWith(made.body.prefix)).toBe(true);

    // The new key works, in its environment only.
    expect((await withKey(secret, 'GET', '/sandbox/api/v1/customers/')).status).toBe(200);
    expect((await withKey(secret, 'GET', '/api/v1/customers/')).status).toBe(401);

    const list = await withKey(sk, 'GET', '/sandbox/api/v1/api-keys/');
    expect(list.status, list.text).toBe(200);
    expect(list.body.count).toBe(3);
    expect(list.body.results[0]).toEqual({ prefix: made.body.prefix, kind: 'server', name: 'CI deploys', environment: 'sandbox', createdOn: made.body.createdOn, revokedOn: null });
    expect(list.body.results.map((k: { kind: string }) => k.kind).sort()).toEqual(['client', 'server', 'server']);
    expect(list.text).not.toContain(secret);
    expect(list.text).not.toMatch(/hash/i);
    // Production lists its own keys only.
    const production = await withKey(org.production.serverKey, 'GET', '/api/v1/api-keys/');
    expect(production.body.results.every((k: { prefix: string }) => k.prefix.startsWith('sk_live_') || k.prefix.startsWith('ck_live_'))).toBe(true);

    const revoked = await withKey(sk, 'DELETE', `/sandbox/api/v1/api-keys/${made.body.prefix}/`);
    expect(revoked.status, revoked.text).toBe(200);
    expect(revoked.body).toMatchObject({ prefix: made.body.prefix, revokedOn: expect.any(String) });
    const refused = await withKey(secret, 'GET', '/sandbox/api/v1/customers/');
    expect(refused.status).toBe(401);
    expect(refused.body.detail).toMatch(/revoked/);
    const again = await withKey(sk, 'DELETE', `/sandbox/api/v1/api-keys/${made.body.prefix}/`);
    expect(again.status).toBe(409);
    expect((await withKey(sk, 'GET', '/sandbox/api/v1/api-keys/')).body.results[0].revokedOn).toBe(revoked.body.revokedOn);

    const log = await withKey(sk, 'GET', '/sandbox/api/v1/audit-log/?resource=api_key');
    expect(log.status, log.text).toBe(200);
    expect(log.body.results.map((e: { action: string }) => e.action)).toEqual(['api_key.revoked', 'api_key.created']);
    expect(log.body.results[1]).toMatchObject({ resourceId: made.body.prefix, environment: 'sandbox', after: { prefix: made.body.prefix, kind: 'server', name: 'CI deploys', revokedOn: null } });
    expect(log.body.results[0]).toMatchObject({ before: { revokedOn: null }, after: { revokedOn: revoked.body.revokedOn } });
    expect(log.text).not.toContain(secret);
    expect(log.body.results.filter((e: { action: string }) => e.action.startsWith('POST ') || e.action.startsWith('DELETE '))).toEqual([]);
  });

  it('refuses to revoke the key that makes the request (400), a key of the other environment or organization (404), and bad input (400)', async () => {
    const sk = org.sandbox.serverKey;
    const prefix = sk.slice(0, 'sk_test_'.length + 8);
    const own = await withKey(sk, 'DELETE', `/sandbox/api/v1/api-keys/${prefix}/`);
    expect(own.status).toBe(400);
    expect(own.body).toMatchObject({ code: 'api_key_in_use', detail: expect.stringContaining(prefix) });
    expect((await withKey(sk, 'GET', '/sandbox/api/v1/customers/')).status).toBe(200);

    const other = await server.createOrg('Other Co');
    const theirs = other.sandbox.clientKey.slice(0, 'ck_test_'.length + 8);
    expect((await withKey(sk, 'DELETE', `/sandbox/api/v1/api-keys/${theirs}/`)).status).toBe(404);
    expect((await withKey(other.sandbox.clientKey, 'GET', '/sandbox/api/v1/customers/')).status).not.toBe(401);
    const production = org.production.clientKey.slice(0, 'ck_live_'.length + 8);
    expect((await withKey(sk, 'DELETE', `/sandbox/api/v1/api-keys/${production}/`)).status).toBe(404);
    expect((await withKey(sk, 'DELETE', '/sandbox/api/v1/api-keys/nonsense/')).status).toBe(404);

    for (const body of [{}, { kind: 'partner' }, { kind: 'server', name: 'x'.repeat(101) }, { kind: 'server', extra: 1 }]) {
      const res = await withKey(sk, 'POST', '/sandbox/api/v1/api-keys/', body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.detail).toBeTruthy();
    }
    expect((await withKey(sk, 'GET', '/sandbox/api/v1/api-keys/')).body.count).toBe(3);
    // A client key may not list or make keys.
    expect((await withKey(org.sandbox.clientKey, 'GET', '/sandbox/api/v1/api-keys/')).status).toBe(403);
    expect((await withKey(org.sandbox.clientKey, 'POST', '/sandbox/api/v1/api-keys/', { kind: 'client' })).status).toBe(403);
  });

  it('lets owners and admins make and revoke keys with a session; developer, support and viewer read the list and get 403', async () => {
    for (const role of ['developer', 'support', 'viewer'] as const) {
      const member = await signedInMember(server, org, role);
      expect((await member.api('GET', '/sandbox/api/v1/api-keys/')).status).toBe(200);
      const made = await member.api('POST', '/sandbox/api/v1/api-keys/', { kind: 'server' });
      expect(made.status, role).toBe(403);
      expect(made.body.detail).toBe(`The ${role} role may not make or revoke API keys`);
      const prefix = org.production.clientKey.slice(0, 16);
      expect((await member.api('DELETE', `/api/v1/api-keys/${prefix}/`)).status, role).toBe(403);
    }
    expect((await withKey(org.production.clientKey, 'GET', '/api/v1/entitlements/nobody/')).status).not.toBe(401);

    const admin = await signedInMember(server, org, 'admin');
    const made = await admin.api('POST', '/api/v1/api-keys/', { kind: 'client' });
    expect(made.status, made.text).toBe(201);
    expect(made.body.key).toMatch(/^ck_live_/);
    const owner = await signedInMember(server, org, 'owner');
    const revoked = await owner.api('DELETE', `/api/v1/api-keys/${made.body.prefix}/`);
    expect(revoked.status, revoked.text).toBe(200);
    expect((await withKey(made.body.key, 'GET', '/api/v1/promotions/')).status).toBe(401);

    const log = await withKey(org.production.serverKey, 'GET', '/api/v1/audit-log/?resource=api_key');
    const mine = log.body.results.filter((e: { resourceId: string }) => e.resourceId === made.body.prefix);
    expect(mine.map((e: { action: string; actorLabel: string }) => [e.action, e.actorLabel])).toEqual([
      ['api_key.revoked', owner.email],
      ['api_key.created', admin.email],
    ]);
    expect(log.text).not.toContain(made.body.key);
  });
});
