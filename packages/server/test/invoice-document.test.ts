/**
 * Lawful invoices (issue 27, item 3; decision 0064), through the API on a test clock: each
 * line in words with its service period (in the seller's time zone), quantity, unit price,
 * tax rate and tax; the amounts per tax rate; the buyer as they were at issue; the seller's
 * language; the portal listing the number. The PDF is read back with a PDF text extractor
 * (unpdf) and checked against every item of VAT Directive art. 226 that applies without tax
 * ids of buyers.
 */
import { extractText, getDocumentProxy } from 'unpdf';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Shop } from './commerce-support.js';
import { uniqueId, type TestServer } from './harness.js';
import { openPortalWorld, portalGet, type PortalWorld } from './portal/support.js';

let w: PortalWorld;
let server: TestServer;
let s: Shop;

function expectStatus(res: { status: number; text: string }, status: number) {
  if (res.status !== status) throw new Error(`${status} expected: ${res.status} ${res.text}`);
}

const PROFILE = {
  legalName: 'Acme Software GmbH',
  address: { line1: 'Torstraße 1', city: 'Berlin', postalCode: '10119', country: 'DE' },
  taxRegistrations: [{ country: 'DE', taxId: 'DE123456788' }],
  invoicePrefix: 'ACME',
  timeZone: 'Europe/Berlin',
};

beforeAll(async () => {
  w = await openPortalWorld();
  ({ server, s } = w);
  expectStatus(await s.call('PATCH', '/seller-profile/', PROFILE), 200);
});
afterAll(() => server.close());

/** A published plan at `base` a month with API calls at 0.01 each, pay-as-you-go; its identifier, name and feature. */
async function meteredPlan(name: string, base: number) {
  const calls = await s.api.feature({
    name: 'API calls',
    identifier: uniqueId('calls'),
    featureType: 'METER',
    featureDetails: { featureSubType: 'PRE_AGGREGATED_USAGE', units: { singular: 'call', plural: 'calls' } },
  });
  const plan = await s.api.plan(s.product.id, { name: uniqueId(name) });
  expectStatus(await s.call('POST', `/catalog/plans/${plan.identifier}/features/`, { planEntitlements: [{ feature: calls.id, details: { value: 0 } }] }), 201);
  const metered = { feature: calls.identifier, paymentType: 'PAY_AS_YOU_GO', priceModel: 'FLAT', charges: [{ chargePeriod: 'MONTHLY', priceData: { amount: 0.01 } }] };
  await s.api.prices(plan.identifier, [
    { priceType: 'PAID', currency: 'USD', chargeCatalogPrice: [{ charges: [{ chargePeriod: 'MONTHLY', priceData: { amount: base } }] }, metered] },
  ]);
  await s.api.publish(plan.identifier);
  return { plan: plan.identifier as string, name: plan.name as string, calls: calls.identifier as string };
}

const ADA = {
  name: 'Ada Lovelace',
  billingAddress: { line1: '12 rue de Rivoli', city: 'Paris', postalCode: '75001', country: 'FR' },
};

async function invoicesOf(customerId: string): Promise<any[]> {
  const res = await s.call('GET', `/invoices/?customer_id=${customerId}&page_size=100`);
  expectStatus(res, 200);
  return (res.body.results as any[]).reverse();
}

/** The PDF's text as a PDF reader extracts it, whitespace runs made single spaces. */
async function pdfTextOf(invoiceId: string): Promise<string> {
  const res = await fetch(`${server.url}/sandbox/api/v1/invoices/${invoiceId}/pdf/`, { headers: { authorization: `Bearer ${w.org.sandbox.serverKey}` } });
  expect(res.status).toBe(200);
  const pdf = await getDocumentProxy(new Uint8Array(await res.arrayBuffer()));
  const { text } = await extractText(pdf, { mergePages: true });
  return text.replace(/[\s\u00a0]+/g, ' ');
}

/** Whether `text` says `words`, wherever its lines wrapped (a wrap adds a space, or breaks after a hyphen). */
const says = (text: string, words: string) => text.replace(/\s/g, '').includes(words.replace(/\s/g, ''));

