import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMember } from '../src/modules/accounts/people.service.js';
import { systemClock } from '../src/lib/clock.js';
import { startTestServer, uniqueId, type TestOrg, type TestServer } from './harness.js';
import { cookieOf, PASSWORD, signedInMember } from './accounts-support.js';

/** Issue 29, item 1: signing in, the session, signing out, and the session as the API's credential. */
let server: TestServer;
let org: TestOrg;

beforeAll(async () => {
  server = await startTestServer();
  org = await server.createOrg();
});
afterAll(() => server.close());

describe('signing in with a password', () => {
  it('answers the session, sets an HttpOnly SameSite=Strict cookie, and GET /session reads it back', async () => {
    const owner = await signedInMember(server, org, 'owner');
    const res = await owner.dashboard('GET', '/session', undefined, { csrf: false });
    expect(res.status, res.text).toBe(200);
    expect(res.body.user).toMatchObject({ id: owner.userId, email: owner.email, name: 'A owner', totpEnabled: false });
    expect(res.body.memberships).toEqual([{ organizationId: org.organizationId, organizationName: expect.any(String), role: 'owner' }]);
    expect(res.body.csrfToken).toBe(owner.csrfToken);
    const email = `${uniqueId('c')}@example.com`;
    await createMember(server.database.db, systemClock, { organizationId: org.organizationId, email, role: 'viewer', password: PASSWORD });
    const signIn = await server.request('POST', '/dashboard/api/sign-in', { body: { email: email.toUpperCase(), password: PASSWORD } });
    const cookie = signIn.headers.get('set-cookie')!;
    expect(cookie).toMatch(/^billow_session=[A-Za-z0-9]+; Max-Age=\d+; Path=\/; HttpOnly; SameSite=Strict$/);
  });

  it('refuses a wrong password or an unknown email with the same 401', async () => {
    const owner = await signedInMember(server, org, 'owner');
    const wrong = await server.request('POST', '/dashboard/api/sign-in', { body: { email: owner.email, password: 'not the password' } });
    const unknown = await server.request('POST', '/dashboard/api/sign-in', { body: { email: 'nobody@example.com', password: 'not the password' } });
    expect([wrong.status, unknown.status]).toEqual([401, 401]);
    expect(wrong.body.detail).toBe(unknown.body.detail);
    expect(wrong.headers.get('set-cookie')).toBeNull();
  });

  it('refuses bad input with 400 and a detail', async () => {
    const res = await server.request('POST', '/dashboard/api/sign-in', { body: { email: 'not an email', password: 'x' } });
    expect(res.status).toBe(400);
    expect(res.body.detail).toMatch(/email/);
  });

  it('rotates the session on sign-in: the cookie the browser held before ends', async () => {
    const owner = await signedInMember(server, org, 'owner');
    const again = await server.request('POST', '/dashboard/api/sign-in', { headers: { cookie: owner.cookie }, body: { email: owner.email, password: PASSWORD } });
    expect(again.status).toBe(200);
    expect(cookieOf(again)).not.toBe(owner.cookie);
    expect((await owner.dashboard('GET', '/session')).status).toBe(401);
    expect((await server.request('GET', '/dashboard/api/session', { headers: { cookie: cookieOf(again)! } })).status).toBe(200);
  });

  it('signs out: the session ends and the cookie is cleared; without the CSRF header it does not', async () => {
    const owner = await signedInMember(server, org, 'owner');
    expect((await owner.dashboard('POST', '/sign-out', undefined, { csrf: false })).status).toBe(401);
    expect((await owner.dashboard('GET', '/session')).status).toBe(200);
    const out = await owner.dashboard('POST', '/sign-out');
    expect(out.status).toBe(204);
    expect(out.headers.get('set-cookie')).toMatch(/^billow_session=; Max-Age=0/);
    expect((await owner.dashboard('GET', '/session')).status).toBe(401);
  });

  it('GET /session answers 401 without a session', async () => {
    const res = await server.request('GET', '/dashboard/api/session');
    expect(res.status).toBe(401);
    expect(res.body.detail).toMatch(/sign in/i);
  });

  it('never takes an API key on /dashboard/api', async () => {
    const res = await server.request('GET', '/dashboard/api/session', { key: org.production.serverKey });
    expect(res.status).toBe(401);
  });
});

