/**
 * What a period cut short bills, and what a change of plan or period records (issue 24,
 * items 1–4; decisions 0048 and 0049), driven through the API on test clocks: the
 * pay-as-you-go usage of a period that ends early (a change, a cancellation), the
 * successor's subscription.created, events dated by the customer's clock, and the credit,
 * tax and discount of a change of billing period.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CARDS, type Shop } from './commerce-support.js';
import { csrfOf, getPage, payWith, postForm } from './checkout/support.js';
import { environmentIdOf, uniqueId, type TestServer } from './harness.js';
import { openPortalWorld, portalGet, type PortalWorld } from './portal/support.js';

let w: PortalWorld;
let server: TestServer;
let s: Shop;
let environmentId: string;

beforeAll(async () => {
  w = await openPortalWorld();
  ({ server, s } = w);
  environmentId = await environmentIdOf(server, w.org.organizationId, 'sandbox');
});
afterAll(() => server.close());

const db = () => server.database.db;

function expectStatus(res: { status: number; text: string }, status: number) {
  if (res.status !== status) throw new Error(`${status} expected: ${res.status} ${res.text}`);
}

const testClock = (frozenTime: string) => w.testClock(frozenTime);
const advance = (clockId: string, frozenTime: string) => w.advance(clockId, frozenTime);
const customerOn = (clockId: string) => w.customer({ clockId });
const subscribe = (customerId: string, planIdentifier: string) => w.subscribe(customerId, planIdentifier);

async function change(id: string, planIdentifier: string, chargePeriod = 'MONTHLY'): Promise<string> {
  const res = await s.call('POST', `/subscriptions/${id}/update/`, { planIdentifier, chargePeriod });
  expectStatus(res, 200);
  return res.body.subscriptionId;
}

/** The events about the customer (their own, their methods', subscriptions', orders', invoices'), in the order written. */
async function eventsOf(customerId: string) {
  const { rows } = await sql<{ type: string; created_at: Date; payload: { created_at: string; data: { object: Record<string, unknown> } } }>`
    SELECT type, created_at, payload FROM events
     WHERE environment_id = ${environmentId}
       AND (payload -> 'data' -> 'object' -> 'customer' ->> 'customer_id' = ${customerId}
            OR (payload -> 'data' -> 'object' ->> 'object' = 'customer' AND payload -> 'data' -> 'object' ->> 'customer_id' = ${customerId}))
     ORDER BY seq`.execute(db());
  return rows;
}

/** The orders of the subscription (or of several), oldest first, with their lines. */
async function ordersOf(...subscriptionIds: string[]) {
  return db()
    .selectFrom('orders')
    .select(['id', 'subtotal_minor', 'discount_minor', 'tax_minor', 'total_minor', 'lines', 'is_renewal', 'subscription_id'])
    .where('subscription_id', 'in', subscriptionIds)
    .orderBy('seq')
    .execute();
}

type Line = { description: string; amountMinor: number; featureId: string | null };
const linesOf = (order: { lines: unknown }) => (typeof order.lines === 'string' ? JSON.parse(order.lines) : order.lines) as Line[];

/** A published plan at `base` a month with API calls at 0.01 each, pay-as-you-go; answers it and the feature. */
async function meteredPlan(name: string, base: number) {
  const calls = await s.api.feature({
    name: 'API calls',
    identifier: uniqueId('calls'),
    featureType: 'METER',
    featureDetails: { featureSubType: 'PRE_AGGREGATED_USAGE', units: { singular: 'call', plural: 'calls' } },
  });
  const plan = await s.api.plan(s.product.id, { name: uniqueId(name) });
  expectStatus(await s.call('POST', `/catalog/plans/${plan.identifier}/features/`, { planEntitlements: [{ feature: calls.id, details: { value: 0 } }] }), 201);
  await s.api.prices(plan.identifier, [
    {
      priceType: 'PAID',
      currency: 'USD',
      chargeCatalogPrice: [
        { charges: [{ chargePeriod: 'MONTHLY', priceData: { amount: base } }] },
        { feature: calls.identifier, paymentType: 'PAY_AS_YOU_GO', priceModel: 'FLAT', charges: [{ chargePeriod: 'MONTHLY', priceData: { amount: 0.01 } }] },
      ],
    },
  ]);
  await s.api.publish(plan.identifier);
  return { plan: plan.identifier as string, calls: calls.identifier as string };
}