describe('an invoice of a subscription', () => {
  let customerId: string;
  let clockId: string;
  let plan: Awaited<ReturnType<typeof meteredPlan>>;

  beforeAll(async () => {
    plan = await meteredPlan('Pro', 5);
    clockId = await w.testClock('2026-11-27T09:00:00Z');
    customerId = await w.customer({ clockId });
    expectStatus(await s.call('PATCH', `/customers/${customerId}/`, ADA), 200);
    await w.subscribe(customerId, plan.plan);
  });

  it('words the plan with its period, as days where the seller is', async () => {
    const [first] = await invoicesOf(customerId);
    // The API's lines are as they were (the wire of the reference's shapes is unchanged).
    expect(first.lines).toEqual([{ description: `${plan.name} (MONTHLY)`, quantity: 1, featureId: null, amount: '5.00', amountUnits: 500 }]);
    const text = await pdfTextOf(first.id);
    expect(says(text, `${plan.name} — monthly, 27 Nov – 26 Dec 2026`), text).toBe(true);
    expect(text).not.toContain('Date of supply');
  });

  it('meets art. 226 on a renewal with usage: number, dates, periods, parties, quantities, unit prices, rate, tax per rate, totals', async () => {
    await w.advance(clockId, '2026-12-10T12:00:00Z');
    expectStatus(await s.call('POST', '/report/usage/', { customerId, featureId: plan.calls, value: 7_707, behaviour: 'DELTA' }), 200);
    await w.advance(clockId, '2026-12-27T10:00:00Z');
    const renewal = (await invoicesOf(customerId)).at(-1)!;
    expect(renewal.lines.map((l: any) => l.amountUnits)).toEqual([500, 7_707]);
    const rate = `${renewal.taxRate}%`;
    const money = (units: number) => `USD ${(units / 100).toLocaleString('en-GB', { minimumFractionDigits: 2 })}`;
    const text = await pdfTextOf(renewal.id);
    const expected = [
      // (1) issue date, (2) the sequential number
      'Issue date 27 Dec 2026',
      renewal.number,
      // (3) the supplier's VAT id, (5) the supplier's and customer's names and addresses
      'Acme Software GmbH', 'Torstraße 1', '10119 Berlin', 'Germany', 'Tax ID DE123456788',
      'Ada Lovelace', '12 rue de Rivoli', '75001 Paris', 'France',
      // (6) quantity and nature of the services, (7) the date of supply: each line's period
      `${plan.name} — monthly, 27 Dec 2026 – 26 Jan 2027`,
      'API calls — 7,707 × 0.01, 27 Nov – 26 Dec 2026',
      // (8) taxable amount per rate, unit price; (9) the rate; (10) the tax payable
      'Tax rate Net amount Tax',
      `${rate} ${money(renewal.amountSubtotalUnits - renewal.amountDiscountUnits)} ${money(renewal.amountTaxUnits)}`,
      `Total net ${money(renewal.amountSubtotalUnits)}`,
      `Total tax ${money(renewal.amountTaxUnits)}`,
      `Total ${money(renewal.amountTotalUnits)}`,
    ];
    for (const item of expected) expect(says(text, item), `${item} in ${text}`).toBe(true);
    expect(text).toMatch(/DESCRIPTION\s*QTY\s*UNIT PRICE\s*DISCOUNT\s*TAX %\s*TAX\s*NET/);
    // Each line's quantity, unit price, (no) discount, rate, tax and taxable amount, in that order.
    const cells = (...values: string[]) => new RegExp(values.map((v) => v.replace(/[.%]/g, '\\$&')).join('\\s*'));
    const [planLine, usageLine] = renewal.lines.map((l: any) => l.amountUnits);
    const taxOf = (units: number) => ((units * Number(renewal.taxRate)) / 10_000).toFixed(2);
    expect(text).toMatch(cells('1', '5.00', rate, taxOf(planLine), '5.00'));
    expect(text).toMatch(cells('7,707', '0.01', rate, taxOf(usageLine), '77.07'));
    expect(renewal.amountTaxUnits).toBeGreaterThan(0);
    expect(renewal.number).toMatch(/^ACME-2026-\d{6}$/);
  });

  it('words a change of plan: the new plan for the rest of the period, paid first by the credit of the unused time', async () => {
    const next = await meteredPlan('Max', 20);
    await w.advance(clockId, '2027-01-03T09:00:00Z');
    const current = (await s.call('GET', `/subscriptions/?customer_id=${customerId}`)).body.results[0];
    expectStatus(await s.call('POST', `/subscriptions/${current.id}/update/`, { planIdentifier: next.plan, chargePeriod: 'MONTHLY' }), 200);
    const change = (await invoicesOf(customerId)).at(-1)!;
    // The unused time comes back by a credit note (credit-notes.test.ts), whose credit pays this invoice.
    expect(change.lines.map((l: any) => l.description)).toEqual([`${next.name} (MONTHLY) for the rest of the period`]);
    const text = await pdfTextOf(change.id);
    expect(says(text, `Remaining time on ${next.name}, 3 – 26 Jan 2027`), text).toBe(true);
    expect(says(text, 'Paid from credit balance'), text).toBe(true);
    expect(text).not.toContain('Unused time');
  });
});