describe('the session as the credential of the API', () => {
  it('is admitted as the organization server key of the URL environment', async () => {
    const owner = await signedInMember(server, org, 'owner');
    const created = await owner.api('POST', '/sandbox/api/v1/customers/', { customerId: uniqueId('cus'), email: 'ada@example.com' });
    expect(created.status, created.text).toBe(201);
    const inSandbox = await server.request('GET', `/sandbox/api/v1/customers/${created.body.customerId}/`, { key: org.sandbox.serverKey });
    expect(inSandbox.status).toBe(200);
    const inProduction = await owner.api('GET', `/api/v1/customers/${created.body.customerId}/`);
    expect(inProduction.status).toBe(404);
  });

  it('never authenticates without the X-CSRF-Token header, or with a wrong one', async () => {
    const owner = await signedInMember(server, org, 'owner');
    const bare = await server.request('GET', '/api/v1/customers/', { headers: { cookie: owner.cookie, 'x-billow-organization': org.organizationId } });
    expect(bare.status).toBe(401);
    expect(bare.body.detail).toMatch(/X-CSRF-Token/);
    const wrong = await owner.api('GET', '/api/v1/customers/', undefined, { 'x-csrf-token': 'x'.repeat(43) });
    expect(wrong.status).toBe(401);
  });

  it('needs X-Billow-Organization, of an organization the person is a member of', async () => {
    const owner = await signedInMember(server, org, 'owner');
    const none = await server.request('GET', '/api/v1/customers/', { headers: { cookie: owner.cookie, 'x-csrf-token': owner.csrfToken } });
    expect(none.status).toBe(401);
    expect(none.body.detail).toMatch(/X-Billow-Organization/);
    const other = await server.createOrg();
    const elsewhere = await owner.api('GET', '/api/v1/customers/', undefined, { 'x-billow-organization': other.organizationId });
    expect(elsewhere.status).toBe(403);
  });

  it("checks the member's role on the server: a support member may not refund, an admin may", async () => {
    const support = await signedInMember(server, org, 'support');
    const refused = await support.api('POST', '/api/v1/refunds/', { orderId: 'ORD-1', amount: '1.00' });
    expect(refused.status).toBe(403);
    expect(refused.body.detail).toMatch(/support role may not refund/);
    expect((await support.api('GET', '/api/v1/orders/')).status).toBe(200);
    const admin = await signedInMember(server, org, 'admin');
    const admitted = await admin.api('POST', '/api/v1/refunds/', { orderId: 'ORD-1', amount: '1.00' });
    expect([400, 404]).toContain(admitted.status);
  });

  it('a viewer reads but changes nothing', async () => {
    const viewer = await signedInMember(server, org, 'viewer');
    expect((await viewer.api('GET', '/sandbox/api/v1/customers/')).status).toBe(200);
    const refused = await viewer.api('POST', '/sandbox/api/v1/customers/', { customerId: uniqueId('cus') });
    expect(refused.status).toBe(403);
    expect(refused.body.detail).toMatch(/viewer role may not change customers/);
  });

  it('a session that signed out no longer authenticates the API', async () => {
    const owner = await signedInMember(server, org, 'owner');
    await owner.dashboard('POST', '/sign-out');
    expect((await owner.api('GET', '/api/v1/customers/')).status).toBe(401);
  });

  it('a key still wins when both are sent', async () => {
    const owner = await signedInMember(server, org, 'owner');
    const res = await server.request('GET', '/api/v1/customers/', { key: org.production.clientKey, headers: { cookie: owner.cookie, 'x-csrf-token': owner.csrfToken, 'x-billow-organization': org.organizationId } });
    expect(res.status).toBe(403);
  });
});

describe('invitations where no email is sent (no SMTP)', () => {
  it('answers the link to hand over, and keeps it out of every inbox', async () => {
    const admin = await signedInMember(server, org, 'admin');
    const email = `${uniqueId('handed')}@example.com`;
    const invited = await admin.api('POST', '/api/v1/members/', { email, role: 'developer' });
    expect(invited.status, invited.text).toBe(201);
    expect(invited.body.acceptUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/dashboard\/accept-invitation\?token=[A-Za-z0-9]+$/);
    const kept = await server.database.db.selectFrom('mail_messages').select('id').where('recipient', '=', email).execute();
    expect(kept).toEqual([]);
    expect((await admin.api('GET', '/api/v1/invitations/')).body.results.find((i: { email: string }) => i.email === email)).not.toHaveProperty('acceptUrl');
    const token = new URL(invited.body.acceptUrl).searchParams.get('token');
    const accepted = await server.request('POST', '/dashboard/api/invitations/accept', { body: { token, name: 'Dev', password: 'a long enough password' } });
    expect(accepted.status, accepted.text).toBe(200);
    expect(accepted.body.memberships[0].role).toBe('developer');
  });
});

/** The dashboard's language, the person's own choice kept on their account (decision 0108). */
describe("the dashboard's language", () => {
  it('is null until chosen, then the session of every later sign-in carries it; null goes back to the browser', async () => {
    const person = await signedInMember(server, org, 'viewer');
    expect((await person.dashboard('GET', '/session')).body.user.language).toBeNull();
    const chosen = await person.dashboard('PUT', '/language', { language: 'de' });
    expect(chosen.status, chosen.text).toBe(204);
    expect((await person.dashboard('GET', '/session')).body.user.language).toBe('de');
    const again = await server.request('POST', '/dashboard/api/sign-in', { body: { email: person.email, password: person.password } });
    expect(again.body.user.language).toBe('de');
    expect((await person.dashboard('PUT', '/language', { language: null })).status).toBe(204);
    expect((await person.dashboard('GET', '/session')).body.user.language).toBeNull();
  });

  it("changes only the person's own account", async () => {
    const one = await signedInMember(server, org, 'owner');
    const other = await signedInMember(server, org, 'support');
    expect((await one.dashboard('PUT', '/language', { language: 'ja' })).status).toBe(204);
    expect((await other.dashboard('GET', '/session')).body.user.language).toBeNull();
  });

  it('refuses a language the dashboard does not speak, or no CSRF token, and changes nothing', async () => {
    const person = await signedInMember(server, org, 'admin');
    await person.dashboard('PUT', '/language', { language: 'fr' });
    const unknown = await person.dashboard('PUT', '/language', { language: 'xx' });
    expect(unknown.status).toBe(400);
    expect(unknown.body.detail).toEqual(expect.any(String));
    expect((await person.dashboard('PUT', '/language', {})).status).toBe(400);
    expect((await person.dashboard('PUT', '/language', { language: 'es' }, { csrf: false })).status).toBe(401);
    expect((await person.dashboard('GET', '/session')).body.user.language).toBe('fr');
  });
});