async function report(customerId: string, featureId: string, value: number) {
  expectStatus(await s.call('POST', '/report/usage/', { customerId, featureId, value, behaviour: 'DELTA' }), 200);
}

describe('item 2: a plan change starts a subscription', () => {
  it('sends subscription.created for the successor, after subscription.plan_changed', async () => {
    const customerId = await s.customer();
    await s.card(customerId);
    const id = await subscribe(customerId, s.plans.basic);
    const successor = await change(id, s.plans.pro);
    const types = (await eventsOf(customerId)).filter((e) => e.type.startsWith('subscription.'));
    expect(types.map((e) => [e.type, e.payload.data.object.id])).toEqual([
      ['subscription.created', id],
      ['subscription.plan_changed', successor],
      ['subscription.created', successor],
    ]);
    expect(types[2]!.payload.data.object).toMatchObject({ status: 'active', plan: { identifier: s.plans.pro } });
  });
});

describe('item 3: the events of a customer on a test clock', () => {
  it("number a one-time purchase's invoice in the clock's year, as its credit note is", async () => {
    const clockId = await testClock('2029-06-01T00:00:00Z');
    const customerId = await customerOn(clockId);
    const card = await s.card(customerId, CARDS.ok);
    expectStatus(await s.call('POST', `/payment-methods/${card.id}/default/`), 200);
    const bought = await s.call('POST', '/charges/', { planIdentifier: s.plans.lifetime, chargePeriod: 'ONE_TIME', customerId });
    expectStatus(bought, 201);
    expect(bought.body.startDate).toBe('2029-06-01');
    const invoice = await s.call('GET', `/invoices/${bought.body.invoiceId}/`);
    expectStatus(invoice, 200);
    expect(invoice.body.number).toMatch(/-2029-\d{6}$/);
  });

  it('are all dated by the clock, the API actions too', async () => {
    const clockId = await testClock('2027-03-01T00:00:00Z');
    const customerId = await customerOn(clockId);
    const card = await s.card(customerId, CARDS.ok);
    expectStatus(await s.call('POST', `/payment-methods/${card.id}/default/`), 200);
    expectStatus(await s.call('PATCH', `/customers/${customerId}/`, { name: 'Ada' }), 200);
    const id = await subscribe(customerId, s.plans.basic);
    await advance(clockId, '2027-03-10T00:00:00Z');
    const successor = await change(id, s.plans.pro);
    expectStatus(await s.call('POST', `/subscriptions/${successor}/cancel/`, { cancellationType: 'CURRENT_PERIOD_ENDS' }), 200);
    expectStatus(await s.call('DELETE', `/payment-methods/${card.id}/`), 204);
    const events = await eventsOf(customerId);
    const dated = events.map((e) => [e.type, e.created_at.toISOString(), e.payload.created_at]);
    const byClock = (at: string) => (e: (typeof dated)[number]) => [e[0], at, at.replace('.000Z', 'Z')];
    const before = events.findIndex((e) => e.type === 'subscription.plan_changed');
    expect(dated.slice(0, before)).toEqual(dated.slice(0, before).map(byClock('2027-03-01T00:00:00.000Z')));
    expect(dated.slice(before)).toEqual(dated.slice(before).map(byClock('2027-03-10T00:00:00.000Z')));
    expect(events.map((e) => e.type)).toEqual(
      expect.arrayContaining(['customer.created', 'payment_method.created', 'payment_method.updated', 'customer.updated', 'subscription.updated', 'payment_method.deleted']),
    );
  });
});

