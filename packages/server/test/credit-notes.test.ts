/**
 * Credit notes (issue 27, item 4; decision 0065): a settled refund, full or partial, and the
 * credit for a plan change's unused time each issue one credit note, numbered in the seller's
 * own gapless credit note sequence (also when refunds race), against the invoice it corrects;
 * the API lists, retrieves and prints them, `credit_note.created` is delivered, and the
 * customer portal shows them with their PDF.
 */
import { randomUUID } from 'node:crypto';
import { extractText, getDocumentProxy } from 'unpdf';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openLink, openPortalWorld, type PortalWorld } from './portal/support.js';
import { Receiver } from './webhook-support.js';

let world: PortalWorld;
let receiver: Receiver;

beforeAll(async () => {
  world = await openPortalWorld();
  const profile = await world.s.call('PATCH', '/seller-profile/', {
    legalName: 'Acme Software GmbH',
    address: { line1: 'Torstraße 1', city: 'Berlin', postalCode: '10119', country: 'DE' },
    invoicePrefix: 'ACME',
    timeZone: 'Europe/Berlin',
  });
  if (profile.status !== 200) throw new Error(`profile: ${profile.status} ${profile.text}`);
  receiver = await Receiver.start();
  const endpoint = await world.s.call('POST', '/webhook/endpoints/', { url: receiver.url, eventTypes: ['credit_note.created'] });
  if (endpoint.status !== 201) throw new Error(`endpoint: ${endpoint.status} ${endpoint.text}`);
}, 60_000);
afterAll(async () => {
  await receiver?.close();
  await world?.server.close();
});

const year = () => new Intl.DateTimeFormat('en', { timeZone: 'Europe/Berlin', year: 'numeric' }).format(new Date());
const numbered = (n: number) => `ACME-CN-${year()}-${String(n).padStart(6, '0')}`;

interface Note {
  id: string;
  number: string;
  reason: string;
  invoiceId: string | null;
  invoiceNumber: string | null;
  refundId: string | null;
  subscriptionId: string | null;
  customer: { customerId: string };
  amountSubtotalUnits: number;
  amountTaxUnits: number;
  amountTotalUnits: number;
  lines: Array<{ description: string; amountUnits: number; taxAmountUnits: number; taxRate: string }>;
  taxTotals: unknown[];
  seller: Record<string, unknown>;
  pdfUrl: string;
}

async function purchase(customerId: string): Promise<{ orderId: string; invoice: { id: string; number: string } }> {
  const res = await world.s.call('POST', '/charges/', { planIdentifier: world.s.plans.lifetime, chargePeriod: 'ONE_TIME', customerId });
  if (res.status !== 201) throw new Error(`charge: ${res.status} ${res.text}`);
  const invoices = await world.s.call('GET', `/invoices/?customer_id=${customerId}&page_size=100`);
  const invoice = (invoices.body.results as Array<{ id: string; number: string; orderId: string }>).find((i) => i.orderId === res.body.orderId)!;
  return { orderId: res.body.orderId, invoice };
}

async function refund(orderId: string, amountUnits?: number): Promise<string> {
  const res = await world.s.call('POST', '/refunds/', { orderId, ...(amountUnits ? { amountUnits } : {}) });
  if (res.status !== 200 || res.body.status !== 'SUCCEEDED') throw new Error(`refund: ${res.status} ${res.text}`);
  return res.body.id;
}

async function notes(query = ''): Promise<Note[]> {
  const all: Note[] = [];
  for (let page = 1; ; page++) {
    const res = await world.s.call('GET', `/credit-notes/?page_size=100&page=${page}${query}`);
    expect(res.status).toBe(200);
    all.push(...(res.body.results as Note[]));
    if (!res.body.next) return all;
  }
}

async function pdfText(url: string, key = world.org.sandbox.serverKey): Promise<{ status: number; type: string | null; text: string }> {
  const res = await fetch(url, { headers: { authorization: `Bearer ${key}` } });
  const bytes = new Uint8Array(await res.arrayBuffer());
  if (res.status !== 200) return { status: res.status, type: res.headers.get('content-type'), text: '' };
  const { text } = await extractText(await getDocumentProxy(bytes), { mergePages: true });
  return { status: res.status, type: res.headers.get('content-type'), text };
}

let fullNote: Note;
let buyer: string;

