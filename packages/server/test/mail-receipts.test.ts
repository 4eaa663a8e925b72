/**
 * Buyers hear from the seller (issue 28; decision 0067): a paid invoice writes, through the
 * compose-mail job its event queues, one receipt with the invoice's PDF into the outbox; in
 * the sandbox it waits in the development inbox. A job run again writes nothing more; a
 * buyer without an email gets nothing, and nothing fails.
 */
import { extractText, getDocumentProxy } from 'unpdf';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CARDS, openShop, type Shop } from './commerce-support.js';
import { environmentIdOf, type TestOrg, type TestServer } from './harness.js';

let server: TestServer;
let org: TestOrg;
let s: Shop;

interface InboxMessage {
  id: string;
  to: string;
  subject: string;
  text: string;
  html: string | null;
  kind: string | null;
  headers: { fromName: string | null; replyTo: string | null; listUnsubscribe: string | null };
  attachments: Array<{ fileName: string; contentType: string; size: number; url: string }>;
}

beforeAll(async () => {
  ({ server, org, s } = await openShop());
  const profile = await s.call('PATCH', '/seller-profile/', {
    displayName: 'Acme <Tools>',
    supportEmail: 'help@acme.example',
    brandColor: '#0a7d5a',
    address: { line1: 'Torstraße 1', city: 'Berlin', postalCode: '10119', country: 'DE' },
  });
  if (profile.status !== 200) throw new Error(`profile: ${profile.status} ${profile.text}`);
}, 60_000);
afterAll(async () => {
  await server?.close();
});

const composeMail = () => server.runJobs(['compose-mail']);

async function inbox(): Promise<InboxMessage[]> {
  const res = await s.call('GET', '/mail/inbox/');
  expect(res.status).toBe(200);
  return res.body.messages as InboxMessage[];
}

async function buy(customerId: string): Promise<{ id: string; number: string; orderId: string }> {
  await s.card(customerId);
  const res = await s.call('POST', '/charges/', { planIdentifier: s.plans.lifetime, chargePeriod: 'ONE_TIME', customerId });
  if (res.status !== 201) throw new Error(`charge: ${res.status} ${res.text}`);
  const invoices = await s.call('GET', `/invoices/?customer_id=${customerId}&page_size=100`);
  return (invoices.body.results as Array<{ id: string; number: string; orderId: string }>).find((i) => i.orderId === res.body.orderId)!;
}

async function pdfTextAt(url: string): Promise<{ status: number; type: string | null; text: string }> {
  const res = await fetch(url, { headers: { authorization: `Bearer ${org.sandbox.serverKey}` } });
  const bytes = new Uint8Array(await res.arrayBuffer());
  if (res.status !== 200) return { status: res.status, type: res.headers.get('content-type'), text: '' };
  const { text } = await extractText(await getDocumentProxy(bytes), { mergePages: true });
  return { status: res.status, type: res.headers.get('content-type'), text };
}

/** The newest invoice.paid event of the shop's sandbox. */
async function lastPaidEvent() {
  return server.database.db
    .selectFrom('events')
    .select('id')
    .where('type', '=', 'invoice.paid')
    .where('environment_id', '=', await environmentIdOf(server, org.organizationId, 'sandbox'))
    .orderBy('seq', 'desc')
    .executeTakeFirstOrThrow();
}