describe('item 3: a customer on a test clock who pays on the hosted checkout page', () => {
  it('has every event of the purchase dated by the clock', async () => {
    const clockId = await testClock('2027-04-01T00:00:00Z');
    const customerId = await customerOn(clockId);
    const created = await s.call('POST', '/checkout/', { planIdentifier: s.plans.basic, chargePeriod: 'MONTHLY', customerId, successUrl: 'https://shop.example/thanks' });
    expectStatus(created, 201);
    const page = await getPage(created.body.checkoutUrl);
    const paid = await postForm(created.body.checkoutUrl, payWith(csrfOf(page.text), CARDS.ok, { email: `${customerId}@example.com` }));
    expect(paid.status).toBe(303);
    const events = await eventsOf(customerId);
    expect(events.map((e) => e.type)).toEqual(expect.arrayContaining(['checkout.completed', 'subscription.created', 'order.created']));
    expect(events.filter((e) => e.created_at.toISOString() !== '2027-04-01T00:00:00.000Z').map((e) => [e.type, e.created_at.toISOString()])).toEqual([]);
    expect(events.filter((e) => e.payload.created_at !== '2027-04-01T00:00:00Z').map((e) => [e.type, e.payload.created_at])).toEqual([]);
  });
});

/** A customer on a clock from 1 May 2027, subscribed to a metered plan, who made `calls` calls by `usedAt`. */
async function metered(usedAt: string, calls: number) {
  const plan = await meteredPlan('Metered', 5);
  const clockId = await testClock('2027-05-01T00:00:00Z');
  const customerId = await customerOn(clockId);
  const id = await subscribe(customerId, plan.plan);
  await advance(clockId, usedAt);
  await report(customerId, plan.calls, calls);
  return { clockId, customerId, id };
}