describe('the buyer on an invoice', () => {
  it('is recorded at issue: a later change of the customer rewrites no issued invoice', async () => {
    const customerId = await w.customer();
    const email = `${customerId}@example.com`;
    // A customer with no name yet, and an address.
    expectStatus(await s.call('PATCH', `/customers/${customerId}/`, { name: null, billingAddress: ADA.billingAddress }), 200);
    expectStatus(await s.call('POST', '/charges/', { planIdentifier: s.plans.lifetime, chargePeriod: 'ONE_TIME', customerId }), 201);
    const [invoice] = await invoicesOf(customerId);
    expect(invoice.buyer).toEqual({ customerId, name: null, email, billingAddress: expect.objectContaining({ city: 'Paris' }), taxId: null });

    const moved = { name: 'Grace Hopper', email: `moved-${email}`, billingAddress: { line1: '1 Navy Yard', city: 'Arlington', postalCode: '22202', country: 'US' } };
    expectStatus(await s.call('PATCH', `/customers/${customerId}/`, moved), 200);
    const after = (await s.call('GET', `/invoices/${invoice.id}/`)).body;
    expect(after.buyer).toEqual(invoice.buyer);
    const text = await pdfTextOf(invoice.id);
    expect(text).toContain(email);
    expect(text).toContain('75001 Paris');
    for (const later of ['Grace Hopper', 'moved-', 'Arlington']) expect(text).not.toContain(later);
    // A one-off purchase is supplied on the day of issue.
    expect(text).toMatch(/Date of supply \d{1,2} \w{3} \d{4}/);
    expect(text).toContain('— one-off purchase');
  });
});

describe("the customer portal's invoice list", () => {
  it('shows the lawful number', async () => {
    const customerId = await w.customer();
    expectStatus(await s.call('POST', '/charges/', { planIdentifier: s.plans.lifetime, chargePeriod: 'ONE_TIME', customerId }), 201);
    const [invoice] = await invoicesOf(customerId);
    const page = await portalGet(await w.portalLink(customerId));
    expect(page.status).toBe(200);
    expect(page.text).toContain(`<h3>${invoice.number} <span`);
    expect(page.text).not.toContain(`<h3>${invoice.id}`);
  });
});

describe("the seller's language", () => {
  it('writes the invoices issued after it is set, amounts and dates included; earlier ones stay as issued', async () => {
    const customerId = await w.customer();
    const buy = () => s.call('POST', '/charges/', { planIdentifier: s.plans.lifetime, chargePeriod: 'ONE_TIME', customerId });
    expectStatus(await buy(), 201);
    expectStatus(await s.call('PATCH', '/seller-profile/', { defaultLanguage: 'de' }), 200);
    expectStatus(await buy(), 201);
    const [english, german] = await invoicesOf(customerId);
    const before = await pdfTextOf(english.id);
    expect(before).toContain('INVOICE');
    expect(before).toContain('Total USD 49.00');
    const after = await pdfTextOf(german.id);
    expect(after).toContain('RECHNUNG');
    expect(after).toContain('Gesamtbetrag 49,00 USD');
    expect(after).toContain('Rechnungsnummer');
    expect(after).toContain('— Einmalkauf');
    expect(after).toMatch(/Rechnungsdatum \d{1,2}\. \S+ \d{4}/);
    expect(after).toContain('Deutschland');
  });
});