describe('receipts', () => {
  it('a purchase puts one receipt with the invoice PDF in the sandbox inbox, once however often the job runs', async () => {
    const customerId = await s.customer();
    const email = `${customerId}@example.com`;
    const invoice = await buy(customerId);
    expect((await inbox()).filter((m) => m.to === email)).toEqual([]); // written by the job, after the purchase's commit

    expect(await composeMail()).toBeGreaterThan(0);
    const mine = (await inbox()).filter((m) => m.to === email);
    expect(mine).toHaveLength(1);
    const receipt = mine[0]!;
    expect(receipt.subject).toBe('Your receipt from Acme <Tools>');
    // What it would say of its sender when sent: the seller's name, replies to its support email, nothing to unsubscribe from.
    expect(receipt).toMatchObject({ kind: 'receipt', headers: { fromName: 'Acme <Tools>', replyTo: 'help@acme.example', listUnsubscribe: null } });
    expect(receipt.text).toContain('We received your payment of USD\u00a049.00'); // Intl writes the amount, as the invoice PDF does
    expect(receipt.text).toContain(`Invoice: ${invoice.number}`);
    expect(receipt.text).toContain('Write to help@acme.example');
    expect(receipt.text).toContain('Torstraße 1, 10119, Berlin, Germany');
    expect(receipt.html).toContain('Acme &lt;Tools&gt;');
    expect(receipt.html).not.toContain('Acme <Tools>');
    expect(receipt.html).toContain('width="600"');
    // The style sheet is written inline (juice); only the dark scheme's query stays a <style>; the brand colour edges the card.
    expect(receipt.html).toContain('<meta name="color-scheme" content="light dark">');
    expect(receipt.html).toMatch(/<h1 style="[^"]*font-size: 22px/);
    expect(receipt.html).toMatch(/<table class="card"[^>]*style="[^"]*width: 600px;[^"]*border-top: 4px solid #0A7D5A;/);
    expect([...receipt.html!.matchAll(/<style>([\s\S]*?)<\/style>/g)].map((m) => m[1]!.trim().split('{')[0]!.trim())).toEqual(['@media (prefers-color-scheme: dark)']);
    // No BILLOW_PUBLIC_URL here: no absolute address is known, so no portal link and no logo.
    expect(receipt.text).not.toContain('portal');
    expect(receipt.html).not.toContain('<img');
    expect(receipt.attachments).toHaveLength(1);
    expect(receipt.attachments[0]).toMatchObject({ fileName: `${invoice.id}.pdf`, contentType: 'application/pdf' });
    const pdf = await pdfTextAt(receipt.attachments[0]!.url);
    expect(pdf.status).toBe(200);
    expect(pdf.type).toBe('application/pdf');
    expect(pdf.text).toContain(`Invoice number ${invoice.number}`);
    expect(pdf.text).toContain('Torstraße 1');

    // The same event again (a job re-queued by hand, as a replay would): nothing more is written.
    const event = await lastPaidEvent();
    await server.database.db.insertInto('jobs').values({ name: 'compose-mail', payload: JSON.stringify({ eventId: event.id }), unique_key: null, state: 'pending', run_at: null }).execute();
    await composeMail();
    expect((await inbox()).filter((m) => m.to === email)).toHaveLength(1);
  });

  it('a buyer without an email gets no mail, and the purchase and the job succeed', async () => {
    const before = (await inbox()).length;
    const customerId = await s.customer({ email: undefined });
    await buy(customerId);
    await composeMail();
    const event = await lastPaidEvent();
    const jobs = await server.database.db.selectFrom('jobs').select('state').where('name', '=', 'compose-mail').where('unique_key', '=', `event:${event.id}`).execute();
    expect(jobs).toEqual([{ state: 'succeeded' }]);
    expect(await inbox()).toHaveLength(before);
  });

  it('a subscription sends a receipt; cancelling it at once says it was cancelled, with no wire enum shown', async () => {
    const customerId = await s.customer();
    const email = `${customerId}@example.com`;
    await s.card(customerId);
    const created = await s.call('POST', '/subscriptions/create/', { planIdentifier: s.plans.basic, chargePeriod: 'MONTHLY', customerId });
    expect(created.status).toBe(201);
    const cancel = await s.call('POST', `/subscriptions/${created.body.id}/cancel/`, { cancellationType: 'IMMEDIATE' });
    expect(cancel.status).toBe(200);
    await composeMail();
    const mine = (await inbox()).filter((m) => m.to === email);
    expect(mine.map((m) => m.subject).sort()).toEqual(['Your receipt from Acme <Tools>', 'Your subscription to Acme <Tools> has been cancelled']);
    const cancelled = mine.find((m) => m.subject.endsWith('has been cancelled'))!;
    expect(cancelled.text).toMatch(/Your subscription to .+ \(Basic-.+\) was cancelled on \d{1,2} [A-Z][a-z]+ \d{4}, with immediate effect\./);
    expect(cancelled.attachments).toEqual([]);
    for (const m of mine) expect(m.text).not.toMatch(/MONTHLY|ONE_TIME|canceled/);
  });
});

describe('refunds', () => {
  it('a refund sends the buyer its credit note, once', async () => {
    const customerId = await s.customer();
    const email = `${customerId}@example.com`;
    const invoice = await buy(customerId);
    const res = await s.call('POST', '/refunds/', { orderId: invoice.orderId, amountUnits: 1000 });
    expect(res.status).toBe(200);
    expect(res.body.status).toBe('SUCCEEDED');
    await composeMail();
    await composeMail();
    const refunds = (await inbox()).filter((m) => m.to === email && m.subject === 'Your refund from Acme <Tools>');
    expect(refunds).toHaveLength(1);
    const notes = await s.call('GET', `/credit-notes/?invoice_id=${invoice.id}`);
    const note = notes.body.results[0] as { number: string };
    expect(refunds[0]!.text).toContain(`We refunded USD\u00a010.00 of invoice ${invoice.number}`);
    expect(refunds[0]!.text).toContain(`Credit note: ${note.number}`);
    expect(refunds[0]!.attachments).toMatchObject([{ fileName: `${note.number}.pdf`, contentType: 'application/pdf' }]);
    const pdf = await pdfTextAt(refunds[0]!.attachments[0]!.url);
    expect(pdf.text).toContain(note.number);
    expect(pdf.text).toContain(invoice.number);
  });
});

