import { execFileSync, spawnSync } from 'node:child_process';
import { inflateSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './harness.js';
import { commerceSeller, createCustomer, insertOrder, type Seller, type TestCustomer } from './commerce-factory.js';

let server: TestServer;
let seller: Seller;
let customer: TestCustomer;

beforeAll(async () => {
  server = await startTestServer();
  seller = await commerceSeller(server, await server.createOrg('Analytical Engines Ltd'));
  customer = await createCustomer(seller, { name: 'Ada Lovelace', email: 'ada@example.com' });
});
afterAll(() => server.close());

const get = (path: string, on: Seller = seller) => server.request('GET', `${on.api}${path}`, { key: on.key });

async function fetchPdf(id: string, key = seller.key) {
  const res = await fetch(`${server.url}${seller.api}/invoices/${id}/pdf/`, { headers: { authorization: `Bearer ${key}` } });
  return { status: res.status, headers: res.headers, bytes: Buffer.from(await res.arrayBuffer()) };
}

/**
 * The text a PDF shows, one string per text run: content streams are inflated
 * and the hex strings of each TJ array (pdfkit's encoding of the standard
 * fonts, Windows-1252) are joined. Enough to find words, with no PDF tool.
 */
function pdfText(pdf: Buffer): string[] {
  const runs: string[] = [];
  const raw = pdf.toString('latin1');
  // Each stream is read by its declared /Length: compressed bytes may end in \r or contain anything.
  for (const match of raw.matchAll(/\/Length (\d+)[^>]*>>\s*stream\r?\n/g)) {
    const start = match.index! + match[0].length;
    let content: string;
    try {
      content = inflateSync(Buffer.from(raw.slice(start, start + Number(match[1])), 'latin1')).toString('latin1');
    } catch {
      continue;
    }
    for (const array of content.matchAll(/\[([^\]]*)\]\s*TJ/g)) {
      const hex = [...array[1]!.matchAll(/<([0-9a-fA-F]*)>/g)].map((m) => m[1]).join('');
      runs.push(Buffer.from(hex, 'hex').toString('latin1'));
    }
  }
  return runs;
}

describe('invoices', () => {
  it('are shown with their lines, amounts, tax, seller and buyer', async () => {
    const order = await insertOrder(seller, customer, {
      totalMinor: 14400,
      taxMinor: 2400,
      discountMinor: 1000,
      lines: [
        { description: 'Growth plan (MONTHLY)', featureId: null, quantity: 1, amountMinor: 10000 },
        { description: 'Seats', featureId: 'seats', quantity: 4, amountMinor: 3000 },
      ],
    });
    const res = await get(`/invoices/${order.invoiceId}/`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      id: order.invoiceId,
      status: 'PAID',
      orderId: order.orderId,
      subscriptionId: null,
      customer: { id: customer.id, customerId: customer.customerId, name: 'Ada Lovelace', email: 'ada@example.com' },
      currency: 'USD',
      currencySymbol: '$',
      amountSubtotal: '130.00',
      amountDiscount: '10.00',
      amountTax: '24.00',
      amountTotal: '144.00',
      amountTotalUnits: 14400,
      taxRate: '20',
      taxBehavior: 'EXCLUSIVE',
      taxCountry: 'GB',
      lines: [
        { description: 'Growth plan (MONTHLY)', quantity: 1, featureId: null, amount: '100.00', amountUnits: 10000 },
        { description: 'Seats', quantity: 4, featureId: 'seats', amount: '30.00', amountUnits: 3000 },
      ],
      seller: { name: 'Analytical Engines Ltd' },
      buyer: { customerId: customer.customerId, name: 'Ada Lovelace', email: 'ada@example.com' },
      dueDate: null,
    });
    expect(res.body.paidAt).toMatch(/Z$/);
    expect(res.body.pdfUrl).toBe(`${server.url}/sandbox/api/v1/invoices/${order.invoiceId}/pdf/`);
    const viaOrder = await get(`/orders/${order.orderId}/`);
    expect(viaOrder.body.invoiceId).toBe(order.invoiceId);
  });

  it('are listed newest first, by customer and status', async () => {
    const own = await commerceSeller(server, await server.createOrg());
    const first = await createCustomer(own);
    const second = await createCustomer(own);
    const a = await insertOrder(own, first, { createdAt: new Date('2026-02-01T00:00:00Z') });
    const b = await insertOrder(own, second, { createdAt: new Date('2026-02-02T00:00:00Z') });
    const c = await insertOrder(own, first, { status: 'PENDING', paidAt: null, createdAt: new Date('2026-02-03T00:00:00Z') });
    const ids = (body: { results: { id: string }[] }) => body.results.map((r) => r.id);

    const all = await get('/invoices/', own);
    expect(all.status).toBe(200);
    expect(ids(all.body)).toEqual([c.invoiceId, b.invoiceId, a.invoiceId]);
    expect(ids((await get(`/invoices/?customer_id=${first.customerId}`, own)).body)).toEqual([c.invoiceId, a.invoiceId]);
    expect(ids((await get(`/invoices/?customer_id=${second.id}`, own)).body)).toEqual([b.invoiceId]);
    expect(ids((await get('/invoices/?status=OPEN', own)).body)).toEqual([c.invoiceId]);
    expect(ids((await get(`/invoices/?status=PAID&customerId=${first.customerId}`, own)).body)).toEqual([a.invoiceId]);
    expect((await get('/invoices/?customer_id=nobody', own)).body.count).toBe(0);
    expect((await get('/invoices/?status=VOID', own)).status).toBe(400);
    expect(ids((await get('/invoices/?page_size=1&page=2', own)).body)).toEqual([b.invoiceId]);
  });

  it('are 404 when unknown or of another environment or organization', async () => {
    const order = await insertOrder(seller, customer);
    const missing = await get('/invoices/INV-20260101000000-NONE0/');
    expect(missing.status).toBe(404);
    expect(missing.body.code).toBe('invoice_not_found');
    const production = await server.request('GET', `/api/v1/invoices/${order.invoiceId}/`, { key: seller.org.production.serverKey });
    expect(production.status).toBe(404);
    const other = await server.createOrg();
    const foreign = await server.request('GET', `/sandbox/api/v1/invoices/${order.invoiceId}/pdf/`, { key: other.sandbox.serverKey });
    expect(foreign.status).toBe(404);
    expect((await get(`/invoices/${order.invoiceId}/`)).status).toBe(200);
  });
});