describe('credit notes of refunds', () => {
  it('issues one credit note for a full refund and one for a partial refund, numbered one after the other', async () => {
    buyer = await world.customer();
    const first = await purchase(buyer);
    const second = await purchase(buyer);
    const fullRefund = await refund(first.orderId);
    const partialRefund = await refund(second.orderId, 1_000);

    const [full] = await notes(`&invoice_id=${first.invoice.id}`);
    const partial = await notes(`&invoice_id=${second.invoice.id}`);
    expect(partial).toHaveLength(1);
    expect(full).toMatchObject({
      number: numbered(1),
      reason: 'REFUND',
      invoiceId: first.invoice.id,
      invoiceNumber: first.invoice.number,
      refundId: fullRefund,
      subscriptionId: null,
      customer: { customerId: buyer },
      amountTotalUnits: 4_900,
      seller: { name: 'Acme Software GmbH' },
    });
    expect(full!.lines).toHaveLength(1);
    expect(full!.lines[0]!.description).toMatch(/^Refund: /);
    expect(full!.amountSubtotalUnits + full!.amountTaxUnits).toBe(4_900);
    expect(partial[0]).toMatchObject({ number: numbered(2), reason: 'REFUND', refundId: partialRefund, amountTotalUnits: 1_000 });
    expect(partial[0]!.lines[0]!.description).toMatch(/^Partial refund: /);
    fullNote = full!;

    // The list, newest first, filtered by customer.
    expect((await notes(`&customer_id=${buyer}`)).map((n) => n.number)).toEqual([numbered(2), numbered(1)]);
  });

  it('keeps the sequence gapless when 20 partial refunds race', async () => {
    const orders = await Promise.all(Array.from({ length: 10 }, async () => (await purchase(await world.customer())).orderId));
    const before = (await notes()).length;
    const refunds = await Promise.all(orders.flatMap((orderId) => [refund(orderId, 500), refund(orderId, 700)]));
    const after = await notes('&reason=REFUND');
    expect(after).toHaveLength(before + 20);
    expect(after.map((n) => n.number).sort()).toEqual(Array.from({ length: before + 20 }, (_, i) => numbered(i + 1)));
    const byRefund = new Map(after.map((n) => [n.refundId, n]));
    for (const id of refunds) expect(byRefund.get(id)).toBeDefined();
    expect(after.filter((n) => refunds.includes(n.refundId!)).map((n) => n.amountTotalUnits).sort()).toEqual([
      ...Array<number>(10).fill(500),
      ...Array<number>(10).fill(700),
    ]);
  });
});

describe('credit notes of plan changes', () => {
  it("credits the unused time of a plan change against the old subscription's invoice", async () => {
    const customerId = await world.customer();
    const basic = await world.subscribe(customerId, world.s.plans.basic);
    const [basicInvoice] = (await world.s.call('GET', `/invoices/?customer_id=${customerId}`)).body.results as Array<{ id: string; number: string }>;
    const change = await world.s.call('POST', `/subscriptions/${basic}/update/`, { planIdentifier: world.s.plans.pro, chargePeriod: 'MONTHLY' });
    expect(change.status).toBe(200);

    const issued = await notes(`&customer_id=${customerId}`);
    expect(issued).toHaveLength(1);
    type Listed = { id: string; lines: Array<{ description: string }>; amountDiscountUnits: number; amountTotalUnits: number };
    const invoices = (await world.s.call('GET', `/invoices/?customer_id=${customerId}`)).body.results as Listed[];
    // The unused time is given back once, by the credit note, never as a line of the change's invoice too.
    expect(invoices.flatMap((i) => i.lines).filter((l) => l.description.startsWith('Unused time on'))).toEqual([]);
    expect(issued[0]).toMatchObject({
      reason: 'PRORATION',
      subscriptionId: basic,
      refundId: null,
      invoiceId: basicInvoice!.id,
      invoiceNumber: basicInvoice!.number,
      lines: [{ description: expect.stringMatching(/^Unused time on /) }],
    });
    expect(issued[0]!.amountTotalUnits).toBeGreaterThan(0);
    // Its credit pays the change's invoice: counted with what was paid before the card was charged.
    const changed = invoices.find((i) => i.id !== basicInvoice!.id)!;
    expect(changed.amountDiscountUnits).toBe(issued[0]!.amountTotalUnits);
    expect(issued[0]!.number).toMatch(new RegExp(`^ACME-CN-${year()}-\\d{6}$`));
  });
});

