/**
 * Lawful invoice numbers and the seller block (issue 27, item 3; decision 0062): every
 * invoice issued gets the next number of the seller's gapless sequence (the profile's
 * prefix, the year where the seller is, a counter), also when purchases race each other
 * through two servers on one database; the invoice records the seller as the profile
 * says then, and its PDF prints both.
 */
import { inflateSync } from 'node:zlib';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { shop, type Shop } from './commerce-support.js';
import { openTestDatabase, startTestServer, type TestOrg, type TestServer } from './harness.js';

const SHARED_DATABASE = Boolean(process.env.DATABASE_URL);

let first: TestServer;
let second: TestServer;
let org: TestOrg;
let s: Shop;

beforeAll(async () => {
  first = await startTestServer();
  org = await first.createOrg('Acme');
  s = await shop(first, org.sandbox.serverKey);
  // On PostgreSQL the second server has a pool of its own, as a second process would; the embedded
  // database is one process's, so there both servers share its one connection.
  second = await startTestServer({ database: SHARED_DATABASE ? await openTestDatabase() : first.database });
  const profile = await s.call('PATCH', '/seller-profile/', {
    legalName: 'Acme Software GmbH',
    address: { line1: 'Torstraße 1', city: 'Berlin', postalCode: '10119', country: 'DE' },
    taxRegistrations: [{ country: 'DE', taxId: 'DE123456788' }],
    supportEmail: 'billing@acme.example',
    invoicePrefix: 'ACME',
    timeZone: 'Europe/Berlin',
  });
  if (profile.status !== 200) throw new Error(`profile: ${profile.status} ${profile.text}`);
});
afterAll(async () => {
  await second?.close();
  await first?.close();
});

const year = () => new Intl.DateTimeFormat('en', { timeZone: 'Europe/Berlin', year: 'numeric' }).format(new Date());

async function buyerWithCard(): Promise<string> {
  const customerId = await s.customer();
  await s.card(customerId);
  return customerId;
}

async function purchase(server: TestServer, customerId: string): Promise<string> {
  const res = await server.request('POST', '/sandbox/api/v1/charges/', {
    key: org.sandbox.serverKey,
    body: { planIdentifier: s.plans.lifetime, chargePeriod: 'ONE_TIME', customerId },
  });
  if (res.status !== 201) throw new Error(`charge: ${res.status} ${res.text}`);
  return res.body.orderId as string;
}

async function invoiceOf(orderId: string) {
  const res = await s.call('GET', `/invoices/?page_size=100`);
  return (res.body.results as Array<{ id: string; number: string | null; orderId: string; seller: Record<string, unknown> }>).find((i) => i.orderId === orderId)!;
}

async function allNumbers(): Promise<string[]> {
  const numbers: string[] = [];
  for (let page = 1; ; page++) {
    const res = await s.call('GET', `/invoices/?page_size=100&page=${page}`);
    numbers.push(...(res.body.results as Array<{ number: string }>).map((i) => i.number));
    if (!res.body.next) return numbers.sort();
  }
}

/** The text runs of a pdfkit PDF (its content streams inflated, the hex strings of TJ arrays joined). */
function pdfText(pdf: Buffer): string {
  const raw = pdf.toString('latin1');
  const runs: string[] = [];
  for (const match of raw.matchAll(/\/Length (\d+)[^>]*>>\s*stream\r?\n/g)) {
    const start = match.index! + match[0].length;
    try {
      const content = inflateSync(Buffer.from(raw.slice(start, start + Number(match[1])), 'latin1')).toString('latin1');
      for (const array of content.matchAll(/\[([^\]]*)\]\s*TJ/g)) {
        runs.push(Buffer.from([...array[1]!.matchAll(/<([0-9a-fA-F]*)>/g)].map((m) => m[1]).join(''), 'hex').toString('latin1'));
      }
    } catch {
      continue;
    }
  }
  return runs.join('\n');
}

describe('invoice numbers', () => {
  it("number the seller's invoices in one sequence, and record the seller as the profile says", async () => {
    const orders = [];
    for (let i = 0; i < 3; i++) orders.push(await purchase(first, await buyerWithCard()));
    const invoices = await Promise.all(orders.map(invoiceOf));
    expect(invoices.map((i) => i.number)).toEqual([1, 2, 3].map((n) => `ACME-${year()}-00000${n}`));
    expect(invoices[0]!.id).toMatch(/^INV-/);
    expect(invoices[0]!.seller).toEqual({
      name: 'Acme Software GmbH',
      displayName: 'Acme',
      address: { line1: 'Torstraße 1', line2: null, city: 'Berlin', postalCode: '10119', region: null, country: 'DE' },
      taxIds: [{ country: 'DE', taxId: 'DE123456788' }],
      email: 'billing@acme.example',
      website: null,
      timeZone: 'Europe/Berlin',
      language: 'en',
    });
  });

  it('stay gapless and unique when 50 purchases race through two servers', async () => {
    const before = (await allNumbers()).length;
    const buyers = await Promise.all(Array.from({ length: 50 }, () => buyerWithCard()));
    await Promise.all(buyers.map((buyer, i) => purchase(i % 2 === 0 ? first : second, buyer)));
    const numbers = await allNumbers();
    const expected = Array.from({ length: before + 50 }, (_, i) => `ACME-${year()}-${String(i + 1).padStart(6, '0')}`);
    expect(numbers).toEqual(expected);
  });

  it("print the number and the seller's legal name, address and VAT id on the PDF", async () => {
    const orderId = await purchase(first, await buyerWithCard());
    const invoice = await invoiceOf(orderId);
    const res = await fetch(`${first.url}/sandbox/api/v1/invoices/${invoice.id}/pdf/`, { headers: { authorization: `Bearer ${org.sandbox.serverKey}` } });
    expect(res.status).toBe(200);
    const text = pdfText(Buffer.from(await res.arrayBuffer()));
    for (const expected of [invoice.number!, 'Acme Software GmbH', 'Torstraße 1', '10119 Berlin', 'Germany', 'Tax ID DE123456788', 'billing@acme.example']) {
      expect(text).toContain(expected);
    }
  });

  it('go on past 999,999 with a seventh digit, never cutting one', async () => {
    const last = await invoiceOf(await purchase(first, await buyerWithCard()));
    await sql`update invoice_number_counters set last_number = 999999
      where environment_id = (select environment_id from invoices where id = ${last.id}) and year = ${Number(year())}`.execute(first.database.db);
    const orders = [await purchase(first, await buyerWithCard()), await purchase(second, await buyerWithCard())];
    const numbers = (await Promise.all(orders.map(invoiceOf))).map((i) => i.number);
    expect(numbers).toEqual([`ACME-${year()}-1000000`, `ACME-${year()}-1000001`]);
  });
});
