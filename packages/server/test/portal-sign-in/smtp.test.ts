import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.js';
import { ManualClock } from '../../src/lib/clock.js';
import { startTestServer, type TestOrg, type TestServer } from '../harness.js';
import { codeIn, createCustomer, FormBrowser, slugOf, uniqueEmail } from './support.js';

// Production email through SMTP (decision 0038): a real SMTP server on 127.0.0.1 (the
// smtp-server package) receives what nodemailer sends after the sign-in's transaction.

interface Received {
  to: string[];
  raw: string;
}

/** A local SMTP server that keeps what it receives, and can refuse recipients for a while. */
class LocalSmtp {
  readonly received: Received[] = [];
  refusing = false;
  private waiters: (() => void)[] = [];
  private readonly server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onRcptTo: (_address, _session, callback) => callback(this.refusing ? Object.assign(new Error('try later'), { responseCode: 451 }) : null),
    onData: (stream, session, callback) => {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        this.received.push({ to: session.envelope.rcptTo.map((r) => r.address), raw: Buffer.concat(chunks).toString('utf8') });
        for (const wake of this.waiters.splice(0)) wake();
        callback();
      });
    },
  });

  async listen(): Promise<number> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    return (this.server.server.address() as AddressInfo).port;
  }

  /** The first message to `email`, once it has arrived (the test's own timeout bounds the wait). */
  async messageTo(email: string): Promise<Received> {
    for (;;) {
      const found = this.received.find((m) => m.to.includes(email));
      if (found) return found;
      await new Promise<void>((resolve) => this.waiters.push(resolve));
    }
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

const clock = new ManualClock(new Date('2026-11-21T08:00:00Z'));
let smtp: LocalSmtp;
let server: TestServer;
let org: TestOrg;
let signIn: string;

/** The message row of the newest sign-in email to `email`. */
const messageRow = (email: string) =>
  server.database.db.selectFrom('mail_messages').selectAll().where('recipient', '=', email).orderBy('seq', 'desc').executeTakeFirstOrThrow();

/** The message once its first attempt (started after the sign-in's transaction) has failed. */
async function firstAttemptOf(email: string) {
  for (;;) {
    const row = await messageRow(email);
    if (row.last_error) return row;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

beforeAll(async () => {
  smtp = new LocalSmtp();
  const port = await smtp.listen();
  server = await startTestServer({
    clock,
    env: { BILLOW_SMTP_URL: `smtp://127.0.0.1:${port}`, BILLOW_MAIL_FROM: 'Billing <billing@shop.example>' },
  });
  org = await server.createOrg('Shop & Co');
  signIn = `/portal/${await slugOf(server, org.organizationId)}/sign-in`;
});
afterAll(async () => {
  await server?.close();
  await smtp?.close();
});

describe('sign-in codes sent by SMTP in production', () => {
  it('sends the code to the customer, and the code opens the portal', async () => {
    const email = uniqueEmail('smtp');
    await createCustomer(server, org.production.serverKey, 'production', { email });
    const browser = new FormBrowser(server.url);
    const asked = await browser.submit(signIn, { email });
    expect(asked.status).toBe(303);
    const message = await smtp.messageTo(email);
    expect(message.raw).toMatch(/^From: Billing <billing@shop\.example>/m);
    expect(message.raw).toMatch(/^Subject: Your sign-in code for Shop & Co/m);
    const code = codeIn(message.raw.replace(/\r\n/g, '\n'));
    const signedIn = await browser.submit(asked.location!, { code });
    expect(signedIn.status, signedIn.text).toBe(303);
    expect(signedIn.location).toMatch(new RegExp(`^${server.url}/portal/[^/]+/\\?token=cpt-`));
    const row = await messageRow(email);
    expect(row.status).toBe('sent');
    expect(row.body_text).toBeNull();
  });

  it('keeps a refused message queued, and the send-mail job sends it once the server takes it', async () => {
    const email = uniqueEmail('retry');
    await createCustomer(server, org.production.serverKey, 'production', { email });
    smtp.refusing = true;
    await new FormBrowser(server.url).submit(signIn, { email });
    const refused = await firstAttemptOf(email);
    expect(refused.status).toBe('pending');
    expect(refused.last_error).toContain('try later');
    smtp.refusing = false;
    clock.advance(61_000);
    expect(await server.runJobs(['send-mail'])).toBeGreaterThanOrEqual(1);
    expect(codeIn((await smtp.messageTo(email)).raw.replace(/\r\n/g, '\n'))).toMatch(/^\d{6}$/);
    expect((await messageRow(email)).status).toBe('sent');
  });

  it('never sends a code that expired while the server refused it', async () => {
    const email = uniqueEmail('late');
    await createCustomer(server, org.production.serverKey, 'production', { email });
    smtp.refusing = true;
    await new FormBrowser(server.url).submit(signIn, { email });
    await firstAttemptOf(email);
    smtp.refusing = false;
    clock.advance(10 * 60_000);
    await server.runJobs(['send-mail']);
    const row = await messageRow(email);
    expect(row.status).toBe('expired');
    expect(row.body_text).toBeNull();
    expect(smtp.received.some((m) => m.to.includes(email))).toBe(false);
  });
});

describe('the mail settings', () => {
  const load = (env: Record<string, string>) => () => loadConfig(env as NodeJS.ProcessEnv);

  it('need a From address with an SMTP URL, and refuse another scheme without echoing the URL', () => {
    expect(load({ BILLOW_SMTP_URL: 'smtp://user:pw@mail.example:587' })).toThrow(/BILLOW_MAIL_FROM/);
    let refused: unknown;
    try {
      load({ BILLOW_SMTP_URL: 'http://user:hunter2@mail.example', BILLOW_MAIL_FROM: 'a@b.example' })();
    } catch (error) {
      refused = error;
    }
    expect(refused).toBeInstanceOf(ConfigError);
    expect(String(refused)).not.toContain('hunter2');
    expect(load({ BILLOW_SIGN_IN_LIMIT_WINDOW_MS: String(2 * 24 * 3_600_000) })).toThrow(/at most one day/);
    expect(loadConfig({} as NodeJS.ProcessEnv).mail).toEqual({ smtpUrl: null, from: null });
  });
});
