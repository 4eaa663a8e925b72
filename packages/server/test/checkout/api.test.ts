import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/lib/clock.js';
import { officialClient } from '../official-client-support.js';
import { uniqueId } from '../harness.js';
import { openCheckoutWorld, type CheckoutWorld } from './support.js';

// POST /checkout/ and the sessions API (DOMAIN.md §2.2, §3.7; interface §4.7).

const clock = new ManualClock(new Date('2026-11-20T10:00:00Z'));
let w: CheckoutWorld;

beforeAll(async () => {
  w = await openCheckoutWorld({ clock });
});
afterAll(() => w?.server.close());

const count = async () => (await w.s.call('GET', '/checkout/sessions/')).body.count as number;

describe('POST /checkout/', () => {
  it('creates an open session with an unguessable cs_ id and a page URL under the sandbox prefix', async () => {
    const res = await w.create({ planIdentifier: w.s.plans.basic, chargePeriod: 'MONTHLY', successUrl: 'https://shop.example/ok', metadata: { Order_Ref: 'A-1', nested: { camelKey: 1 } } });
    expect(res.status).toBe(201);
    expect(Object.keys(res.body).sort()).toEqual(['checkoutSessionId', 'checkoutUrl']);
    expect(res.body.checkoutSessionId).toMatch(/^cs_[A-Za-z0-9]{48}$/);
    expect(res.body.checkoutUrl).toBe(`${w.server.url}/sandbox/checkout/${res.body.checkoutSessionId}/`);
    const detail = await w.s.call('GET', `/checkout/sessions/${res.body.checkoutSessionId}/`);
    expect(detail.status).toBe(200);
    expect(detail.body).toMatchObject({ id: res.body.checkoutSessionId, status: 'open', currency: 'USD', currencySymbol: '$', order: null, subscription: null, paymentMethod: null });
    expect(detail.body.metadata).toEqual({ Order_Ref: 'A-1', nested: { camelKey: 1 } });
    expect(detail.body.data).toMatchObject({ successUrl: 'https://shop.example/ok', discountsEnabled: true, lockEmail: false });
    const events = await w.s.call('GET', `/checkout/sessions/${res.body.checkoutSessionId}/events/`);
    expect(events.body.results.map((e: { code: string }) => e.code)).toEqual(['checkout_session.created']);
    expect(events.body.results[0]).toMatchObject({ status: 'success', title: 'Checkout session created' });
  });

  it("takes the changelog's snake_case (custom_amount, tax_behavior, currency_code) and keeps every field", async () => {
    const res = await w.create({
      plan_identifier: w.s.plans.pro,
      charge_period: 'YEARLY',
      success_url: 'https://shop.example/ok',
      cancel_url: 'https://shop.example/cancel',
      customer_id: uniqueId('new-buyer'),
      custom_amount: 499.5,
      tax_behavior: 'INCLUSIVE',
      currency_code: 'usd',
      discounts_enabled: false,
      lock_email: true,
      default_billing_country: 'de',
      ip_address: '203.0.113.9',
      offering_id: 7,
      pricing_table_id: 'pt_1',
      rule_id: null,
    });
    expect(res.status, res.text).toBe(201);
    const detail = (await w.s.call('GET', `/checkout/sessions/${res.body.checkoutSessionId}/`)).body;
    expect(detail.data).toMatchObject({
      chargePeriod: 'YEARLY',
      customAmount: 49950,
      taxBehavior: 'INCLUSIVE',
      currencyCode: 'USD',
      discountsEnabled: false,
      lockEmail: true,
      defaultBillingCountry: 'DE',
      cancelUrl: 'https://shop.example/cancel',
      ipAddress: '203.0.113.9',
    });
    expect(detail.offeringData).toEqual({ offeringId: '7', pricingTableId: 'pt_1', ruleId: null });
  });

  it('sells priced-meter quantities and offers the plans of plansEnabled', async () => {
    const res = await w.create({
      planIdentifier: w.s.plans.seats,
      chargePeriod: 'MONTHLY',
      successUrl: 'https://shop.example/ok',
      features: [{ identifier: w.s.seats.identifier, quantity: 4 }],
    });
    expect(res.status, res.text).toBe(201);
    const seats = (await w.s.call('GET', `/checkout/sessions/${res.body.checkoutSessionId}/`)).body;
    expect(seats.selectedData.features).toEqual([{ identifier: w.s.seats.identifier, quantity: 4 }]);
    const enabled = await w.create({ planIdentifier: w.s.plans.basic, chargePeriod: 'MONTHLY', successUrl: 'https://shop.example/ok', plansEnabled: `${w.s.plans.pro}, ${w.s.plans.basic}` });
    expect(enabled.status, enabled.text).toBe(201);
    const detail = (await w.s.call('GET', `/checkout/sessions/${enabled.body.checkoutSessionId}/`)).body;
    expect(detail.data.plansEnabled).toEqual([w.s.plans.basic, w.s.plans.pro]);
  });

  it('works through the official client (checkout.createSession)', async () => {
    const client = officialClient(w.server, w.org.sandbox.serverKey);
    const created = await client.checkout.createSession({
      planIdentifier: w.s.plans.basic,
      chargePeriod: 'MONTHLY',
      successUrl: 'https://shop.example/ok',
      customerId: uniqueId('sdk-buyer'),
      lockEmail: true,
      defaultBillingCountry: 'FR',
      metadata: { order_ref: 'ABC-123', source: 'pricing_page' },
    } as never);
    expect(created.checkoutSessionId).toMatch(/^cs_/);
    expect(created.checkoutUrl).toContain('/sandbox/checkout/cs_');
    const detail = (await w.s.call('GET', `/checkout/sessions/${created.checkoutSessionId}/`)).body;
    expect(detail.metadata).toEqual({ order_ref: 'ABC-123', source: 'pricing_page' });
    expect(detail.data.defaultBillingCountry).toBe('FR');
  });

  it('lets a client key create a session, but not set customAmount', async () => {
    const ok = await w.create({ planIdentifier: w.s.plans.basic, chargePeriod: 'MONTHLY', successUrl: 'https://shop.example/ok' }, w.org.sandbox.clientKey);
    expect(ok.status).toBe(201);
    const refused = await w.create(
      { planIdentifier: w.s.plans.basic, chargePeriod: 'MONTHLY', successUrl: 'https://shop.example/ok', customAmount: 10, taxBehavior: 'EXCLUSIVE' },
      w.org.sandbox.clientKey,
    );
    expect(refused.status).toBe(403);
    expect(refused.body.detail).toMatch(/customAmount/);
  });

  const base = () => ({ planIdentifier: w.s.plans.basic, chargePeriod: 'MONTHLY', successUrl: 'https://shop.example/ok' });
  const bad: Array<[string, () => Record<string, unknown>, RegExp]> = [
    ['an unknown plan', () => ({ ...base(), planIdentifier: 'no-such-plan' }), /no plan "no-such-plan"/],
    ['a period the plan has no price for', () => ({ ...base(), chargePeriod: 'WEEKLY' }), /no WEEKLY charge/],
    ['a relative successUrl', () => ({ ...base(), successUrl: '/thanks' }), /successUrl/],
    ['a javascript: successUrl', () => ({ ...base(), successUrl: 'javascript:alert(1)' }), /successUrl/],
    ['a bad cancelUrl', () => ({ ...base(), cancelUrl: 'ftp://x.example/' }), /cancelUrl/],
    ['a bad country', () => ({ ...base(), defaultBillingCountry: 'XX' }), /defaultBillingCountry/],
    ['a feature that is not a priced meter', () => ({ ...base(), features: [{ identifier: 'nope', quantity: 1 }] }), /features\[0\]/],
    ['customAmount without taxBehavior', () => ({ ...base(), customAmount: 12, currencyCode: 'USD' }), /taxBehavior/],
    ['customAmount without currencyCode', () => ({ ...base(), customAmount: 12, taxBehavior: 'EXCLUSIVE' }), /currencyCode/],
    ['a negative customAmount', () => ({ ...base(), customAmount: -1, taxBehavior: 'EXCLUSIVE', currencyCode: 'USD' }), /customAmount/],
    ['taxBehavior alone', () => ({ ...base(), taxBehavior: 'EXCLUSIVE' }), /taxBehavior/],
    ['an unknown discountCode', () => ({ ...base(), discountCode: 'SAVE10' }), /discountCode/],
    ['a discountCode with discounts disabled', () => ({ ...base(), discountCode: 'SAVE10', discountsEnabled: false }), /discountsEnabled/],
    ['a plan of another product in plansEnabled', () => ({ ...base(), plansEnabled: 'no-such-plan' }), /plansEnabled/],
    ['an unknown field', () => ({ ...base(), colour: 'red' }), /colour|additional/i],
    ['metadata that is not an object', () => ({ ...base(), metadata: 'x' }), /metadata/],
    ['a missing successUrl', () => ({ planIdentifier: w.s.plans.basic, chargePeriod: 'MONTHLY' }), /successUrl/],
  ];
  it.each(bad)('refuses %s with 400 and a detail, creating nothing', async (_name, body, detail) => {
    const before = await count();
    const res = await w.create(body());
    expect(res.status, res.text).toBe(400);
    expect(res.body.detail).toMatch(detail);
    expect(await count()).toBe(before);
  });
});

