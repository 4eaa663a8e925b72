import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, uniqueId, type TestOrg, type TestServer } from './harness.js';
import { signedInMember, type Browser } from './accounts-support.js';

/** Issue 29, item 3: every change by a person or a key, who, what, when and from where; never editable. */
let server: TestServer;
let org: TestOrg;
let owner: Browser;

beforeAll(async () => {
  server = await startTestServer();
  org = await server.createOrg();
  owner = await signedInMember(server, org, 'owner');
});
afterAll(() => server.close());

const auditLog = async (query = '') => {
  const res = await owner.api('GET', `/api/v1/audit-log/${query}`);
  expect(res.status, res.text).toBe(200);
  return res.body;
};

describe('the audit log', () => {
  it("records a key's change with the key's prefix, the route and the resource", async () => {
    const customerId = uniqueId('cus');
    const created = await server.request('POST', '/sandbox/api/v1/customers/', { key: org.sandbox.serverKey, body: { customerId } });
    expect(created.status).toBe(201);
    const prefix = org.sandbox.serverKey.slice(0, 16);
    const { results } = await auditLog(`?actorId=${prefix}`);
    expect(results[0]).toMatchObject({
      actorType: 'api_key',
      actorId: prefix,
      action: 'POST /api/v1/customers/',
      resource: 'customers',
      resourceId: created.body.id,
      environment: 'sandbox',
      clientAddress: expect.any(String),
    });
  });

  it("records a person's settings change with before and after, in its transaction", async () => {
    const res = await owner.api('PATCH', '/api/v1/seller-profile/', { displayName: 'Audited Ltd' });
    expect(res.status, res.text).toBe(200);
    const { results } = await auditLog('?action=seller_profile.updated');
    expect(results).toHaveLength(1);
    expect(results[0]).toMatchObject({
      actorType: 'user',
      actorId: owner.userId,
      actorLabel: owner.email,
      resource: 'seller_profile',
      environment: 'production',
      after: { displayName: 'Audited Ltd' },
    });
    expect(results[0].before).toHaveProperty('displayName');
    const emails = await owner.api('PATCH', '/sandbox/api/v1/email-settings/', { receipts: false });
    expect(emails.status, emails.text).toBe(200);
    const [entry] = (await auditLog('?action=email_settings.updated')).results;
    expect(entry.before.receipts).toBe(true);
    expect(entry.after.receipts).toBe(false);
    expect(entry.environment).toBe('sandbox');
  });

  it('records webhook endpoints created, updated and deleted with before and after, never their secret', async () => {
    const created = await owner.api('POST', '/sandbox/api/v1/webhook/endpoints/', { url: 'http://127.0.0.1:9/audited', description: 'audited' });
    expect(created.status, created.text).toBe(201);
    const id = created.body.id;
    expect((await owner.api('PATCH', `/sandbox/api/v1/webhook/endpoints/${id}/`, { description: 'renamed' })).status).toBe(200);
    expect((await owner.api('DELETE', `/sandbox/api/v1/webhook/endpoints/${id}/`)).status).toBe(204);
    const { results } = await auditLog(`?resource=${id}`);
    expect(results.map((e: { action: string }) => e.action)).toEqual(['webhook_endpoint.deleted', 'webhook_endpoint.updated', 'webhook_endpoint.created']);
    expect(results[0].before).toMatchObject({ id, description: 'renamed' });
    expect(results[1].before.description).toBe('audited');
    expect(results[1].after.description).toBe('renamed');
    expect(JSON.stringify(results)).not.toContain(created.body.secret);
  });

  it('records team changes, and filters by resource and time', async () => {
    const email = `${uniqueId('inv')}@example.com`;
    const invited = await owner.api('POST', '/api/v1/members/', { email, role: 'viewer' });
    expect(invited.status).toBe(201);
    const { results } = await auditLog(`?resource=${invited.body.id}`);
    expect(results).toEqual([expect.objectContaining({ action: 'invitation.created', environment: null, after: { email, role: 'viewer' } })]);
    expect((await auditLog(`?resource=invitation&start=2000-01-01T00:00:00Z&end=2000-01-02T00:00:00Z`)).results).toEqual([]);
  });

  it('pages newest first with a cursor', async () => {
    for (let i = 0; i < 3; i++) await server.request('POST', '/api/v1/customers/', { key: org.production.serverKey, body: { customerId: uniqueId('page') } });
    const first = await auditLog('?limit=2');
    expect(first.results).toHaveLength(2);
    expect(first.next).toMatch(/cursor=/);
    const next = await owner.api('GET', new URL(first.next).pathname + new URL(first.next).search);
    expect(next.body.results[0].createdOn <= first.results[1].createdOn).toBe(true);
    expect(next.body.results.map((e: { id: string }) => e.id)).not.toContain(first.results[1].id);
    expect((await owner.api('GET', '/api/v1/audit-log/?cursor=nonsense')).status).toBe(400);
    const huge = Buffer.from(`audit:${'9'.repeat(30)}`).toString('base64url');
    expect((await owner.api('GET', `/api/v1/audit-log/?cursor=${huge}`)).status).toBe(400);
  });

  it('does not record reads, refused changes, or the Edge API', async () => {
    const before = (await auditLog('?limit=100')).results.length;
    await server.request('GET', '/api/v1/customers/', { key: org.production.serverKey });
    await server.request('POST', '/api/v1/customers/', { key: org.production.serverKey, body: { email: 'no id' } });
    expect((await auditLog('?limit=100')).results.length).toBe(before);
  });

  it('may be read by owners and admins only, and is never editable', async () => {
    const support = await signedInMember(server, org, 'support');
    const refused = await support.api('GET', '/api/v1/audit-log/');
    expect(refused.status).toBe(403);
    expect(refused.body.detail).toMatch(/audit log/);
    expect((await owner.api('DELETE', '/api/v1/audit-log/')).status).toBe(405);
    await expect(sql`UPDATE audit_log SET action = 'x' WHERE organization_id = ${org.organizationId}`.execute(server.database.db)).rejects.toThrow(/append-only/);
    await expect(sql`DELETE FROM audit_log WHERE organization_id = ${org.organizationId}`.execute(server.database.db)).rejects.toThrow(/append-only/);
  });
});
