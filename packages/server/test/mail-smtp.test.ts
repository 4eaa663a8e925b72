/**
 * Buyer email in production (issue 28; decision 0067): a paid invoice's receipt leaves by
 * SMTP (a real server on 127.0.0.1, the smtp-server package) with its text and HTML parts
 * and the invoice's PDF attached, once, however often the compose-mail job runs.
 */
import { extractText, getDocumentProxy } from 'unpdf';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Shop } from './commerce-support.js';
import type { TestOrg, TestServer } from './harness.js';
import type { StripeStandIn } from './stripe/stand-in.js';
import { pngOf } from './seller/images.js';
import { headerOf, SmtpSink, type ReceivedMail } from './smtp-support.js';
import { configureStripe, stripeCard, stripeShop } from './stripe/support.js';

/**
 * The test's SMTP server refuses, with a 550 as for a mailbox that does not exist, every message to a
 * `refuse-always-` address; and with a 451, as a busy server answers, the first to a `refuse-once-` one.
 */
const sink = new SmtpSink((mail, before) => {
  if (mail.to.some((to) => to.startsWith('refuse-always-'))) return { code: 550, message: 'Mailbox unavailable' };
  const once = mail.to.some((to) => to.startsWith('refuse-once-')) && !before.some((r) => r.to[0] === mail.to[0]);
  return once ? { code: 451, message: 'Try again later' } : null;
});
const { received, refused } = sink;

let stand: StripeStandIn;
let server: TestServer;
let s: Shop;
let org: TestOrg;

beforeAll(async () => {
  const smtpUrl = await sink.start();
  ({ stand, server, s, org } = await stripeShop('', { env: { BILLOW_SMTP_URL: smtpUrl, BILLOW_MAIL_FROM: 'Billing <billing@shop.example>', BILLOW_PUBLIC_URL: 'https://billing.shop.example' } }));
  await configureStripe(s);
  const logoImageKey = await uploadedLogo();
  const profile = await s.call('PATCH', '/seller-profile/', { displayName: 'Shop & Co', logoImageKey, supportEmail: 'help@shop.example' });
  if (profile.status !== 200) throw new Error(`profile: ${profile.status} ${profile.text}`);
}, 60_000);
afterAll(async () => {
  await server?.close();
  await stand?.close();
  await sink.close();
});

/** A logo uploaded as the seller's page would, its form posted to this server (the answer names the public address). */
async function uploadedLogo(): Promise<string> {
  const presigned = await s.call('POST', '/media/', { fileName: 'logo.png', fileType: 'image/png' });
  if (presigned.status !== 200) throw new Error(`upload form: ${presigned.status} ${presigned.text}`);
  const form = new FormData();
  for (const [name, value] of Object.entries(presigned.body.fields as Record<string, string>)) form.append(name, value);
  form.append('file', new Blob([new Uint8Array(pngOf(160, 48))], { type: 'image/png' }), 'logo.png');
  const sent = await fetch(String(presigned.body.url).replace(/^https?:\/\/[^/]+/, server.url), { method: 'POST', body: form });
  if (sent.status !== 204) throw new Error(`upload: ${sent.status} ${await sent.text()}`);
  return presigned.body.fileKey as string;
}

/** The messages to `email`, once at least one has arrived (the test's timeout bounds the wait). */
async function messagesTo(email: string): Promise<ReceivedMail[]> {
  for (;;) {
    const found = received.filter((m) => m.to.includes(email));
    if (found.length > 0) return found;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** A quoted-printable part as its text (ASCII enough for the assertions). */
const unquoted = (raw: string) => raw.replace(/=\r\n/g, '').replace(/=([0-9A-F]{2})/g, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16)));

/** The base64 body of the MIME part of a content type. */
function partOf(raw: string, type: string): Buffer {
  const start = raw.indexOf(`Content-Type: ${type}`);
  expect(start).toBeGreaterThan(-1);
  const body = raw.slice(raw.indexOf('\r\n\r\n', start) + 4);
  return Buffer.from(body.slice(0, body.indexOf('\r\n--')).replace(/\s+/g, ''), 'base64');
}

