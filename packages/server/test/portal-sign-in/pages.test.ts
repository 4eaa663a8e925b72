import { randomInt } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/lib/clock.js';
import { mailJobs } from '../../src/job-handlers/mail.js';
import { startTestServer, type TestOrg, type TestServer } from '../harness.js';
import { createCustomer, csrfOf, FormBrowser, inbox, latestCode, slugOf, uniqueEmail } from './support.js';

// Sign-in to the customer portal by one-time email code (issue 14 item 3, decision 0038),
// through the pages as a browser without JavaScript uses them, in the sandbox (codes in the inbox).

const MINUTE = 60_000;
const clock = new ManualClock(new Date('2026-11-20T10:00:00Z'));
let server: TestServer;
let org: TestOrg;
let signIn: string;

/** Asks for a code for `email` in a fresh browser; answers the browser and the code page's path. */
async function askCode(email: string, browser = new FormBrowser(server.url)) {
  const asked = await browser.submit(signIn, { email });
  expect(asked.status, asked.text).toBe(303);
  return { browser, codePath: asked.location! };
}

async function enterCode(browser: FormBrowser, codePath: string, code: string) {
  return browser.submit(codePath, { code });
}

/** The customer (merchant id) of the portal session a token opened. */
async function customerOfToken(location: string): Promise<string> {
  const token = new URL(location).searchParams.get('token')!;
  const id = /^cpt-([0-9a-f-]{36}):/.exec(token)![1]!;
  const row = await server.database.db
    .selectFrom('portal_sessions as p')
    .innerJoin('customers as c', 'c.id', 'p.customer_id')
    .select('c.customer_id')
    .where('p.id', '=', id)
    .executeTakeFirstOrThrow();
  return row.customer_id;
}

beforeAll(async () => {
  server = await startTestServer({ clock, env: { BILLOW_SIGN_IN_EMAIL_LIMIT: '3', BILLOW_SIGN_IN_ADDRESS_LIMIT: '1000' } });
  org = await server.createOrg();
  signIn = `/sandbox/portal/${await slugOf(server, org.organizationId)}/sign-in`;
});
afterAll(() => server?.close());