describe('the invoice PDF', () => {
  it('is a PDF with the seller, buyer, number, lines, tax and total', async () => {
    const order = await insertOrder(seller, customer, {
      totalMinor: 123456,
      taxMinor: 20576,
      lines: [{ description: 'Growth plan (YEARLY)', featureId: null, quantity: 1, amountMinor: 102880 }],
    });
    const pdf = await fetchPdf(order.invoiceId);
    expect(pdf.status).toBe(200);
    expect(pdf.headers.get('content-type')).toBe('application/pdf');
    expect(pdf.headers.get('content-disposition')).toBe(`inline; filename="${order.invoiceId}.pdf"`);
    expect(pdf.bytes.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    expect(pdf.bytes.subarray(-6).toString('latin1')).toMatch(/%%EOF\s*$/);
    expect(pdf.bytes.length).toBeGreaterThan(1500);
    expect(pdf.bytes.length).toBeLessThan(100_000);

    const text = pdfText(pdf.bytes);
    expect(text).toEqual(
      expect.arrayContaining([
        'INVOICE',
        'PAID',
        'Analytical Engines Ltd',
        'Ada Lovelace',
        'ada@example.com',
        '12 Analytical Row',
        'N1 7AA London',
        'United Kingdom',
        order.invoiceId,
        order.orderId,
        'Growth plan (YEARLY)',
        '1,028.80',
        'Total net',
        'USD\u00a01,028.80',
        '20%',
        'Total tax',
        'USD\u00a0205.76',
        'Total',
        'USD\u00a01,234.56',
        'Amount paid',
        'Country of taxation: United Kingdom',
      ]),
    );
    expect(text).not.toContain('Amount due');

    // Cross-checked with a real PDF reader when one is installed.
    if (!spawnSync('pdftotext', ['-v']).error) {
      const rendered = execFileSync('pdftotext', ['-layout', '-', '-'], { input: pdf.bytes }).toString('utf8');
      expect(rendered).toContain(order.invoiceId);
      expect(rendered).toMatch(/Total\s+USD\s1,234\.56/);
      expect(rendered).toContain('Ada Lovelace');
    }
  });

  it('says OPEN and shows the amount due for an unpaid invoice, over several pages when long', async () => {
    const lines = Array.from({ length: 60 }, (_, i) => ({
      description: `Usage line ${i + 1}`,
      featureId: 'api-calls',
      quantity: i + 1,
      amountMinor: 100,
    }));
    const order = await insertOrder(seller, customer, {
      status: 'PENDING',
      paidAt: null,
      totalMinor: 7200,
      taxMinor: 1200,
      lines,
    });
    const pdf = await fetchPdf(order.invoiceId);
    expect(pdf.status).toBe(200);
    const text = pdfText(pdf.bytes);
    expect(text).toEqual(expect.arrayContaining(['OPEN', 'Amount due', 'USD\u00a072.00', 'Usage line 1', 'Usage line 60']));
    expect(text).not.toContain('PAID');
    expect(text.some((run) => /page 2 of [2-9]/.test(run))).toBe(true);
  });

  it('takes only a server key, and is 404 for an unknown invoice', async () => {
    const order = await insertOrder(seller, customer);
    expect((await fetchPdf(order.invoiceId, seller.org.sandbox.clientKey)).status).toBe(403);
    const missing = await fetchPdf('INV-20260101000000-NONE0');
    expect(missing.status).toBe(404);
    expect(missing.headers.get('content-type')).toMatch(/^application\/json/);
  });
});
