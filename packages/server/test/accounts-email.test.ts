import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { totpCodeAt } from '../src/modules/accounts/passwords.js';
import { createMember } from '../src/modules/accounts/people.service.js';
import { systemClock } from '../src/lib/clock.js';
import { startTestServer, uniqueId, type TestOrg, type TestServer } from './harness.js';
import { browserOf, cookieOf, PASSWORD, signedInMember } from './accounts-support.js';
import { SmtpSink, unquoted } from './smtp-support.js';

/** Issue 29, item 1: lockout, the second factor, links by email, invitations, password resets, the team. */
let server: TestServer;
let org: TestOrg;
const sink = new SmtpSink();

beforeAll(async () => {
  const smtpUrl = await sink.start();
  server = await startTestServer({ env: { BILLOW_SMTP_URL: smtpUrl, BILLOW_MAIL_FROM: 'Billow <billow@shop.example>', BILLOW_PUBLIC_URL: 'https://billing.shop.example' } });
  org = await server.createOrg();
});
afterAll(async () => {
  await server.close();
  await sink.close();
});

const signIn = (body: Record<string, unknown>) => server.request('POST', '/dashboard/api/sign-in', { body });

/** The link in the newest email to `to`, as the SMTP server received it. */
async function linkMailedTo(to: string, page: string, count = 1): Promise<string> {
  const mails = await sink.to(to, count);
  const raw = mails[mails.length - 1]!.raw;
  const text = /Content-Transfer-Encoding: quoted-printable/i.test(raw) ? unquoted(raw) : raw;
  const match = new RegExp(`https://billing\\.shop\\.example/dashboard/${page}\\?token=([A-Za-z0-9]+)`).exec(text);
  expect(match, text).not.toBeNull();
  return match![1]!;
}

describe('lockout', () => {
  it('locks the account for 15 minutes after five wrong passwords, even for the right one', async () => {
    const member = await signedInMember(server, org, 'viewer');
    for (let i = 0; i < 5; i++) expect((await signIn({ email: member.email, password: 'wrong password' })).status).toBe(401);
    const locked = await signIn({ email: member.email, password: PASSWORD });
    expect(locked.status).toBe(429);
    expect(locked.body.code).toBe('locked_out');
    expect(locked.body.detail).toMatch(/15 minutes/);
  });
});

describe('the second factor (TOTP)', () => {
  it('is set up, enabled by a code, then asked for at sign-in', async () => {
    const member = await signedInMember(server, org, 'developer');
    const setup = await member.dashboard('POST', '/totp/setup');
    expect(setup.status, setup.text).toBe(200);
    expect(setup.body.otpauthUrl).toMatch(/^otpauth:\/\/totp\/Billow:/);
    const wrong = String((Number(totpCodeAt(setup.body.secret, new Date())) + 500_000) % 1_000_000).padStart(6, '0');
    expect((await member.dashboard('POST', '/totp/enable', { code: wrong })).status).toBe(401);
    expect((await member.dashboard('POST', '/totp/enable', { code: totpCodeAt(setup.body.secret, new Date()) })).status).toBe(204);
    expect((await member.dashboard('GET', '/session')).body.user.totpEnabled).toBe(true);
    const stored = await server.database.db.selectFrom('users').select('totp_secret').where('id', '=', member.userId).executeTakeFirstOrThrow();
    expect(stored.totp_secret).toMatch(/^v1\./);
    expect(stored.totp_secret).not.toContain(setup.body.secret);

    const missing = await signIn({ email: member.email, password: PASSWORD });
    expect(missing.status).toBe(401);
    expect(missing.body.code).toBe('TOTP_REQUIRED');
    const ok = await signIn({ email: member.email, password: PASSWORD, totpCode: totpCodeAt(setup.body.secret, new Date()) });
    expect(ok.status, ok.text).toBe(200);
    expect(ok.headers.get('set-cookie')).toMatch(/; HttpOnly; Secure; SameSite=Strict$/);
    expect(ok.body.user.totpEnabled).toBe(true);
  });
});

