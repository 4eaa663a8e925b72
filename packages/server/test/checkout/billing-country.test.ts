import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/lib/clock.js';
import { CARDS } from '../commerce-support.js';
import { uniqueId } from '../harness.js';
import { csrfOf, getPage, openCheckoutWorld, payWith, postForm, type CheckoutWorld } from './support.js';

// The billing country on the hosted page (issue 25, item 8; decision 0059): what the page
// shows, what is charged and what is recorded all follow the buyer's choice, also for a
// returning customer whose stored address is in another country.

const clock = new ManualClock(new Date('2026-11-20T10:00:00Z'));
let w: CheckoutWorld;

beforeAll(async () => {
  w = await openCheckoutWorld({ clock });
});
afterAll(() => w?.server.close());

const BERLIN = { line1: 'Hauptstraße 1', city: 'Berlin', postalCode: '10115', country: 'DE' };
const GERMAN_VAT = 'Tax 19 % (Germany)';

/** A customer with a stored German address. */
const germanCustomer = () => w.s.customer({ billingAddress: BERLIN });

/** The paid session, its order and invoice. */
async function paid(sessionId: string) {
  const session = (await w.s.call('GET', `/checkout/sessions/${sessionId}/`)).body;
  expect(session.status).toBe('success');
  const order = (await w.s.call('GET', `/orders/${session.order.id}/`)).body;
  const invoice = (await w.s.call('GET', `/invoices/${session.order.invoiceId}/`)).body;
  return { session, order, invoice };
}

function expectChargedInUs({ session, order, invoice }: Awaited<ReturnType<typeof paid>>): void {
  expect(session.billingAddress).toEqual({ country: 'US' });
  expect(order.billingAddress).toMatchObject({ country: 'US' });
  expect(invoice).toMatchObject({ status: 'PAID', taxCountry: 'US', amountTax: '0.00', amountTotal: '10.00' });
}

describe('the billing country of a returning customer', () => {
  it('with a server key: the page starts at the stored country; choosing the United States shows, charges and records the US, and the customer moves there', async () => {
    const ada = await germanCustomer();
    const { id, url } = await w.session({ customerId: ada });
    const first = await getPage(url);
    expect(first.text).toMatch(/<option value="DE" selected>Germany<\/option>/);
    expect(first.text).toContain(GERMAN_VAT);

    const chosen = await getPage(`${url}?country=US`);
    expect(chosen.text).toMatch(/<option value="US" selected>United States<\/option>/);
    expect(chosen.text).not.toContain('(Germany)');
    expect(chosen.text).toContain('id="total">$10.00');
    const csrf = csrfOf(chosen.text);
    const updated = await postForm(url, { csrf_token: csrf, action: 'update', plan: w.s.plans.basic, period: 'MONTHLY', country: 'US' });
    expect(updated.text).not.toContain('(Germany)');
    expect(updated.text).toContain('Pay $10.00');

    const done = await postForm(url, payWith(csrf, CARDS.ok, { email: `${ada}@example.com`, country: 'US' }));
    expect(done.status, done.text).toBe(303);
    const result = await paid(id);
    expectChargedInUs(result);
    expect(result.session.customer.customerId).toBe(ada);
    // The Berlin street no longer applies in the United States: the address is the country alone.
    const customer = (await w.s.call('GET', `/customers/${ada}/`)).body;
    expect(customer.billingAddress).toMatchObject({ country: 'US' });
    expect(customer.billingAddress.line1 ?? null).toBeNull();
    expect(customer.email).toBe(`${ada}@example.com`);
  });

  it('keeps the stored address when the buyer pays in its country', async () => {
    const ada = await germanCustomer();
    const { id, url } = await w.session({ customerId: ada });
    const page = await getPage(url);
    expect((await postForm(url, payWith(csrfOf(page.text), CARDS.ok, { email: `${ada}@example.com`, country: 'DE' }))).status).toBe(303);
    const { invoice } = await paid(id);
    expect(invoice).toMatchObject({ taxCountry: 'DE', amountTax: '1.90', amountTotal: '11.90' });
    expect((await w.s.call('GET', `/customers/${ada}/`)).body.billingAddress).toMatchObject(BERLIN);
  });

  it("without a server key: a stranger's choice is charged to a new customer, and the named one keeps the German address", async () => {
    const ada = await germanCustomer();
    const made = await w.create({ planIdentifier: w.s.plans.basic, chargePeriod: 'MONTHLY', successUrl: 'https://shop.example/ok', customerId: ada }, w.org.sandbox.clientKey);
    expect(made.status, made.text).toBe(201);
    const page = await getPage(`${made.body.checkoutUrl}?country=US`);
    expect(page.text).not.toContain('(Germany)');
    const done = await postForm(made.body.checkoutUrl, payWith(csrfOf(page.text), CARDS.ok, { email: 'stranger@example.com', country: 'US' }));
    expect(done.status, done.text).toBe(303);
    const result = await paid(made.body.checkoutSessionId);
    expectChargedInUs(result);
    expect(result.session.customer.customerId).not.toBe(ada);
    expect((await w.s.call('GET', `/customers/${ada}/`)).body.billingAddress).toMatchObject(BERLIN);
  });

  it("without a server key: a second attempt in another country charges that country, on the customer the session's first attempt made", async () => {
    const fresh = uniqueId('fresh');
    const made = await w.create({ planIdentifier: w.s.plans.basic, chargePeriod: 'MONTHLY', successUrl: 'https://shop.example/ok', customerId: fresh }, w.org.sandbox.clientKey);
    const url = made.body.checkoutUrl as string;
    const csrf = csrfOf((await getPage(url)).text);
    const declined = await postForm(url, payWith(csrf, CARDS.declined, { country: 'DE' }));
    expect(declined.status).toBe(422);
    expect((await w.s.call('GET', `/customers/${fresh}/`)).body.billingAddress).toMatchObject({ country: 'DE' });
    expect(declined.text).toContain(GERMAN_VAT);
    const retried = await postForm(url, payWith(csrf, CARDS.ok, { country: 'US' }));
    expect(retried.status, retried.text).toBe(303);
    const result = await paid(made.body.checkoutSessionId);
    expectChargedInUs(result);
    expect(result.session.customer.customerId).toBe(fresh);
    expect((await w.s.call('GET', `/customers/${fresh}/`)).body.billingAddress).toMatchObject({ country: 'US' });
  });
});