describe('receipts sent by SMTP in production', () => {
  it('sends the receipt with text, HTML and the invoice PDF, once', async () => {
    const customerId = await s.customer();
    const email = `${customerId}@example.com`;
    await stripeCard(s, customerId);
    const charge = await s.call('POST', '/charges/', { planIdentifier: s.plans.lifetime, chargePeriod: 'ONE_TIME', customerId });
    expect(charge.status).toBe(201);
    const invoices = await s.call('GET', `/invoices/?customer_id=${customerId}`);
    const invoice = invoices.body.results[0] as { id: string; number: string };

    await server.runJobs(['compose-mail']);
    const [message] = await messagesTo(email);
    // The seller's name at the instance's address; replies go to the seller's support email.
    expect(message!.raw).toMatch(/^From: "Shop & Co" <billing@shop\.example>$/m);
    expect(message!.raw).toMatch(/^Reply-To: help@shop\.example$/m);
    expect(message!.raw).toMatch(/^Subject: Your receipt from Shop & Co/m);
    // A receipt is transactional: nothing to unsubscribe from.
    expect(message!.raw).not.toMatch(/^List-Unsubscribe:/im);
    expect(message!.raw).toContain('Content-Type: text/plain');
    expect(message!.raw).toContain('Content-Type: text/html');
    expect(message!.raw).toMatch(/filename=.?INV-/);
    // BILLOW_PUBLIC_URL is set: the portal's sign-in page is linked, and the logo shown from its public address.
    const slug = (await server.database.db.selectFrom('organizations').select('slug').where('id', '=', org.organizationId).executeTakeFirstOrThrow()).slug;
    const body = unquoted(message!.raw);
    expect(body).toContain(`Your purchases and invoices are in the customer portal: https://billing.shop.example/portal/${slug}/`);
    expect(body).toContain(`<a href="https://billing.shop.example/portal/${slug}/"`);
    expect(body).toMatch(/<img [^>]*src="https:\/\/billing\.shop\.example\/seller-logos\/[0-9a-f-]{36}\/[0-9a-f]{32}\.png" alt="Shop &amp; Co"/);
    const pdf = partOf(message!.raw, 'application/pdf');
    const { text } = await extractText(await getDocumentProxy(new Uint8Array(pdf)), { mergePages: true });
    expect(text).toContain(`Invoice number ${invoice.number}`);

    // Sent: its body and file are no longer kept; the job again sends nothing.
    const rowOf = () => server.database.db.selectFrom('mail_messages').selectAll().where('recipient', '=', email).executeTakeFirstOrThrow();
    let row = await rowOf();
    // The send is recorded just after the server took the message.
    while (row.status !== 'sent') {
      await new Promise((resolve) => setTimeout(resolve, 20));
      row = await rowOf();
    }
    expect(row).toMatchObject({ status: 'sent', body_text: null, body_html: null, kind: 'receipt' });
    // Message-ID from the outbox's id, at the sending domain; Date: when it was written.
    expect(headerOf(message!.raw, 'Message-ID')).toBe(`<${row.id}@shop.example>`);
    expect(new Date(headerOf(message!.raw, 'Date')).getTime()).toBe(Math.floor(row.created_at.getTime() / 1000) * 1000);
    const files = await server.database.db.selectFrom('mail_attachments').select('position').where('message_id', '=', row.id).execute();
    expect(files).toEqual([]);
    await server.runJobs(['compose-mail', 'send-mail']);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(received.filter((m) => m.to.includes(email))).toHaveLength(1);
  });

  it('a refused first attempt is sent again with the same Message-ID and Date', async () => {
    const customerId = await s.customer({ email: undefined });
    const email = `refuse-once-${customerId}@example.com`;
    expect((await s.call('PATCH', `/customers/${customerId}/`, { email })).status).toBe(200);
    await stripeCard(s, customerId);
    expect((await s.call('POST', '/charges/', { planIdentifier: s.plans.lifetime, chargePeriod: 'ONE_TIME', customerId })).status).toBe(201);
    await server.runJobs(['compose-mail']);
    while (!refused.some((m) => m.to.includes(email))) await new Promise((resolve) => setTimeout(resolve, 20));
    const row = () => server.database.db.selectFrom('mail_messages').selectAll().where('recipient', '=', email).executeTakeFirstOrThrow();
    while ((await row()).status !== 'pending') await new Promise((resolve) => setTimeout(resolve, 20));
    // The send-mail job (due a minute later) tries again now.
    await server.database.db.updateTable('jobs').set({ run_at: null }).where('name', '=', 'send-mail').where('unique_key', '=', (await row()).id).execute();
    await server.runJobs(['send-mail']);
    const [again] = await messagesTo(email);
    const first = refused.find((m) => m.to.includes(email))!;
    expect(headerOf(again!.raw, 'Message-ID')).toBe(`<${(await row()).id}@shop.example>`);
    expect(headerOf(again!.raw, 'Message-ID')).toBe(headerOf(first.raw, 'Message-ID'));
    expect(headerOf(again!.raw, 'Date')).toBe(headerOf(first.raw, 'Date'));
  });
  it('a message refused through every retry ends failed, with the server\'s answer, and holds nothing else up', async () => {
    const buy = async (email: string) => {
      const customerId = await s.customer({ email: undefined });
      expect((await s.call('PATCH', `/customers/${customerId}/`, { email })).status).toBe(200);
      await stripeCard(s, customerId);
      expect((await s.call('POST', '/charges/', { planIdentifier: s.plans.lifetime, chargePeriod: 'ONE_TIME', customerId })).status).toBe(201);
    };
    const bounced = `refuse-always-${Date.now()}@example.com`;
    await buy(bounced);
    await server.runJobs(['compose-mail']);
    const row = () => server.database.db.selectFrom('mail_messages').selectAll().where('recipient', '=', bounced).executeTakeFirstOrThrow();
    // The first attempt, started as the transaction committed, is over once the message waits again with it counted
    // (a message still new is 'pending' too: a retry run before that attempt claims it would find it busy).
    const firstAttemptOver = (m: { status: string; attempts: number }) => m.status === 'pending' && m.attempts >= 1;
    while (!firstAttemptOver(await row())) await new Promise((resolve) => setTimeout(resolve, 20));
    const id = (await row()).id;
    // Each retry made due now, as its backoff would in time: the twelfth is the last.
    for (let retry = 0; retry < 14 && (await row()).status === 'pending'; retry++) {
      await server.database.db.updateTable('jobs').set({ run_at: null }).where('name', '=', 'send-mail').where('unique_key', '=', id).execute();
      await server.runJobs(['send-mail']);
    }
    const failed = await row();
    expect(failed.status).toBe('failed');
    expect(failed.last_error).toContain('Mailbox unavailable');
    expect(failed.body_text).toBeNull();
    // The first attempt, as the transaction committed, then the job's twelve.
    expect(refused.filter((m) => m.to.includes(bounced)).length).toBe(13);
    // Another buyer's receipt goes out as usual.
    const fine = `after-bounce-${Date.now()}@example.com`;
    await buy(fine);
    await server.runJobs(['compose-mail', 'send-mail']);
    const deadline = Date.now() + 5000;
    while (!received.some((m) => m.to.includes(fine)) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(received.some((m) => m.to.includes(fine))).toBe(true);
  });
});