describe('item 1: the pay-as-you-go usage of a period cut short', () => {
  it('is billed on the invoice of a plan change, once', async () => {
    const a = await meteredPlan('Metered A', 5);
    const b = await meteredPlan('Metered B', 20);
    const clockId = await testClock('2027-03-01T00:00:00Z');
    const customerId = await customerOn(clockId);
    const id = await subscribe(customerId, a.plan);
    await advance(clockId, '2027-03-16T00:00:00Z');
    await report(customerId, a.calls, 7_707);
    const successor = await change(id, b.plan);
    const [first, changed] = await ordersOf(id, successor);
    expect(first!.subscription_id).toBe(id);
    // 16 of March's 31 days left: 20.00 × 16/31 = 10.32 for B and the 7,707 calls; 5.00 × 16/31 = 2.58 back
    // by a credit note, which pays part of it.
    expect(linesOf(changed!).map((l) => [l.description, l.amountMinor])).toEqual([
      [expect.stringMatching(/^Metered B.*\(MONTHLY\) for the rest of the period$/), 1_032],
      ['API calls: 7707 used', 7_707],
    ]);
    expect(changed).toMatchObject({ subscription_id: successor, total_minor: 8_481 });
    await advance(clockId, '2027-04-01T01:00:00Z');
    const renewal = (await ordersOf(id, successor)).at(-1)!;
    expect(renewal).toMatchObject({ is_renewal: true, total_minor: 2_000 });
    expect((await ordersOf(id)).length).toBe(1);
  });

  it('is billed when a cancellation at the period end takes effect, as the preview says', async () => {
    const { clockId, customerId, id } = await metered('2027-05-10T00:00:00Z', 400);
    expectStatus(await s.call('POST', `/subscriptions/${id}/cancel/`, { cancellationType: 'CURRENT_PERIOD_ENDS' }), 200);
    const preview = await s.call('GET', `/subscriptions/${id}/upcoming-invoice/`);
    expectStatus(preview, 200);
    expect(preview.body).toMatchObject({
      periodStart: '2027-05-01T00:00:00.000Z',
      periodEnd: '2027-06-01T00:00:00.000Z',
      nextPaymentAttempt: '2027-06-01T00:00:00.000Z',
      lines: [{ description: 'API calls: 400 used', quantity: 400, amountUnits: 400 }],
      amountTotalUnits: 400,
    });
    await advance(clockId, '2027-06-02T00:00:00Z');
    expect((await s.call('GET', `/subscriptions/${id}/`)).body).toMatchObject({ status: 'canceled', endDate: '2027-06-01T00:00:00.000Z' });
    const last = (await ordersOf(id)).at(-1)!;
    expect(last).toMatchObject({ is_renewal: false, total_minor: 400 });
    expect(linesOf(last).map((l) => l.description)).toEqual(['API calls: 400 used']);
    const invoices = await s.call('GET', `/invoices/?customer_id=${customerId}`);
    expect(invoices.body.results[0]).toMatchObject({ status: 'PAID', amountTotal: '4.00', periodStart: '2027-05-01T00:00:00.000Z', periodEnd: '2027-06-01T00:00:00.000Z' });
    const types = (await eventsOf(customerId)).map((e) => e.type);
    expect(types.slice(-4)).toEqual(['order.created', 'invoice.created', 'invoice.paid', 'subscription.cancelled']);
    // Advancing again bills nothing more.
    await advance(clockId, '2027-07-02T00:00:00Z');
    expect((await ordersOf(id)).length).toBe(2);
  });

  it('is billed when the subscription is cancelled at once', async () => {
    const { clockId, customerId, id } = await metered('2027-05-20T00:00:00Z', 250);
    expectStatus(await s.call('POST', `/subscriptions/${id}/cancel/`, { cancellationType: 'IMMEDIATE' }), 200);
    expect((await s.call('GET', `/subscriptions/${id}/`)).body).toMatchObject({ status: 'canceled', endDate: '2027-05-20T00:00:00.000Z' });
    const last = (await ordersOf(id)).at(-1)!;
    expect(last).toMatchObject({ is_renewal: false, total_minor: 250 });
    expect(linesOf(last).map((l) => l.description)).toEqual(['API calls: 250 used']);
    const events = await eventsOf(customerId);
    expect(events.slice(-4).map((e) => [e.type, e.created_at.toISOString()])).toEqual(
      ['order.created', 'invoice.created', 'invoice.paid', 'subscription.cancelled'].map((type) => [type, '2027-05-20T00:00:00.000Z']),
    );
    expect(events.filter((e) => e.type === 'subscription.cancelled')).toHaveLength(1);
    expect((await s.call('GET', `/subscriptions/${id}/upcoming-invoice/`)).body.code).toBe('no_upcoming_invoice');
    await advance(clockId, '2027-06-02T00:00:00Z');
    expect((await ordersOf(id)).length).toBe(2);
  });
});