describe('signing in to the portal with an email code (sandbox)', () => {
  it('sends a code to the development inbox, and the code opens the portal of that customer', async () => {
    const email = uniqueEmail();
    const customerId = await createCustomer(server, org.sandbox.serverKey, 'sandbox', { email });
    const page = await new FormBrowser(server.url).get(signIn);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toContain("script-src 'self'");
    expect(page.headers.get('set-cookie')).toMatch(/HttpOnly; SameSite=Lax/);
    const { browser, codePath } = await askCode(email.toUpperCase());
    const codePage = await browser.get(codePath);
    expect(codePage.status).toBe(200);
    expect(codePage.text).toContain(email);
    const code = await latestCode(server, org, email);
    const signedIn = await enterCode(browser, codePath, code.replace(/(\d{3})/, '$1 '));
    expect(signedIn.status, signedIn.text).toBe(303);
    expect(signedIn.location).toMatch(new RegExp(`^${server.url}/sandbox/portal/[^/]+/\\?token=cpt-`));
    expect(await customerOfToken(signedIn.location!)).toBe(customerId);
  });

  it('uses a code once', async () => {
    const email = uniqueEmail();
    await createCustomer(server, org.sandbox.serverKey, 'sandbox', { email });
    const { browser, codePath } = await askCode(email);
    const code = await latestCode(server, org, email);
    expect((await enterCode(browser, codePath, code)).status).toBe(303);
    const again = await enterCode(browser, codePath, code);
    expect(again.status).toBe(410);
    expect(again.text).toContain('already used');
  });

  it('lets a code expire after ten minutes by the clock', async () => {
    const email = uniqueEmail();
    await createCustomer(server, org.sandbox.serverKey, 'sandbox', { email });
    const { browser, codePath } = await askCode(email);
    const code = await latestCode(server, org, email);
    clock.advance(10 * MINUTE);
    const late = await enterCode(browser, codePath, code);
    expect(late.status).toBe(410);
    expect(late.text).toContain('expired');
  });

  it('counts wrong codes, and refuses even the right one after five', async () => {
    const email = uniqueEmail();
    await createCustomer(server, org.sandbox.serverKey, 'sandbox', { email });
    const { browser, codePath } = await askCode(email);
    const code = await latestCode(server, org, email);
    const wrong = code === '000000' ? '111111' : '000000';
    const typo = await enterCode(browser, codePath, '12ab');
    expect(typo.status).toBe(422);
    expect(typo.text).toContain('Enter the 6-digit code');
    for (let left = 4; left >= 1; left--) {
      const refused = await enterCode(browser, codePath, wrong);
      expect(refused.status).toBe(422);
      expect(refused.text).toContain(`${left} ${left === 1 ? 'try' : 'tries'} left`);
    }
    expect((await enterCode(browser, codePath, wrong)).status).toBe(429);
    const right = await enterCode(browser, codePath, code);
    expect(right.status).toBe(429);
    expect(right.text).toContain('Too many wrong codes');
  });

  it('answers an unknown email exactly as a known one, and writes it nothing', async () => {
    const known = uniqueEmail('known');
    await createCustomer(server, org.sandbox.serverKey, 'sandbox', { email: known });
    const unknown = uniqueEmail('unknown');
    const a = await askCode(known);
    const b = await askCode(unknown);
    const pageOf = async (x: { browser: FormBrowser; codePath: string }, email: string) =>
      (await x.browser.get(x.codePath)).text.replaceAll(email, 'EMAIL').replace(/\/sign-in\/[0-9a-f-]{36}/, '/sign-in/ID').replace(/value="[^"]+"/, '');
    expect(await pageOf(b, unknown)).toBe(await pageOf(a, known));
    expect((await inbox(server, org)).messages.some((m) => m.to === unknown)).toBe(false);
    const guess = await enterCode(b.browser, b.codePath, '123456');
    expect(guess.status).toBe(422);
  });

  it('limits codes per email, for unknown emails alike, with a page that says to wait', async () => {
    for (const [email, known] of [[uniqueEmail('limited'), true], [uniqueEmail('unknown'), false]] as const) {
      if (known) await createCustomer(server, org.sandbox.serverKey, 'sandbox', { email });
      for (let i = 0; i < 3; i++) await askCode(email);
      const browser = new FormBrowser(server.url);
      const fourth = await browser.submit(signIn, { email });
      expect(fourth.status).toBe(429);
      expect(fourth.text).toContain('Wait an hour');
      clock.advance(61 * MINUTE);
      await askCode(email);
    }
  });

  it('keeps a code to the browser that asked for it, and refuses forms without the cookie or token', async () => {
    const email = uniqueEmail();
    await createCustomer(server, org.sandbox.serverKey, 'sandbox', { email });
    const { codePath } = await askCode(email);
    const code = await latestCode(server, org, email);
    const other = new FormBrowser(server.url);
    expect((await enterCode(other, codePath, code)).status).toBe(404);
    const noToken = await other.post(signIn, { email });
    expect(noToken.status).toBe(403);
    const noCookie = new FormBrowser(server.url);
    const page = await noCookie.get(signIn);
    noCookie.forgetCookie();
    expect((await noCookie.post(signIn, { csrf_token: csrfOf(page.text), email })).status).toBe(403);
  });

  it('lets the customer choose among the accounts that share the email', async () => {
    const email = uniqueEmail('shared');
    await createCustomer(server, org.sandbox.serverKey, 'sandbox', { email, name: 'Personal <b>account</b>' });
    const second = await createCustomer(server, org.sandbox.serverKey, 'sandbox', { email: email.toUpperCase(), name: 'Company account' });
    const { browser, codePath } = await askCode(email);
    const choice = await enterCode(browser, codePath, await latestCode(server, org, email));
    expect(choice.status).toBe(200);
    expect(choice.text).toContain('Personal &lt;b&gt;account&lt;/b&gt;');
    const pk = /Company account<\/h3>[^]*?value="([0-9a-f-]{36})"/.exec(choice.text)![1]!;
    const chosen = await browser.post(`${codePath}/choose`, { csrf_token: csrfOf(choice.text), customer: pk });
    expect(chosen.status, chosen.text).toBe(303);
    expect(await customerOfToken(chosen.location!)).toBe(second);
    const twice = await browser.post(`${codePath}/choose`, { csrf_token: csrfOf(choice.text), customer: pk });
    expect(twice.status).toBe(410);
  });

  it('keeps environments apart: a sandbox sign-in is unknown in production, and production has no inbox', async () => {
    const email = uniqueEmail();
    await createCustomer(server, org.sandbox.serverKey, 'sandbox', { email });
    const { browser, codePath } = await askCode(email);
    const code = await latestCode(server, org, email);
    const inProduction = await browser.submit(codePath.replace('/sandbox', ''), { code });
    expect(inProduction.status).toBe(404);
    const productionInbox = await server.request('GET', '/api/v1/mail/inbox/', { key: org.production.serverKey });
    expect(productionInbox.status).toBe(404);
    expect(productionInbox.body.detail).toContain('only in the sandbox');
    const otherOrg = await server.createOrg();
    expect((await inbox(server, otherOrg)).messages).toEqual([]);
  });

  it('answers bad input with pages, never JSON', async () => {
    const browser = new FormBrowser(server.url);
    const huge = await browser.submit(signIn, { email: 'x'.repeat(20_000) });
    expect(huge.status).toBe(413);
    expect(huge.headers.get('content-type')).toContain('text/html');
    expect(huge.text).toContain(`href="${signIn}"`);
    const long = await browser.get(`/sandbox/portal/${'s'.repeat(300)}/sign-in`);
    expect(long.status).toBe(400);
    expect(long.headers.get('content-type')).toContain('text/html');
    const badId = await browser.submit(`${signIn}/not-an-id`, { code: '123456' });
    expect(badId.status).toBe(404);
  });

  it('answers production without SMTP with a clear page, and no portal with a 404 page', async () => {
    const email = uniqueEmail();
    await createCustomer(server, org.production.serverKey, 'production', { email });
    const refused = await new FormBrowser(server.url).submit(signIn.replace('/sandbox', ''), { email });
    expect(refused.status).toBe(503);
    expect(refused.text).toContain('not available');
    const missing = await new FormBrowser(server.url).get('/sandbox/portal/no-such-seller/sign-in');
    expect(missing.status).toBe(404);
  });
});

