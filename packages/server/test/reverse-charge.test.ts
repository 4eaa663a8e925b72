/**
 * The tax decision of a sale (issue 27, item 5; decision 0066) through HTTP: a German seller
 * (a DE registration on its profile) selling to a French business with a valid VAT id charges
 * no VAT, records the reverse charge on the invoice and prints the mention on its PDF; the same
 * buyer without the id pays French VAT; a German business pays German VAT (no reverse charge).
 * The upcoming invoice shows the decision the renewal will make.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { shop, type Shop } from './commerce-support.js';
import { startTestServer, type TestOrg, type TestServer } from './harness.js';
import { pdfText } from './pdf-text.js';

let server: TestServer;
let org: TestOrg;
let s: Shop;

const MENTION = 'Reverse charge: VAT to be accounted for by the recipient (Art. 196 Council Directive 2006/112/EC)';

beforeAll(async () => {
  server = await startTestServer();
  org = await server.createOrg('Acme');
  s = await shop(server, org.sandbox.serverKey);
  const profile = await s.call('PATCH', '/seller-profile/', {
    legalName: 'Acme Software GmbH',
    address: { line1: 'Torstraße 1', city: 'Berlin', postalCode: '10119', country: 'DE' },
    taxRegistrations: [{ country: 'DE', taxId: 'DE136695976' }],
  });
  if (profile.status !== 200) throw new Error(`profile: ${profile.status} ${profile.text}`);
});
afterAll(() => server.close());

async function buyer(extra: Record<string, unknown>): Promise<string> {
  const customerId = await s.customer(extra);
  await s.card(customerId);
  return customerId;
}

/** Buys the lifetime plan in EUR (45.00, tax exclusive) and answers its invoice. */
async function buyLifetime(customerId: string) {
  const res = await s.call('POST', '/charges/', { planIdentifier: s.plans.lifetime, chargePeriod: 'ONE_TIME', customerId, currencyCode: 'EUR' });
  if (res.status !== 201) throw new Error(`charge: ${res.status} ${res.text}`);
  const invoices = await s.call('GET', `/invoices/?customer_id=${customerId}`);
  return invoices.body.results[0];
}

async function pdfOf(invoiceId: string): Promise<string> {
  const res = await fetch(`${server.url}/sandbox/api/v1/invoices/${invoiceId}/pdf/`, { headers: { authorization: `Bearer ${org.sandbox.serverKey}` } });
  expect(res.status).toBe(200);
  return pdfText(Buffer.from(await res.arrayBuffer()));
}

describe('the reverse charge', () => {
  it('charges a French business with a valid VAT id no VAT, records why, and prints the mention', async () => {
    const customerId = await buyer({ billingAddress: { country: 'FR', city: 'Paris' }, taxIds: [{ value: 'FR40303265045' }] });
    const invoice = await buyLifetime(customerId);
    expect(invoice).toMatchObject({
      taxRate: '0',
      taxCountry: 'FR',
      taxReason: 'reverse_charge',
      buyerTaxId: { type: 'eu_vat', value: 'FR40303265045', country: 'FR' },
      amountSubtotal: '45.00',
      amountTax: '0.00',
      amountTotal: '45.00',
      buyer: { taxId: 'FR40303265045' },
    });
    const text = await pdfOf(invoice.id);
    expect(text).toContain('Tax ID FR40303265045');
    expect(text.replace(/\n/g, ' ')).toContain(MENTION);

    // Its credit note is reverse-charged too: no VAT credited, the buyer's id and the mention printed.
    const refunded = await s.call('POST', '/refunds/', { orderId: invoice.orderId, amountUnits: 10 });
    expect(refunded.status, refunded.text).toBe(200);
    const [note] = (await s.call('GET', `/credit-notes/?invoice_id=${invoice.id}`)).body.results;
    expect(note).toMatchObject({ amountTax: '0.00' });
    const res = await fetch(`${server.url}/sandbox/api/v1/credit-notes/${note.id}/pdf/`, { headers: { authorization: `Bearer ${org.sandbox.serverKey}` } });
    const noteText = await pdfText(Buffer.from(await res.arrayBuffer()));
    expect(noteText).toContain('Tax ID FR40303265045');
    expect(noteText.replace(/\n/g, ' ')).toContain(MENTION);
  });

  it('charges the same buyer without a tax id French VAT (20 %)', async () => {
    const customerId = await buyer({ billingAddress: { country: 'FR', city: 'Paris' } });
    const invoice = await buyLifetime(customerId);
    expect(invoice).toMatchObject({ taxRate: '20', taxCountry: 'FR', taxReason: 'standard', buyerTaxId: null, amountTax: '9.00', amountTotal: '54.00' });
    expect(await pdfOf(invoice.id)).not.toContain('Reverse charge');
  });

  it("charges a German business German VAT (19 %): the seller's own country is never reverse charged", async () => {
    const customerId = await buyer({ billingAddress: { country: 'DE' }, taxIds: [{ value: 'DE100000008' }] });
    const invoice = await buyLifetime(customerId);
    expect(invoice).toMatchObject({
      taxRate: '19',
      taxCountry: 'DE',
      taxReason: 'standard',
      buyerTaxId: { type: 'eu_vat', value: 'DE100000008', country: 'DE' },
      amountTax: '8.55',
      amountTotal: '53.55',
    });
    const text = await pdfOf(invoice.id);
    expect(text).toContain('Tax ID DE100000008');
    expect(text).not.toContain('Reverse charge');
  });

  it('shows the decision on the upcoming invoice, and renewals follow a tax id added later', async () => {
    const customerId = await buyer({ billingAddress: { country: 'FR' } });
    const created = await s.call('POST', '/subscriptions/create/', { planIdentifier: s.plans.basic, chargePeriod: 'MONTHLY', customerId });
    expect(created.status).toBe(201);
    const before = await s.call('GET', `/subscriptions/${created.body.id}/upcoming-invoice/`);
    expect(before.body).toMatchObject({ taxRate: '20', taxCountry: 'FR', taxReason: 'standard', buyerTaxId: null, amountTaxUnits: 200, amountTotalUnits: 1200 });
    expect((await s.call('PATCH', `/customers/${customerId}/`, { taxIds: [{ value: 'FR40303265045' }] })).status).toBe(200);
    const after = await s.call('GET', `/subscriptions/${created.body.id}/upcoming-invoice/`);
    expect(after.body).toMatchObject({ taxRate: '0', taxCountry: 'FR', taxReason: 'reverse_charge', buyerTaxId: { value: 'FR40303265045' }, amountTaxUnits: 0, amountTotalUnits: 1000 });
  });

  it('prints a tax id of a country outside the EU and charges that country its rate', async () => {
    const customerId = await buyer({ billingAddress: { country: 'GB' }, taxIds: [{ value: 'GB980780684' }] });
    const invoice = await buyLifetime(customerId);
    expect(invoice).toMatchObject({ taxRate: '20', taxCountry: 'GB', taxReason: 'standard', buyerTaxId: { type: 'gb_vat', value: 'GB980780684' } });
  });
});