describe('the credit note routes', () => {
  it('retrieve one credit note, and print it: title, number, the invoice it corrects, amounts', async () => {
    const res = await world.s.call('GET', `/credit-notes/${fullNote.id}/`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual(fullNote);
    expect(res.body.pdfUrl).toBe(`${world.server.url}/sandbox/api/v1/credit-notes/${fullNote.id}/pdf/`);

    const pdf = await pdfText(fullNote.pdfUrl);
    expect(pdf.status).toBe(200);
    expect(pdf.type).toBe('application/pdf');
    for (const expected of ['Credit note', fullNote.number, fullNote.invoiceNumber!, 'Acme Software GmbH', 'Torstraße 1', '49.00 USD', 'Total credited']) {
      expect(pdf.text).toContain(expected);
    }
  });

  it('answer 404 for an unknown id and for another organization\'s credit note, 400 for bad filters', async () => {
    for (const id of [randomUUID(), 'not-a-uuid']) {
      const res = await world.s.call('GET', `/credit-notes/${id}/`);
      expect(res.status).toBe(404);
      expect(res.body.code).toBe('credit_note_not_found');
      expect((await world.s.call('GET', `/credit-notes/${id}/pdf/`)).status).toBe(404);
    }
    const other = await world.server.createOrg();
    const theirs = (path: string) => world.server.request('GET', `/sandbox/api/v1${path}`, { key: other.sandbox.serverKey });
    expect((await theirs(`/credit-notes/${fullNote.id}/`)).status).toBe(404);
    expect((await pdfText(fullNote.pdfUrl, other.sandbox.serverKey)).status).toBe(404);
    expect((await theirs('/credit-notes/')).body).toMatchObject({ count: 0, results: [] });

    for (const query of ['reason=BOGUS', 'page=0', 'page_size=abc', 'invoice_id=', `customer_id=${'x'.repeat(300)}`]) {
      const res = await world.s.call('GET', `/credit-notes/?${query}`);
      expect(res.status, query).toBe(400);
      expect(res.body.detail, query).toEqual(expect.any(String));
    }
    expect((await world.s.call('GET', `/credit-notes/?invoice_id=INV-NONE`)).body).toMatchObject({ count: 0 });
  });
});

describe('the OpenAPI document', () => {
  it('documents the credit note routes, their filters and the PDF', async () => {
    const { body: doc } = await world.server.request('GET', '/api/v1/openapi.json');
    expect(Object.keys(doc.paths['/api/v1/credit-notes/'])).toEqual(['get']);
    expect(Object.keys(doc.paths['/api/v1/credit-notes/{id}/'])).toEqual(['get']);
    const list = doc.paths['/api/v1/credit-notes/'].get;
    expect(list.tags).toEqual(['Credit notes']);
    expect(list.parameters.map((p: { name: string }) => p.name).sort()).toEqual(['count', 'customer_id', 'invoice_id', 'order', 'page', 'page_size', 'reason', 'search', 'sort']);
    expect(Object.keys(doc.paths['/api/v1/credit-notes/{id}/pdf/'].get.responses['200'].content)).toEqual(['application/pdf']);
  });
});

describe('credit_note.created', () => {
  it('is delivered with the credit note', async () => {
    for (let tries = 0; tries < 100 && !receiver.ofType('credit_note.created').some((r) => r.json.data.object.id === fullNote.id); tries++) {
      await world.server.deliverWebhooks();
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const event = receiver.ofType('credit_note.created').find((r) => r.json.data.object.id === fullNote.id)!;
    expect(event.json.data.object).toMatchObject({
      object: 'credit_note',
      number: fullNote.number,
      reason: 'REFUND',
      invoice_id: fullNote.invoiceId,
      invoice_number: fullNote.invoiceNumber,
      refund_id: fullNote.refundId,
      amount_total_units: 4_900,
      customer: { customer_id: buyer },
      organization: world.org.organizationId,
    });
  });
});

describe('the customer portal', () => {
  it("lists the customer's credit notes beside the invoices, with their PDF; another customer's PDF is 404", async () => {
    const page = await openLink(await world.portalLink(buyer));
    expect(page.status).toBe(200);
    expect(page.text).toContain('id="credit-notes"');
    expect(page.text).toContain(numbered(1));
    expect(page.text).toContain(numbered(2));
    const href = `credit-notes/${fullNote.id}.pdf`;
    expect(page.text).toContain(href);

    const pdf = await fetch(`${page.url.split('?')[0]}${href}`, { headers: { cookie: (await portalCookie(buyer)) ?? '' } });
    expect(pdf.status).toBe(200);
    expect(pdf.headers.get('content-type')).toBe('application/pdf');
    const { text } = await extractText(await getDocumentProxy(new Uint8Array(await pdf.arrayBuffer())), { mergePages: true });
    expect(text).toContain(fullNote.number);

    const stranger = await world.customer();
    const theirPage = await openLink(await world.portalLink(stranger));
    expect(theirPage.text).not.toContain('id="credit-notes"');
    const foreign = await fetch(`${theirPage.url.split('?')[0]}${href}`, { headers: { cookie: (await portalCookie(stranger)) ?? '' } });
    expect(foreign.status).toBe(404);
  });
});

/** The portal cookie a browser gets on opening the customer's portal link. */
async function portalCookie(customerId: string): Promise<string | null> {
  const first = await fetch(await world.portalLink(customerId), { redirect: 'manual' });
  return first.headers.get('set-cookie')?.split(';')[0] ?? null;
}
