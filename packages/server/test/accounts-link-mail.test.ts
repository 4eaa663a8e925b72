/**
 * The emails to the seller's people (issue 29): an invitation, a password reset and a sign-in
 * link go out as HTML with a text part, through the buyer emails' template kit, carrying the
 * organization's name (escaped); and asking for reset or sign-in links is capped per email
 * and per client address (429 with a detail), whether the email has an account or not; with
 * Redis, two processes count links and failed sign-ins together.
 */
import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../src/db/connect.js';
import { openTestDatabase, startTestServer, uniqueId, type TestOrg, type TestServer } from './harness.js';
import { REDIS_URL, redisAvailable } from './redis-support.js';
import { signedInMember } from './accounts-support.js';
import { headerOf, SmtpSink, unquoted } from './smtp-support.js';

let server: TestServer;
let org: TestOrg;
const sink = new SmtpSink();
const ORGANIZATION = 'Acme & <Sons>';

beforeAll(async () => {
  const smtpUrl = await sink.start();
  server = await startTestServer({ env: { BILLOW_SMTP_URL: smtpUrl, BILLOW_MAIL_FROM: 'Billow <billow@shop.example>', BILLOW_PUBLIC_URL: 'https://billing.shop.example' } });
  org = await server.createOrg(ORGANIZATION);
});
afterAll(async () => {
  await server.close();
  await sink.close();
});

const ask = (kind: 'password-reset' | 'sign-in/link', email: string) => server.request('POST', `/dashboard/api/${kind}/request`, { body: { email } });

/** The newest message to `to`: its headers, and its text and HTML parts decoded. */
async function newestTo(to: string, count = 1): Promise<{ raw: string; decoded: string }> {
  const mails = await sink.to(to, count);
  const raw = mails[mails.length - 1]!.raw;
  return { raw, decoded: /quoted-printable/i.test(raw) ? unquoted(raw) : raw };
}

function expectHtmlAndText(mail: { raw: string; decoded: string }, link: RegExp): void {
  expect(headerOf(mail.raw, 'Content-Type')).toMatch(/multipart\/alternative/);
  expect(mail.raw).toMatch(/Content-Type: text\/plain/);
  expect(mail.raw).toMatch(/Content-Type: text\/html/);
  // The organization's name, escaped in the HTML, as it is in the text.
  const [text, html] = mail.decoded.split(/Content-Type: text\/html/);
  expect(html).toContain('Sent by Billow for Acme &amp; &lt;Sons&gt;.');
  expect(html).not.toContain('<Sons>');
  expect(html).toMatch(new RegExp(`<a href="${link.source}`));
  expect(text).toContain('Sent by Billow for Acme & <Sons>.');
}

describe("the people's emails", () => {
  it('sends a password reset and a sign-in link as HTML and text, from the organization', async () => {
    const member = await signedInMember(server, org, 'viewer');
    expect((await ask('password-reset', member.email)).status).toBe(202);
    const reset = await newestTo(member.email);
    expectHtmlAndText(reset, /https:\/\/billing\.shop\.example\/dashboard\/reset-password\?token=/);
    expect(headerOf(reset.raw, 'From')).toMatch(/Acme & <Sons> \(Billow\)|"Acme & <Sons> \(Billow\)"/);
    expect(reset.decoded).toContain('Reset your Billow password');

    expect((await ask('sign-in/link', member.email)).status).toBe(202);
    const link = await newestTo(member.email, 2);
    expectHtmlAndText(link, /https:\/\/billing\.shop\.example\/dashboard\/welcome\?token=/);
  });

  it('sends an invitation as HTML and text, naming the role in words', async () => {
    const admin = await signedInMember(server, org, 'admin');
    const email = `${uniqueId('invitee')}@example.com`;
    expect((await admin.api('POST', '/api/v1/members/', { email, role: 'support' })).status).toBe(201);
    const invitation = await newestTo(email);
    expectHtmlAndText(invitation, /https:\/\/billing\.shop\.example\/dashboard\/accept-invitation\?token=/);
    expect(invitation.decoded).toContain('as a support member');
  });
});