describe('failed payments', () => {
  it('a declined renewal sends the payment-failed email with the invoice pay link', async () => {
    const clock = await s.call('POST', '/test-clocks/', { name: 'mail renewal', frozenTime: '2027-03-01T00:00:00Z' });
    expect(clock.status).toBe(201);
    const customerId = await s.customer({ testClockId: clock.body.id });
    await s.card(customerId, CARDS.ok);
    expect((await s.call('POST', '/subscriptions/create/', { planIdentifier: s.plans.pro, chargePeriod: 'MONTHLY', customerId })).status).toBe(201);
    const declined = await s.card(customerId, CARDS.declined);
    expect((await s.call('POST', `/payment-methods/${declined.id}/default/`)).status).toBe(200);
    expect((await s.call('POST', `/test-clocks/${clock.body.id}/advance/`, { frozenTime: '2027-04-01T00:30:00Z' })).status).toBe(200);
    for (let tries = 0; tries < 300; tries++) {
      if ((await s.call('GET', `/test-clocks/${clock.body.id}/`)).body.status === 'ready') break;
      if ((await server.runJobs()) === 0) await new Promise((resolve) => setTimeout(resolve, 100));
    }
    await composeMail();
    const invoices = await s.call('GET', `/invoices/?customer_id=${customerId}&status=PAYMENT_FAILED`);
    const failed = invoices.body.results[0] as { paymentLink: string };
    expect(failed.paymentLink).toMatch(/^http/);
    const mine = (await inbox()).filter((m) => m.to === `${customerId}@example.com` && m.subject === 'Your payment to Acme <Tools> did not go through');
    expect(mine).toHaveLength(1);
    expect(mine[0]!.text).toContain('Your payment of USD\u00a020.00 for');
    // Background work builds the link on BILLOW_PUBLIC_URL (unset here: localhost:4000), as the webhook's payment_link.
    const path = new URL(failed.paymentLink).pathname;
    expect(mine[0]!.text).toMatch(new RegExp(`You can pay the invoice here: http://localhost:4000${path}\n`));
    expect(mine[0]!.html).toContain(`href="http://localhost:4000${path}"`);
  });
});

describe('email settings', () => {
  it('are all on by default; a switched-off kind is not written, the others are, and each environment has its own', async () => {
    const defaults = (await s.call('GET', '/email-settings/')).body;
    expect(defaults).toMatchObject({ receipts: true, refunds: true, paymentFailed: true, subscriptionEnded: true });
    const off = await s.call('PATCH', '/email-settings/', { receipts: false });
    expect(off.status).toBe(200);
    expect(off.body).toEqual({ ...defaults, receipts: false });
    const production = await server.request('GET', '/api/v1/email-settings/', { key: org.production.serverKey });
    expect(production.body.receipts).toBe(true);
    try {
      const customerId = await s.customer();
      const invoice = await buy(customerId);
      await s.call('POST', '/refunds/', { orderId: invoice.orderId });
      await composeMail();
      const mine = (await inbox()).filter((m) => m.to === `${customerId}@example.com`);
      expect(mine.map((m) => m.subject)).toEqual(['Your refund from Acme <Tools>']);
    } finally {
      expect((await s.call('PATCH', '/email-settings/', { receipts: true })).body.receipts).toBe(true);
    }
  });

  it('refuses bad input with a 400 that changes nothing', async () => {
    for (const body of [{}, { receipts: 'no' }, { sms: true }]) {
      const res = await s.call('PATCH', '/email-settings/', body);
      expect(res.status).toBe(400);
      expect(res.body.detail).toBeTruthy();
    }
    expect((await s.call('GET', '/email-settings/')).body.receipts).toBe(true);
  });
});

describe('the inbox', () => {
  it('a file of the inbox is read only in the sandbox that holds it', async () => {
    const other = await server.createOrg();
    const [message] = (await inbox()).filter((m) => m.attachments.length > 0);
    const url = message!.attachments[0]!.url;
    const res = await fetch(url, { headers: { authorization: `Bearer ${other.sandbox.serverKey}` } });
    expect(res.status).toBe(404);
    const missing = await s.call('GET', `/mail/inbox/${message!.id}/attachments/7`);
    expect(missing.status).toBe(404);
  });
});