describe('the limit per client address', () => {
  it('refuses the address that asked for too many codes, whatever the emails', async () => {
    // Its own hour, years after the other tests' and unlike an earlier run's on the same database: the limit counts every sign-in from 127.0.0.1.
    const later = new ManualClock(new Date(Date.UTC(2030, 0, 1) + randomInt(0, 100_000) * 24 * 60 * MINUTE));
    const strict = await startTestServer({ clock: later, env: { BILLOW_SIGN_IN_ADDRESS_LIMIT: '2' } });
    try {
      const other = await strict.createOrg();
      const path = `/sandbox/portal/${await slugOf(strict, other.organizationId)}/sign-in`;
      const browser = new FormBrowser(strict.url);
      expect((await browser.submit(path, { email: uniqueEmail() })).status).toBe(303);
      expect((await browser.submit(path, { email: uniqueEmail() })).status).toBe(303);
      const third = await new FormBrowser(strict.url).submit(path, { email: uniqueEmail() });
      expect(third.status).toBe(429);
      expect(third.text).toContain('from this network');
    } finally {
      await strict.close();
    }
  });
});

describe('old sign-ins and messages', () => {
  it('are deleted by the hourly purge: sign-ins after 7 days, messages (the inbox too) after 30', async () => {
    // A clock years before the other tests': the purge deletes none of their rows on a shared database.
    const past = new ManualClock(new Date('2020-01-01T00:00:00Z'));
    const old = await startTestServer({ clock: past });
    try {
      const seller = await old.createOrg();
      const email = uniqueEmail('old');
      await createCustomer(old, seller.sandbox.serverKey, 'sandbox', { email });
      const path = `/sandbox/portal/${await slugOf(old, seller.organizationId)}/sign-in`;
      const browser = new FormBrowser(old.url);
      const asked = await browser.submit(path, { email });
      const purge = () => mailJobs(old.database.db, past, old.config.mail)['purge-mail-and-sign-ins']!.run({}, { jobId: 0, attempt: 1, log: old.app.log });
      past.advance(7 * 24 * 60 * MINUTE + 1);
      await purge();
      expect((await browser.get(asked.location!)).status).toBe(404);
      expect((await inbox(old, seller)).messages.map((m) => m.to)).toEqual([email]);
      past.advance(23 * 24 * 60 * MINUTE);
      await purge();
      expect((await inbox(old, seller)).messages).toEqual([]);
    } finally {
      await old.close();
    }
  });
});

describe('the development inbox page', () => {
  it('lists the sandbox messages behind its secret link, and shows one', async () => {
    const email = uniqueEmail('inbox');
    await createCustomer(server, org.sandbox.serverKey, 'sandbox', { email });
    await askCode(email);
    const { inboxUrl, messages } = await inbox(server, org);
    expect(inboxUrl).toMatch(new RegExp(`^${server.url}/sandbox/mail/inbox/`));
    const list = await fetch(inboxUrl);
    expect(list.status).toBe(200);
    expect(list.headers.get('content-security-policy')).toContain("default-src 'self'");
    const listed = await list.text();
    expect(listed).toContain(email);
    const message = messages.find((m) => m.to === email)!;
    const shown = await (await fetch(`${inboxUrl}${message.id}`)).text();
    expect(shown).toContain(/\n(\d{6})\n/.exec(message.text)![1]);
    const tampered = inboxUrl.replace(/.\/$/, (m) => (m[0] === 'A' ? 'B/' : 'A/'));
    expect((await fetch(tampered)).status).toBe(404);
    expect((await fetch(inboxUrl.replace('/sandbox/', '/'))).status).toBe(404);
    const otherOrg = await server.createOrg();
    const otherUrl = (await inbox(server, otherOrg)).inboxUrl;
    expect((await fetch(`${otherUrl}${message.id}`)).status).toBe(404);
  });
});