describe('one-time sign-in links', () => {
  it('signs in once from a link made by createMember, then never again', async () => {
    const email = `${uniqueId('link')}@example.com`;
    const { signInToken } = await createMember(server.database.db, systemClock, { organizationId: org.organizationId, email, role: 'owner' });
    const first = await server.request('POST', '/dashboard/api/sign-in/link', { body: { token: signInToken } });
    expect(first.status, first.text).toBe(200);
    expect(first.body.memberships[0].role).toBe('owner');
    expect(cookieOf(first)).toMatch(/^billow_session=/);
    const again = await server.request('POST', '/dashboard/api/sign-in/link', { body: { token: signInToken } });
    expect(again.status).toBe(401);
  });

  it('is mailed on request, and the request answers 202 for an unknown email too', async () => {
    const member = await signedInMember(server, org, 'support');
    expect((await server.request('POST', '/dashboard/api/sign-in/link/request', { body: { email: 'nobody@example.com' } })).status).toBe(202);
    expect((await server.request('POST', '/dashboard/api/sign-in/link/request', { body: { email: member.email } })).status).toBe(202);
    const token = await linkMailedTo(member.email, 'welcome');
    expect((await server.request('POST', '/dashboard/api/sign-in/link', { body: { token } })).status).toBe(200);
  });
});

describe('password reset by email', () => {
  it('sets a new password and ends every session', async () => {
    const member = await signedInMember(server, org, 'viewer');
    expect((await server.request('POST', '/dashboard/api/password-reset/request', { body: { email: member.email } })).status).toBe(202);
    const token = await linkMailedTo(member.email, 'reset-password');
    const short = await server.request('POST', '/dashboard/api/password-reset', { body: { token, password: 'short' } });
    expect(short.status).toBe(400);
    const reset = await server.request('POST', '/dashboard/api/password-reset', { body: { token, password: 'a new long password' } });
    expect(reset.status, reset.text).toBe(204);
    expect((await member.dashboard('GET', '/session')).status).toBe(401);
    expect((await signIn({ email: member.email, password: PASSWORD })).status).toBe(401);
    expect((await signIn({ email: member.email, password: 'a new long password' })).status).toBe(200);
    expect((await server.request('POST', '/dashboard/api/password-reset', { body: { token, password: 'another long password' } })).status).toBe(401);
  });
});