describe('GET /checkout/sessions/', () => {
  it('lists newest first, filters by search, status and dates, and paginates', async () => {
    const buyer = uniqueId('findme');
    const a = await w.session({ customerId: buyer });
    const list = await w.s.call('GET', `/checkout/sessions/?search=${buyer}`);
    expect(list.body.count).toBe(1);
    expect(list.body.results[0]).toMatchObject({ id: a.id, status: 'open', customer: { customerId: buyer } });
    expect((await w.s.call('GET', `/checkout/sessions/?search=${a.id}`)).body.count).toBe(1);
    expect((await w.s.call('GET', '/checkout/sessions/?status=success')).body.count).toBe(0);
    expect((await w.s.call('GET', '/checkout/sessions/?start_date=2026-11-20&end_date=2026-11-20')).body.count).toBeGreaterThan(1);
    expect((await w.s.call('GET', '/checkout/sessions/?end_date=2026-11-19')).body.count).toBe(0);
    const page = await w.s.call('GET', '/checkout/sessions/?page_size=1&page=2');
    expect(page.body.results).toHaveLength(1);
    expect(page.body.next).toContain('page=3');
    expect(page.body.previous).toContain('page=1');
    expect((await w.s.call('GET', '/checkout/sessions/?status=nope')).status).toBe(400);
  });

  it("shows the session's product as the reference's product object, the one GET /catalog/products/{id}/ serves", async () => {
    const { id } = await w.session();
    const product = await w.s.call('GET', `/catalog/products/${w.s.product.id}/`);
    expect(product.status).toBe(200);
    const { plans: _plans, ...productObject } = product.body;
    const detail = await w.s.call('GET', `/checkout/sessions/${id}/`);
    expect(detail.body.product).toEqual(productObject);
    expect(detail.body.product).toMatchObject({ description: expect.any(String), taxCode: expect.any(String), images: expect.any(Array), modifiedOn: expect.any(String) });
    const listed = await w.s.call('GET', `/checkout/sessions/?search=${id}`);
    expect(listed.body.results[0].product).toEqual(productObject);
  });

  it('answers 404 for an unknown id and for a session of another organization', async () => {
    const mine = await w.session();
    const other = await w.server.createOrg();
    const res = await w.server.request('GET', `/sandbox/api/v1/checkout/sessions/${mine.id}/`, { key: other.sandbox.serverKey });
    expect(res.status).toBe(404);
    expect((await w.s.call('GET', '/checkout/sessions/cs_nope/')).status).toBe(404);
    expect((await w.s.call('GET', '/checkout/sessions/cs_nope/events/')).status).toBe(404);
  });

  it('expires an open session after 24 hours, by its job', async () => {
    const { id } = await w.session();
    clock.advance(24 * 3600_000 - 60_000);
    await w.server.runJobs(['expire-checkout-session']);
    expect((await w.s.call('GET', `/checkout/sessions/${id}/`)).body.status).toBe('open');
    clock.advance(120_000);
    await w.server.runJobs(['expire-checkout-session']);
    expect((await w.s.call('GET', `/checkout/sessions/${id}/`)).body.status).toBe('expired');
    const events = (await w.s.call('GET', `/checkout/sessions/${id}/events/`)).body.results.map((e: { code: string }) => e.code);
    expect(events).toEqual(['checkout_session.expired', 'checkout_session.created']);
  });
});