describe("the people's emails in their language", () => {
  it('writes a reset in the language the person chose, else in the language of the browser that asked', async () => {
    const member = await signedInMember(server, org, 'viewer');
    expect((await member.dashboard('PUT', '/language', { language: 'de' })).status).toBe(204);
    const askIn = (email: string, language: string) => server.request('POST', '/dashboard/api/password-reset/request', { body: { email }, headers: { 'accept-language': language } });
    expect((await askIn(member.email, 'fr-FR,fr;q=0.9')).status).toBe(202);
    const german = await newestTo(member.email);
    expect(german.decoded).toContain('Wählen Sie hier ein neues Passwort');
    expect(german.decoded).toContain('Gesendet von Billow für Acme &amp; &lt;Sons&gt;.');

    const other = await signedInMember(server, org, 'viewer');
    expect((await askIn(other.email, 'fr-CH,en;q=0.5')).status).toBe(202);
    expect((await newestTo(other.email)).decoded).toContain('Choisissez un nouveau mot de passe ici');
    expect((await server.request('POST', '/dashboard/api/sign-in/link/request', { body: { email: other.email }, headers: { 'accept-language': 'es' } })).status).toBe(202);
    expect((await newestTo(other.email, 2)).decoded).toContain('Inicie sesión en su panel de Billow');
  });

  it('writes an invitation in the language of the person who invites, naming the role in words', async () => {
    const admin = await signedInMember(server, org, 'admin');
    expect((await admin.dashboard('PUT', '/language', { language: 'ja' })).status).toBe(204);
    const email = `${uniqueId('invitee')}@example.com`;
    expect((await admin.api('POST', '/api/v1/members/', { email, role: 'developer' })).status).toBe(201);
    const invitation = await newestTo(email);
    expect(invitation.decoded).toContain('開発者として参加するようあなたを招待しています');
    expect(invitation.decoded).not.toContain('developer');
  });
});

describe('how often links may be asked for', () => {
  it('takes 5 links an hour per email (resets and sign-in links together), known or not, then answers 429', async () => {
    const member = await signedInMember(server, org, 'viewer');
    for (let i = 0; i < 5; i++) expect((await ask(i % 2 ? 'sign-in/link' : 'password-reset', member.email)).status).toBe(202);
    const refused = await ask('password-reset', member.email.toUpperCase());
    expect(refused.status).toBe(429);
    expect(refused.body).toMatchObject({ code: 'too_many_link_requests' });
    expect(refused.body.detail).toMatch(/this email \(5 in 60 minutes\)/);
    await sink.to(member.email, 5);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(sink.received.filter((m) => m.to.includes(member.email))).toHaveLength(5);

    const nobody = `${uniqueId('nobody')}@example.com`;
    for (let i = 0; i < 5; i++) expect((await ask('sign-in/link', nobody)).status).toBe(202);
    const unknown = await ask('sign-in/link', nobody);
    expect([unknown.status, unknown.body.code]).toEqual([429, 'too_many_link_requests']);
  });

  it('takes 20 links an hour per client address, whatever the emails', async () => {
    // This file's earlier requests from this address count too: each asks for a new email, until refused.
    let accepted = 0;
    let refused = await ask('password-reset', `${uniqueId('walk')}@example.com`);
    for (; refused.status === 202 && accepted < 25; accepted++) refused = await ask('password-reset', `${uniqueId('walk')}@example.com`);
    expect(refused.status).toBe(429);
    expect(refused.body).toMatchObject({ code: 'too_many_link_requests' });
    expect(refused.body.detail).toMatch(/your address \(20 in 60 minutes\)/);
    expect(accepted).toBeGreaterThan(0);
    expect(accepted).toBeLessThan(20);
  });
});

const haveRedis = await redisAvailable('link and sign-in limits');

describe.skipIf(!haveRedis)('limits counted by every process together, through Redis', () => {
  let database: DatabaseHandle;
  const redis: Redis[] = [];
  let a: TestServer;
  let b: TestServer;
  beforeAll(async () => {
    // A prefix of this run's own: counts of earlier runs (an hour's window) must not count here.
    const keyPrefix = `billow-test-${randomUUID()}:`;
    redis.push(new Redis(REDIS_URL, { keyPrefix }), new Redis(REDIS_URL, { keyPrefix }));
    database = await openTestDatabase();
    a = await startTestServer({ database, redis: redis[0] });
    b = await startTestServer({ database, redis: redis[1] });
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
    await database?.close();
    for (const client of redis) client.disconnect();
  });

  it('counts the links asked for one email on two servers as one count', async () => {
    const email = `${uniqueId('shared')}@example.com`;
    const statuses = [];
    for (const server of [a, b, a, b, a, b]) statuses.push((await server.request('POST', '/dashboard/api/password-reset/request', { body: { email } })).status);
    expect(statuses).toEqual([202, 202, 202, 202, 202, 429]);
  });

  it('counts failed sign-ins of one address on two servers as one count (30 in 15 minutes)', async () => {
    const wrong = { body: { email: `${uniqueId('nobody')}@example.com`, password: 'not the password' } };
    for (let i = 0; i < 30; i++) expect((await (i % 2 ? b : a).request('POST', '/dashboard/api/sign-in', wrong)).status).toBe(401);
    const refused = await a.request('POST', '/dashboard/api/sign-in', wrong);
    expect([refused.status, refused.body.code]).toEqual([429, 'too_many_sign_ins']);
    expect((await b.request('POST', '/dashboard/api/sign-in', wrong)).status).toBe(429);
  }, 120_000);
});