describe('the team', () => {
  it('an admin invites by email; the invitee accepts with a name and password and is signed in with the role', async () => {
    const admin = await signedInMember(server, org, 'admin');
    const email = `${uniqueId('invitee')}@example.com`;
    const invited = await admin.api('POST', '/api/v1/members/', { email, role: 'support' });
    expect(invited.status, invited.text).toBe(201);
    expect(invited.body).toMatchObject({ email, role: 'support', invitedBy: admin.userId });
    expect((await admin.api('GET', '/api/v1/invitations/')).body.results.map((i: { email: string }) => i.email)).toContain(email);
    const token = await linkMailedTo(email, 'accept-invitation');
    const accepted = await server.request('POST', '/dashboard/api/invitations/accept', { body: { token, name: 'Sam Support', password: 'a long enough password' } });
    expect(accepted.status, accepted.text).toBe(200);
    expect(accepted.body.memberships).toEqual([{ organizationId: org.organizationId, organizationName: expect.any(String), role: 'support' }]);
    const support = browserOf(server, org, { email, userId: accepted.body.user.id, cookie: cookieOf(accepted)!, csrfToken: accepted.body.csrfToken });
    expect((await support.api('POST', '/api/v1/refunds/', { orderId: 'ORD-1', amount: '1.00' })).status).toBe(403);
    expect((await server.request('POST', '/dashboard/api/invitations/accept', { body: { token, name: 'x', password: 'a long enough password' } })).status).toBe(401);
  });

  it("never opens someone's existing account by an invitation alone: its password is needed", async () => {
    const elsewhere = await server.createOrg();
    const person = await signedInMember(server, elsewhere, 'owner');
    const admin = await signedInMember(server, org, 'admin');
    expect((await admin.api('POST', '/api/v1/members/', { email: person.email, role: 'viewer' })).status).toBe(201);
    const token = await linkMailedTo(person.email, 'accept-invitation');
    const guessed = await server.request('POST', '/dashboard/api/invitations/accept', { body: { token, name: 'Mallory', password: 'not their password' } });
    expect(guessed.status).toBe(401);
    const accepted = await server.request('POST', '/dashboard/api/invitations/accept', { body: { token, name: 'ignored', password: PASSWORD } });
    expect(accepted.status, accepted.text).toBe(200);
    expect(accepted.body.user.name).toBe('A owner');
    expect(accepted.body.memberships.map((m: { role: string }) => m.role).sort()).toEqual(['owner', 'viewer']);
  });

  it('a support member may not invite; an admin may not make an owner', async () => {
    const support = await signedInMember(server, org, 'support');
    expect((await support.api('POST', '/api/v1/members/', { email: 'x@example.com', role: 'viewer' })).status).toBe(403);
    const admin = await signedInMember(server, org, 'admin');
    const owner = await admin.api('POST', '/api/v1/members/', { email: 'y@example.com', role: 'owner' });
    expect(owner.status).toBe(403);
    expect(owner.body.detail).toMatch(/Only an owner/);
  });

  it("a removed member's session stops at once", async () => {
    const owner = await signedInMember(server, org, 'owner');
    const developer = await signedInMember(server, org, 'developer');
    expect((await developer.api('GET', '/api/v1/customers/')).status).toBe(200);
    const members = await owner.api('GET', '/api/v1/members/?page_size=100');
    const membership = members.body.results.find((m: { userId: string }) => m.userId === developer.userId);
    expect((await owner.api('DELETE', `/api/v1/members/${membership.id}/`)).status).toBe(204);
    const after = await developer.api('GET', '/api/v1/customers/');
    expect(after.status).toBe(403);
    expect(after.body.detail).toMatch(/not a member/);
  });

  it('keeps at least one owner', async () => {
    const lone = await server.createOrg();
    const owner = await signedInMember(server, lone, 'owner');
    const members = await owner.api('GET', '/api/v1/members/');
    const res = await owner.api('PATCH', `/api/v1/members/${members.body.results[0].id}/`, { role: 'admin' });
    expect(res.status).toBe(409);
    expect(res.body.code).toBe('last_owner');
  });
});

describe('the account', () => {
  it('lists its sessions and revokes one, which stops at once', async () => {
    const member = await signedInMember(server, org, 'viewer');
    const second = await signIn({ email: member.email, password: PASSWORD });
    const list = await member.dashboard('GET', '/sessions');
    expect(list.status).toBe(200);
    expect(list.body.results).toHaveLength(2);
    const other = list.body.results.find((s: { current: boolean }) => !s.current);
    expect((await member.dashboard('DELETE', `/sessions/${other.id}`)).status).toBe(204);
    expect((await server.request('GET', '/dashboard/api/session', { headers: { cookie: cookieOf(second)! } })).status).toBe(401);
  });

  it('changes the password, ending the other sessions', async () => {
    const member = await signedInMember(server, org, 'viewer');
    const second = await signIn({ email: member.email, password: PASSWORD });
    expect((await member.dashboard('POST', '/password', { currentPassword: 'wrong', newPassword: 'a brand new password' })).status).toBe(401);
    expect((await member.dashboard('POST', '/password', { currentPassword: PASSWORD, newPassword: 'a brand new password' })).status).toBe(204);
    expect((await member.dashboard('GET', '/session')).status).toBe(200);
    expect((await server.request('GET', '/dashboard/api/session', { headers: { cookie: cookieOf(second)! } })).status).toBe(401);
  });
});