describe('item 4: a change of billing period', () => {
  /** Two plans with monthly and yearly prices, a 20 % code for 3 payments, and a German buyer who paid Pro monthly with it. */
  async function paidWithDiscount() {
    const paid = (monthly: number, yearly: number) => [
      { priceType: 'PAID', currency: 'USD', chargeCatalogPrice: [{ charges: [{ chargePeriod: 'MONTHLY', priceData: { amount: monthly } }, { chargePeriod: 'YEARLY', priceData: { amount: yearly } }] }] },
    ];
    const pro = await s.api.plan(s.product.id, { name: uniqueId('Pro') });
    await s.api.prices(pro.identifier, paid(29, 290));
    await s.api.publish(pro.identifier);
    const starter = await s.api.plan(s.product.id, { name: uniqueId('Starter') });
    await s.api.prices(starter.identifier, paid(9, 90));
    await s.api.publish(starter.identifier);
    const discount = await s.call('POST', '/discounts/', { name: 'Launch', discountType: 'PERCENTAGE', percentOff: 20, duration: 'REPEATING', durationInCycles: 3 });
    expectStatus(discount, 201);
    const customerId = await s.customer({ billingAddress: { country: 'DE' } });
    const session = await s.call('POST', '/checkout/', {
      planIdentifier: pro.identifier,
      chargePeriod: 'MONTHLY',
      customerId,
      successUrl: 'https://shop.example/thanks',
      discountCode: discount.body.code,
    });
    expectStatus(session, 201);
    const page = await getPage(session.body.checkoutUrl);
    expectStatus(await postForm(session.body.checkoutUrl, payWith(csrfOf(page.text), CARDS.ok, { country: 'DE' })), 303);
    const id = (await s.call('GET', `/checkout/sessions/${session.body.checkoutSessionId}/`)).body.subscription.id as string;
    return { id, customerId, starter: starter.identifier as string };
  }

  it('credits the unused month, records the VAT and keeps the discount', async () => {
    const { id, customerId, starter } = await paidWithDiscount();
    // Pro at 29.00 less 20 % is 23.20, and 19 % VAT: 27.61.
    expect((await ordersOf(id))[0]).toMatchObject({ discount_minor: 580, tax_minor: 441, total_minor: 2_761 });
    // The portal shows the same before the customer confirms.
    const preview = await portalGet(`${await w.portalLink(customerId)}&change=${id}&choice=${encodeURIComponent(`${starter}|YEARLY`)}`);
    const rows = [...preview.text.matchAll(/<tr[^>]*><td>([^<]*)<\/td><td class="amount"[^>]*>([^<]*)<\/td><\/tr>/g)].map((m) => [m[1], m[2]]);
    expect(rows).toEqual([
      // The period in the customer's words, never its code (the invoice line below keeps its stored description).
      [expect.stringMatching(/^Starter.* \(Yearly\)$/), '$90.00'],
      ['Discount', '−$18.00'],
      ['Tax (19 %)', '$13.68'],
      ['Due for the change', '$85.68'],
      ['Credit for the unused part of your plan (credit note)', '$27.61'],
      ['Paid from your credit', '−$27.61'],
      ['Charged now', '$58.07'],
    ]);
    const successor = await change(id, starter, 'YEARLY');
    const [, changed] = await ordersOf(id, successor);
    // 90.00 a year less 20 % (a cycle of the code): 72.00 + 13.68 VAT. The month just paid comes back by a credit
    // note (23.20 + 4.41 VAT), which pays 27.61 of it: 58.07 charged, and 9.27 of VAT in all.
    expect(linesOf(changed!).map((l) => [l.description, l.amountMinor])).toEqual([[expect.stringMatching(/^Starter.* \(YEARLY\)$/), 9_000]]);
    expect(changed).toMatchObject({ subtotal_minor: 9_000, discount_minor: 1_800 + 2_761, tax_minor: 1_368, total_minor: 5_807 });
    const invoices = await s.call('GET', `/invoices/?customer_id=${customerId}`);
    const invoice = invoices.body.results.find((i: { amountTotal: string }) => i.amountTotal === '58.07');
    expect(invoice).toMatchObject({ amountTax: '13.68', taxRate: '19' });
    const [note] = (await s.call('GET', `/credit-notes/?customer_id=${customerId}`)).body.results;
    expect(note).toMatchObject({ reason: 'PRORATION', amountSubtotal: '23.20', amountTax: '4.41', amountTotal: '27.61' });
    // The successor carries the code on: its next renewal is its third and last discounted payment.
    const next = await s.call('GET', `/subscriptions/${successor}/upcoming-invoice/`);
    expect(next.body).toMatchObject({ amountSubtotalUnits: 9_000, amountDiscountUnits: 1_800, amountTaxUnits: 1_368, amountTotalUnits: 8_568 });
  });
});
