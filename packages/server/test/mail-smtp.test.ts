/**
 * Buyer email in production (issue 28; decision 0067): a paid invoice's receipt leaves by
 * SMTP (a real server on 127.0.0.1, the smtp-server package) with its text and HTML parts
 * and the invoice's PDF attached, once, however often the compose-mail job runs.
 */
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { extractText, getDocumentProxy } from 'unpdf';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Shop } from './commerce-support.js';
import type { TestServer } from './harness.js';
import type { StripeStandIn } from './stripe/stand-in.js';
import { configureStripe, stripeCard, stripeShop } from './stripe/support.js';

interface Received {
  to: string[];
  raw: string;
}

const received: Received[] = [];
const smtp = new SMTPServer({
  authOptional: true,
  disabledCommands: ['STARTTLS', 'AUTH'],
  logger: false,
  onData: (stream, session, callback) => {
    const chunks: Buffer[] = [];
    stream.on('data', (chunk: Buffer) => chunks.push(chunk));
    stream.on('end', () => {
      received.push({ to: session.envelope.rcptTo.map((r) => r.address), raw: Buffer.concat(chunks).toString('utf8') });
      callback();
    });
  },
});

let stand: StripeStandIn;
let server: TestServer;
let s: Shop;

beforeAll(async () => {
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
  const port = (smtp.server.address() as AddressInfo).port;
  ({ stand, server, s } = await stripeShop('', { env: { BILLOW_SMTP_URL: `smtp://127.0.0.1:${port}`, BILLOW_MAIL_FROM: 'Billing <billing@shop.example>' } }));
  await configureStripe(s);
  const profile = await s.call('PATCH', '/seller-profile/', { displayName: 'Shop & Co' });
  if (profile.status !== 200) throw new Error(`profile: ${profile.status} ${profile.text}`);
}, 60_000);
afterAll(async () => {
  await server?.close();
  await stand?.close();
  await new Promise<void>((resolve) => smtp.close(() => resolve()));
});

/** The messages to `email`, once at least one has arrived (the test's timeout bounds the wait). */
async function messagesTo(email: string): Promise<Received[]> {
  for (;;) {
    const found = received.filter((m) => m.to.includes(email));
    if (found.length > 0) return found;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

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
    expect(message!.raw).toMatch(/^From: Billing <billing@shop\.example>/m);
    expect(message!.raw).toMatch(/^Subject: Your receipt from Shop & Co/m);
    expect(message!.raw).toContain('Content-Type: text/plain');
    expect(message!.raw).toContain('Content-Type: text/html');
    expect(message!.raw).toMatch(/filename=.?INV-/);
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
    const files = await server.database.db.selectFrom('mail_attachments').select('position').where('message_id', '=', row.id).execute();
    expect(files).toEqual([]);
    await server.runJobs(['compose-mail', 'send-mail']);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(received.filter((m) => m.to.includes(email))).toHaveLength(1);
  });
});
