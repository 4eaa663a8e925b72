/**
 * The billing engine, driven by test clocks through the API (decision 0029):
 * renewals (month ends, leap days, yearly), trials, dunning to recovery and to
 * cancellation, hard declines, scheduled cancellations, credit and pay-as-you-go
 * usage at renewal, and what the official client's getEntitlement answers at
 * each boundary.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CARDS, shop, untilClockReady, type Shop } from './commerce-support.js';
import { startTestServer, uniqueId, type TestOrg, type TestServer } from './harness.js';
import { officialClient } from './official-client-support.js';
import { csrfOf, getPage, payWith, postForm } from './checkout/support.js';

const STOLEN = '4000 0000 0000 9979';
let server: TestServer;
let org: TestOrg;
let s: Shop;

beforeAll(async () => {
  server = await startTestServer();
  org = await server.createOrg();
  s = await shop(server, org.sandbox.serverKey);
});
afterAll(() => server.close());

const db = () => server.database.db;

function expectStatus(res: { status: number; text: string }, status: number) {
  if (res.status !== status) throw new Error(`${status} expected: ${res.status} ${res.text}`);
}

async function testClock(frozenTime: string): Promise<string> {
  const res = await s.call('POST', '/test-clocks/', { name: uniqueId('clock'), frozenTime });
  expectStatus(res, 201);
  expect(res.body).toMatchObject({ object: 'test_clock', status: 'ready', frozenTime: new Date(frozenTime).toISOString(), customerCount: 0 });
  return res.body.id;
}

const untilReady = (clockId: string) => untilClockReady(server, s, clockId);

/** Advances the clock and runs its job; the clock is ready at its new time afterwards. */
async function advance(clockId: string, frozenTime: string): Promise<void> {
  const res = await s.call('POST', `/test-clocks/${clockId}/advance/`, { frozenTime });
  expectStatus(res, 200);
  expect(res.body).toMatchObject({ status: 'advancing', advancingTo: new Date(frozenTime).toISOString() });
  expect(await untilReady(clockId)).toMatchObject({ status: 'ready', frozenTime: new Date(frozenTime).toISOString(), failure: null });
}

async function customerOn(clockId: string, card: string | null = CARDS.ok): Promise<string> {
  const customerId = await s.customer({ testClockId: clockId });
  if (card) await s.card(customerId, card);
  return customerId;
}

async function subscribe(customerId: string, planIdentifier: string, chargePeriod = 'MONTHLY'): Promise<string> {
  const res = await s.call('POST', '/subscriptions/create/', { planIdentifier, chargePeriod, customerId });
  expectStatus(res, 201);
  return res.body.id;
}

async function makeDefault(customerId: string, number: string): Promise<void> {
  const method = await s.card(customerId, number);
  expectStatus(await s.call('POST', `/payment-methods/${method.id}/default/`), 200);
}

/** A published plan at `amount` a month that grants one BOOLEAN feature, for the official client to check. */
async function planGranting(name: string, amount: number) {
  const feature = await s.api.feature({ name, identifier: uniqueId(name.toLowerCase()), featureType: 'BOOLEAN' });
  const plan = await s.api.plan(s.product.id, { name: uniqueId(name) });
  const entitlements = { planEntitlements: [{ feature: feature.id, details: { value: true } }] };
  expectStatus(await s.call('POST', `/catalog/plans/${plan.identifier}/features/`, entitlements), 201);
  await s.api.prices(plan.identifier, [{ priceType: 'PAID', currency: 'USD', chargeCatalogPrice: [{ charges: [{ chargePeriod: 'MONTHLY', priceData: { amount } }] }] }]);
  await s.api.publish(plan.identifier);
  return { feature, plan };
}

const subscription = async (id: string) => (await s.call('GET', `/subscriptions/${id}/`)).body;

function invoicesOf(subscriptionId: string) {
  return db()
    .selectFrom('invoices')
    .select(['id', 'status', 'total_minor', 'period_start', 'period_end', 'attempt_count', 'next_attempt_at', 'failure_code'])
    .where('subscription_id', '=', subscriptionId)
    .orderBy('period_start')
    .execute();
}

function ordersOf(subscriptionId: string) {
  return db()
    .selectFrom('orders')
    .select(['id', 'status', 'total_minor', 'is_renewal', 'paid_at'])
    .where('subscription_id', '=', subscriptionId)
    .orderBy('seq')
    .execute();
}

/** The events whose object is `id`, or belongs to subscription `id`, in the order they were written. */
async function eventsAbout(id: string): Promise<{ type: string; object: Record<string, unknown> }[]> {
  const { rows } = await sql<{ type: string; object: Record<string, unknown> }>`
    SELECT type, payload -> 'data' -> 'object' AS object FROM events
     WHERE payload -> 'data' -> 'object' ->> 'id' = ${id} OR payload -> 'data' -> 'object' ->> 'subscription_id' = ${id}
     ORDER BY seq`.execute(db());
  return rows;
}

describe('test clocks', () => {
  it('refuses production, bad times and a second advance, and forgets a deleted clock', async () => {
    const production = await server.request('POST', '/api/v1/test-clocks/', { key: org.production.serverKey, body: {} });
    expect(production.status).toBe(403);
    expect(production.body.code).toBe('test_clocks_sandbox_only');
    const customer = await server.request('POST', '/api/v1/customers/', {
      key: org.production.serverKey,
      body: { customerId: uniqueId('c'), testClockId: 'tc_x' },
    });
    expect(customer.status).toBe(403);

    const clockId = await testClock('2027-06-01T00:00:00Z');
    const back = await s.call('POST', `/test-clocks/${clockId}/advance/`, { frozenTime: '2027-05-01T00:00:00Z' });
    expect([back.status, back.body.code]).toEqual([400, 'validation_error']);
    const far = await s.call('POST', `/test-clocks/${clockId}/advance/`, { frozenTime: '2030-06-01T00:00:00Z' });
    expect(far.status).toBe(400);
    expect(far.body.detail).toMatch(/two years/);
    const garbage = await s.call('POST', `/test-clocks/${clockId}/advance/`, { frozenTime: 'soon' });
    expect(garbage.status).toBe(400);
    expect((await s.call('POST', '/customers/', { customerId: uniqueId('c'), testClockId: 'tc_missing' })).body.code).toBe('test_clock_not_found');

    expectStatus(await s.call('POST', `/test-clocks/${clockId}/advance/`, { frozenTime: '2027-06-02T00:00:00Z' }), 200);
    const twice = await s.call('POST', `/test-clocks/${clockId}/advance/`, { frozenTime: '2027-06-03T00:00:00Z' });
    // 409 while the first advance runs (unless another test's worker on a shared database finished it in between).
    if (twice.status !== 200) expect([twice.status, twice.body.code]).toEqual([409, 'test_clock_advancing']);
    const ready = await untilReady(clockId);
    expect(ready.status).toBe('ready');
    const attached = await customerOn(clockId, null);
    const attachedCustomer = await s.call('GET', `/customers/${attached}/`);
    expect(attachedCustomer.body).toMatchObject({ testClockId: clockId, createdOn: ready.frozenTime });
    expect((await s.call('GET', `/test-clocks/${clockId}/`)).body.customerCount).toBe(1);
    const listed = await s.call('GET', '/test-clocks/?page_size=100');
    expect(listed.body.results.map((c: { id: string }) => c.id)).toContain(clockId);

    expect((await s.call('DELETE', `/test-clocks/${clockId}/`)).status).toBe(204);
    expect((await s.call('GET', `/test-clocks/${clockId}/`)).status).toBe(404);
  });
});

describe('renewals', () => {
  it('renews monthly for a year on month ends and a leap day, and yearly once, each period once', async () => {
    const clockId = await testClock('2028-01-31T10:00:00Z');
    const monthlyBuyer = await customerOn(clockId);
    const yearlyBuyer = await customerOn(clockId);
    const monthly = await subscribe(monthlyBuyer, s.plans.basic);
    const yearly = await subscribe(yearlyBuyer, s.plans.basic, 'YEARLY');
    expect((await subscription(monthly)).billingPeriodEndTime).toBe('2028-02-29T10:00:00.000Z');

    await advance(clockId, '2028-07-15T00:00:00Z');
    await advance(clockId, '2029-01-31T12:00:00Z');

    const starts = (await invoicesOf(monthly)).map((i) => i.period_start!.toISOString().slice(0, 10));
    expect(starts).toEqual([
      '2028-02-29', '2028-03-31', '2028-04-30', '2028-05-31', '2028-06-30', '2028-07-31',
      '2028-08-31', '2028-09-30', '2028-10-31', '2028-11-30', '2028-12-31', '2029-01-31',
    ]);
    const orders = await ordersOf(monthly);
    expect(orders).toHaveLength(13);
    expect(orders.filter((o) => o.is_renewal && o.status === 'COMPLETE' && o.total_minor === 1000)).toHaveLength(12);
    // The timeline of an order of the subscription covers all 13 orders: three events each, written once.
    const timeline = await s.call('GET', `/orders/${orders.at(-1)!.id}/events/?page_size=100`);
    expect(timeline.body.count).toBe(39);
    const codes = timeline.body.results.map((e: { code: string }) => e.code);
    for (const code of ['order.created', 'order.completed', 'invoice.paid']) expect(codes.filter((c: string) => c === code)).toHaveLength(13);
    expect(await subscription(monthly)).toMatchObject({
      status: 'active',
      billingPeriodStartTime: '2029-01-31T10:00:00.000Z',
      billingPeriodEndTime: '2029-02-28T10:00:00.000Z',
    });
    const yearlyInvoices = await invoicesOf(yearly);
    expect(yearlyInvoices.map((i) => [i.period_start!.toISOString(), i.status, i.total_minor])).toEqual([
      ['2029-01-31T10:00:00.000Z', 'PAID', 10000],
    ]);

    const events = await eventsAbout(monthly);
    expect(events.filter((e) => e.type === 'subscription.updated')).toHaveLength(12);
    expect(events.filter((e) => e.type === 'order.created' && e.object.is_renewal === true)).toHaveLength(12);
    expect(events.filter((e) => e.type === 'invoice.paid')).toHaveLength(13);
  });

  it('spends downgrade credit first at renewal, as the upcoming invoice shows', async () => {
    const clockId = await testClock('2027-01-01T00:00:00Z');
    const buyer = await customerOn(clockId);
    const pro = await subscribe(buyer, s.plans.pro);
    await advance(clockId, '2027-01-16T12:00:00Z');
    const changed = await s.call('POST', `/subscriptions/${pro}/update/`, { planIdentifier: s.plans.basic, chargePeriod: 'MONTHLY' });
    expectStatus(changed, 200);
    const credit = async () =>
      (await db().selectFrom('customers').select('credit_minor').where('customer_id', '=', buyer).executeTakeFirstOrThrow()).credit_minor;
    const before = await credit();
    expect(before).toBeGreaterThan(0);
    expect(before).toBeLessThan(1000);

    const preview = await s.call('GET', `/subscriptions/${changed.body.subscriptionId}/upcoming-invoice/`);
    expectStatus(preview, 200);
    expect(preview.body).toMatchObject({
      periodStart: '2027-02-01T00:00:00.000Z',
      periodEnd: '2027-03-01T00:00:00.000Z',
      amountSubtotalUnits: 1000,
      creditAppliedUnits: before,
      amountTotalUnits: 1000 - before,
    });

    await advance(clockId, '2027-02-01T01:00:00Z');
    const [renewal] = await invoicesOf(changed.body.subscriptionId);
    expect(renewal).toMatchObject({ status: 'PAID', total_minor: 1000 - before });
    expect(await credit()).toBe(0);
  });

  it('charges a NEXT_BILLING_CYCLE change at the next renewal, at the new price, with nothing settled before', async () => {
    const clockId = await testClock('2027-01-01T00:00:00Z');
    const buyer = await customerOn(clockId);
    const basic = await subscribe(buyer, s.plans.basic);
    await advance(clockId, '2027-01-10T00:00:00Z');
    const changed = await s.call('POST', `/subscriptions/${basic}/update/`, {
      planIdentifier: s.plans.pro,
      chargePeriod: 'MONTHLY',
      probationBehaviour: 'NEXT_BILLING_CYCLE',
    });
    expectStatus(changed, 200);
    const pro = changed.body.subscriptionId;
    expect(await ordersOf(pro)).toEqual([]);
    expect((await s.call('GET', `/subscriptions/${pro}/upcoming-invoice/`)).body).toMatchObject({ periodStart: '2027-02-01T00:00:00.000Z', amountTotalUnits: 2000 });

    await advance(clockId, '2027-02-02T00:00:00Z');
    expect((await invoicesOf(pro)).map((i) => [i.period_start!.toISOString(), i.status, i.total_minor])).toEqual([
      ['2027-02-01T00:00:00.000Z', 'PAID', 2000],
    ]);
    expect(await invoicesOf(basic)).toEqual([]);
  });

  it('bills pay-as-you-go usage of the ended period in arrears, as the preview said', async () => {
    const calls = await s.api.feature({
      name: 'API calls',
      identifier: uniqueId('calls'),
      featureType: 'METER',
      featureDetails: { featureSubType: 'PRE_AGGREGATED_USAGE', units: { singular: 'call', plural: 'calls' } },
    });
    const plan = await s.api.plan(s.product.id, { name: uniqueId('Metered') });
    expectStatus(await s.call('POST', `/catalog/plans/${plan.identifier}/features/`, { planEntitlements: [{ feature: calls.id, details: { value: 0 } }] }), 201);
    await s.api.prices(plan.identifier, [
      {
        priceType: 'PAID',
        currency: 'USD',
        chargeCatalogPrice: [
          { charges: [{ chargePeriod: 'MONTHLY', priceData: { amount: 5 } }] },
          { feature: calls.identifier, paymentType: 'PAY_AS_YOU_GO', priceModel: 'FLAT', charges: [{ chargePeriod: 'MONTHLY', priceData: { amount: 0.01 } }] },
        ],
      },
    ]);
    await s.api.publish(plan.identifier);
    const clockId = await testClock('2027-03-05T00:00:00Z');
    const buyer = await customerOn(clockId);
    const id = await subscribe(buyer, plan.identifier);
    await advance(clockId, '2027-03-20T00:00:00Z');
    expectStatus(await s.call('POST', '/report/usage/', { customerId: buyer, featureId: calls.identifier, value: 1500, behaviour: 'DELTA' }), 200);

    const preview = await s.call('GET', `/subscriptions/${id}/upcoming-invoice/`);
    expect(preview.body.lines.map((l: { description: string; amountUnits: number }) => [l.description, l.amountUnits])).toEqual([
      [expect.stringContaining('MONTHLY'), 500],
      ['API calls: 1500 used', 1500],
    ]);
    await advance(clockId, '2027-04-06T00:00:00Z');
    const [renewal] = await invoicesOf(id);
    expect(renewal).toMatchObject({ status: 'PAID', total_minor: 2000 });
    const next = await s.call('GET', `/subscriptions/${id}/upcoming-invoice/`);
    expect(next.body).toMatchObject({ periodStart: '2027-05-05T00:00:00.000Z', amountTotalUnits: 500 });
    const ended = await s.call('POST', `/subscriptions/${id}/cancel/`, { cancellationType: 'IMMEDIATE' });
    expectStatus(ended, 200);
    expect((await s.call('GET', `/subscriptions/${id}/upcoming-invoice/`)).body.code).toBe('no_upcoming_invoice');
  });
});

describe('dunning', () => {
  it('keeps a failed renewal past_due and granting, and a new default card pays it', async () => {
    const { feature, plan } = await planGranting('Reports', 12);
    const client = officialClient(server, org.sandbox.serverKey);

    const clockId = await testClock('2027-03-01T00:00:00Z');
    const buyer = await customerOn(clockId);
    const id = await subscribe(buyer, plan.identifier);
    await makeDefault(buyer, CARDS.declined);
    await advance(clockId, '2027-04-01T00:30:00Z');

    expect((await subscription(id)).status).toBe('past_due');
    const [failed] = await invoicesOf(id);
    expect(failed).toMatchObject({ status: 'PAYMENT_FAILED', attempt_count: 1, failure_code: 'card_declined' });
    expect(failed!.next_attempt_at!.toISOString()).toBe('2027-04-02T00:00:00.000Z');
    expect((await client.entitlements.getEntitlement({ customerId: buyer, featureId: feature.identifier })) as unknown).toMatchObject({
      hasAccess: true,
    });
    const types = (await eventsAbout(failed!.id)).map((e) => e.type);
    expect(types).toEqual(['invoice.created', 'invoice.payment_failed']);
    expect((await s.call('GET', `/invoices/${failed!.id}/`)).body).toMatchObject({
      status: 'PAYMENT_FAILED',
      periodStart: '2027-04-01T00:00:00.000Z',
      periodEnd: '2027-05-01T00:00:00.000Z',
      attemptCount: 1,
      nextPaymentAttempt: '2027-04-02T00:00:00.000Z',
      lastPaymentError: { code: 'card_declined', message: 'The card was declined' },
    });
    const declinedAgain = await s.call('POST', `/invoices/${failed!.id}/pay/`);
    expect([declinedAgain.status, declinedAgain.body.code]).toEqual([400, 'card_declined']);
    expect((await invoicesOf(id))[0]!.attempt_count).toBe(2);

    await makeDefault(buyer, CARDS.ok);
    await advance(clockId, '2027-04-01T01:00:00Z');
    const [paid] = await invoicesOf(id);
    expect(paid).toMatchObject({ status: 'PAID', next_attempt_at: null });
    expect((await subscription(id)).status).toBe('active');
    const orders = await ordersOf(id);
    expect(orders.map((o) => [o.status, o.is_renewal])).toEqual([['COMPLETE', false], ['COMPLETE', true]]);
    const again = await s.call('POST', `/invoices/${paid!.id}/pay/`);
    expect([again.status, again.body.code]).toEqual([400, 'invoice_not_payable']);
  });

  it('pays a failed invoice by hand: POST /invoices/{id}/pay/', async () => {
    const clockId = await testClock('2027-03-01T00:00:00Z');
    const buyer = await customerOn(clockId);
    const paidPlan = await subscribe(buyer, s.plans.basic);
    await makeDefault(buyer, CARDS.insufficient);
    await advance(clockId, '2027-04-01T00:00:00Z');
    const [invoice] = await invoicesOf(paidPlan);
    expect(invoice).toMatchObject({ status: 'PAYMENT_FAILED', failure_code: 'insufficient_funds' });
    expect((await s.call('POST', '/invoices/INV-none/pay/')).status).toBe(404);
    await s.card(buyer, CARDS.ok);
    // A card that is not the default: paying by hand uses the default first, which still fails.
    expect((await s.call('POST', `/invoices/${invoice!.id}/pay/`)).status).toBe(400);
    await makeDefault(buyer, CARDS.ok);
    const res = await s.call('POST', `/invoices/${invoice!.id}/pay/`);
    expectStatus(res, 200);
    expect(res.body).toMatchObject({ id: invoice!.id, status: 'PAID' });
    expect((await subscription(paidPlan)).status).toBe('active');
  });

  it('cancels after eight failed retries over fourteen days, and access ends', async () => {
    const { feature, plan } = await planGranting('Exports', 9);
    const client = officialClient(server, org.sandbox.serverKey);

    const clockId = await testClock('2027-01-01T00:00:00Z');
    const buyer = await customerOn(clockId);
    const id = await subscribe(buyer, plan.identifier);
    await makeDefault(buyer, CARDS.declined);
    await advance(clockId, '2027-02-10T00:00:00Z');
    expect((await subscription(id)).status).toBe('past_due');
    expect((await invoicesOf(id))[0]!.attempt_count).toBe(7);

    await advance(clockId, '2027-02-20T00:00:00Z');
    const ended = await subscription(id);
    expect(ended.status).toBe('canceled');
    const row = await db().selectFrom('subscriptions').select(['cancellation_reason', 'end_date']).where('id', '=', id).executeTakeFirstOrThrow();
    expect(row).toEqual({ cancellation_reason: 'CANCELLED_BY_PROVIDER', end_date: new Date('2027-02-15T00:00:00Z') });
    expect((await invoicesOf(id))[0]).toMatchObject({ status: 'PAYMENT_FAILED', attempt_count: 9, next_attempt_at: null });
    const answer = (await client.entitlements.getEntitlement({ customerId: buyer, featureId: feature.identifier })) as unknown;
    expect(answer === null || (answer as { hasAccess: boolean }).hasAccess === false).toBe(true);
    expect((await eventsAbout(id)).map((e) => e.type)).toContain('subscription.cancelled');
  });

  it('does not retry a stolen card, and ends at the end of the schedule without charging it again', async () => {
    const clockId = await testClock('2027-01-01T00:00:00Z');
    const buyer = await customerOn(clockId);
    const id = await subscribe(buyer, s.plans.basic);
    await makeDefault(buyer, STOLEN);
    await advance(clockId, '2027-02-14T00:00:00Z');
    const [invoice] = await invoicesOf(id);
    expect(invoice).toMatchObject({ attempt_count: 1, failure_code: 'stolen_card' });
    expect(invoice!.next_attempt_at!.toISOString()).toBe('2027-02-15T00:00:00.000Z');
    await advance(clockId, '2027-02-16T00:00:00Z');
    expect((await subscription(id)).status).toBe('canceled');
    const customer = await db().selectFrom('customers').select('id').where('customer_id', '=', buyer).executeTakeFirstOrThrow();
    const intents = await db().selectFrom('payment_intents').select('kind').where('customer_id', '=', customer.id).where('kind', 'in', ['renewal', 'invoice_payment']).execute();
    expect(intents.map((i) => i.kind)).toEqual(['renewal']);
  });
});

describe('trials and scheduled cancellations', () => {
  it('charges at the end of a trial and becomes active; without a card the trial just ends', async () => {
    const clockId = await testClock('2027-05-01T00:00:00Z');
    const withCard = await customerOn(clockId);
    const paying = await subscribe(withCard, s.plans.trial);
    const withoutCard = await customerOn(clockId);
    const lapsing = await subscribe(withoutCard, s.plans.trial);
    // The card is removed (as the customer portal will let customers do).
    const lapsingCustomer = await db().selectFrom('customers').select('id').where('customer_id', '=', withoutCard).executeTakeFirstOrThrow();
    await db().updateTable('payment_methods').set({ deleted_at: new Date() }).where('customer_id', '=', lapsingCustomer.id).execute();
    expect((await subscription(paying)).status).toBe('trialing');
    // The previews say what each trial's end will do: charge the first period, or end with no invoice.
    expect((await s.call('GET', `/subscriptions/${paying}/upcoming-invoice/`)).body).toMatchObject({ nextPaymentAttempt: '2027-05-15T00:00:00.000Z', amountTotalUnits: 3000 });
    const noInvoice = await s.call('GET', `/subscriptions/${lapsing}/upcoming-invoice/`);
    expect([noInvoice.status, noInvoice.body.code]).toEqual([400, 'no_upcoming_invoice']);
    expect(noInvoice.body.detail).toContain('no payment method that can be charged');

    await advance(clockId, '2027-05-16T00:00:00Z');
    expect(await subscription(paying)).toMatchObject({
      status: 'active',
      billingPeriodStartTime: '2027-05-15T00:00:00.000Z',
      billingPeriodEndTime: '2027-06-15T00:00:00.000Z',
    });
    expect((await ordersOf(paying)).map((o) => [o.total_minor, o.is_renewal])).toEqual([[0, false], [3000, false]]);
    expect((await subscription(lapsing)).status).toBe('canceled');
    expect(await invoicesOf(lapsing)).toEqual([]);
  });

  it('ends a cancellation at period end on time, without renewing, and one on a date on that date; access ends with each', async () => {
    const { feature, plan } = await planGranting('Dashboards', 10);
    const client = officialClient(server, org.sandbox.serverKey);
    const hasAccess = async (customerId: string) =>
      ((await client.entitlements.getEntitlement({ customerId, featureId: feature.identifier })) as { hasAccess?: boolean } | null)?.hasAccess ===
      true;
    const clockId = await testClock('2027-01-10T00:00:00Z');
    const periodEndBuyer = await customerOn(clockId);
    const dateBuyer = await customerOn(clockId);
    const atPeriodEnd = await subscribe(periodEndBuyer, plan.identifier);
    const onDate = await subscribe(dateBuyer, plan.identifier);
    expectStatus(await s.call('POST', `/subscriptions/${atPeriodEnd}/cancel/`, { cancellationType: 'CURRENT_PERIOD_ENDS' }), 200);
    expectStatus(await s.call('POST', `/subscriptions/${onDate}/cancel/`, { cancellationType: 'SPECIFIC_DATE', cancellationDate: '2027-01-20' }), 200);
    expect((await subscription(atPeriodEnd)).status).toBe('active');
    expect([await hasAccess(periodEndBuyer), await hasAccess(dateBuyer)]).toEqual([true, true]);

    await advance(clockId, '2027-01-25T00:00:00Z');
    expect((await subscription(onDate)).status).toBe('canceled');
    expect((await subscription(atPeriodEnd)).status).toBe('active');
    expect([await hasAccess(periodEndBuyer), await hasAccess(dateBuyer)]).toEqual([true, false]);
    await advance(clockId, '2027-03-01T00:00:00Z');
    expect((await subscription(atPeriodEnd)).status).toBe('canceled');
    expect(await hasAccess(periodEndBuyer)).toBe(false);
    expect(await invoicesOf(atPeriodEnd)).toEqual([]);
    const types = (await eventsAbout(atPeriodEnd)).map((e) => e.type);
    expect(types.filter((t) => t === 'subscription.cancelled')).toHaveLength(1);
  });
});

describe('a change waiting for its payment on a test clock', () => {
  it('expires when the clock passes its time, not in real time', async () => {
    const clockId = await testClock('2025-03-10T00:00:00Z');
    const customerId = await customerOn(clockId);
    const current = await subscribe(customerId, s.plans.basic);
    await makeDefault(customerId, CARDS.declined);
    const change = await s.call('POST', `/subscriptions/${current}/update/`, { planIdentifier: s.plans.pro, chargePeriod: 'MONTHLY', paymentBehavior: 'activate_on_payment' });
    expectStatus(change, 200);
    const pending = await db()
      .selectFrom('subscriptions')
      .select(['id', 'status', 'pending_expires_at'])
      .where('previous_subscription_id', '=', current)
      .executeTakeFirstOrThrow();
    expect(pending.status).toBe('incomplete');
    // The clock's time plus the waiting period (23 hours by default), not the real time's.
    expect(pending.pending_expires_at?.toISOString()).toBe('2025-03-10T23:00:00.000Z');

    // In real time the expiry is long past, yet nothing expires it: no real-time job was queued for it.
    await server.runJobs(['expire-pending-subscription-update']);
    expect((await subscription(pending.id)).status).toBe('incomplete');
    await advance(clockId, '2025-03-10T22:00:00Z');
    expect((await subscription(pending.id)).status).toBe('incomplete');
    await advance(clockId, '2025-03-11T00:00:00Z');
    expect((await subscription(pending.id)).status).toBe('incomplete_expired');
    expect((await subscription(current)).status).toBe('active');
    const expiry = (await eventsAbout(pending.id)).filter((e) => e.object.status === 'incomplete_expired');
    expect(expiry.map((e) => e.type)).toEqual(['subscription.updated']);
  });
});

describe('a discount carried by a subscription', () => {
  it('takes its cycles: the first payment and one renewal discounted, then the full price; the upcoming invoice shows it', async () => {
    const code = `TWO${Date.now().toString(36).toUpperCase()}`;
    const made = await s.call('POST', '/discounts/', { name: 'Half off twice', code, discountType: 'PERCENTAGE', percentOff: 50, duration: 'REPEATING', durationInCycles: 2 });
    expectStatus(made, 201);
    const clockId = await testClock('2025-05-10T00:00:00Z');
    const customerId = await customerOn(clockId, null);
    const session = await s.call('POST', '/checkout/', { planIdentifier: s.plans.basic, chargePeriod: 'MONTHLY', customerId, successUrl: 'https://shop.example/thanks', discountCode: code });
    expectStatus(session, 201);
    const page = await getPage(session.body.checkoutUrl);
    expectStatus(await postForm(session.body.checkoutUrl, payWith(csrfOf(page.text), CARDS.ok, { country: 'US' })), 303);
    const subscriptionId = (await s.call('GET', `/checkout/sessions/${session.body.checkoutSessionId}/`)).body.subscription.id;
    // Half of $10 at purchase; the next renewal is half too (the second cycle), as the preview says.
    expect((await s.call('GET', `/subscriptions/${subscriptionId}/upcoming-invoice/`)).body).toMatchObject({ amountDiscount: '5.00', amountTotal: '5.00' });
    await advance(clockId, '2025-06-10T01:00:00Z');
    await advance(clockId, '2025-07-10T01:00:00Z');
    // The purchase's own invoice (half), then the renewals: June half (the second cycle), July in full.
    expect((await s.call('GET', `/checkout/sessions/${session.body.checkoutSessionId}/`)).body.order).toMatchObject({ amountDiscount: '5.00', amountTotal: '5.00' });
    const renewals = (await invoicesOf(subscriptionId)).map((i) => [i.status, i.total_minor, i.period_start?.toISOString()]);
    expect(renewals).toEqual([
      ['PAID', 500, '2025-06-10T00:00:00.000Z'],
      ['PAID', 1000, '2025-07-10T00:00:00.000Z'],
    ]);
  });
});

describe('a price that recurs', () => {
  it('renews a customAmount subscription at its custom amount, not at the plan price', async () => {
    const clockId = await testClock('2025-08-10T00:00:00Z');
    const customerId = await customerOn(clockId, null);
    const session = await s.call('POST', '/checkout/', {
      planIdentifier: s.plans.basic,
      chargePeriod: 'MONTHLY',
      customerId,
      successUrl: 'https://shop.example/thanks',
      customAmount: 49.9,
      taxBehavior: 'EXCLUSIVE',
      currencyCode: 'USD',
    });
    expectStatus(session, 201);
    const page = await getPage(session.body.checkoutUrl);
    expectStatus(await postForm(session.body.checkoutUrl, payWith(csrfOf(page.text), CARDS.ok, { country: 'US' })), 303);
    const detail = (await s.call('GET', `/checkout/sessions/${session.body.checkoutSessionId}/`)).body;
    expect(detail.order).toMatchObject({ amountSubtotal: '49.90' });
    const subscriptionId = detail.subscription.id;
    expect((await s.call('GET', `/subscriptions/${subscriptionId}/upcoming-invoice/`)).body).toMatchObject({ amountSubtotal: '49.90' });
    await advance(clockId, '2025-09-10T01:00:00Z');
    await advance(clockId, '2025-10-10T01:00:00Z');
    const renewals = (await invoicesOf(subscriptionId)).map((i) => [i.status, i.total_minor, i.period_start?.toISOString()]);
    const firstTotal = Math.round(Number(detail.order.amountTotal) * 100);
    expect(renewals).toEqual([
      ['PAID', firstTotal, '2025-09-10T00:00:00.000Z'],
      ['PAID', firstTotal, '2025-10-10T00:00:00.000Z'],
    ]);
    expect(renewals[0]![1]).not.toBe(1000);
  });

  it('renews a subscription sold at a promotion\'s price at that price, even after the promotion is archived', async () => {
    const promotion = await s.call('POST', '/promotion-rules/', { name: uniqueId('PPP'), productId: s.product.id, planIdentifiers: [s.plans.pro], countryOverrides: [{ countryCode: 'IN', percentage: 25 }] });
    expectStatus(promotion, 201);
    const clockId = await testClock('2025-08-10T00:00:00Z');
    const customerId = await customerOn(clockId, null);
    const session = await s.call('POST', '/checkout/', { planIdentifier: s.plans.pro, chargePeriod: 'MONTHLY', customerId, successUrl: 'https://shop.example/thanks', ipAddress: '49.44.0.1' });
    expectStatus(session, 201);
    const page = await getPage(session.body.checkoutUrl);
    expectStatus(await postForm(session.body.checkoutUrl, payWith(csrfOf(page.text), CARDS.ok, { country: 'IN' })), 303);
    const detail = (await s.call('GET', `/checkout/sessions/${session.body.checkoutSessionId}/`)).body;
    expect(detail.order).toMatchObject({ amountSubtotal: '20.00', amountDiscount: '5.00' });
    expectStatus(await s.call('DELETE', `/promotion-rules/${promotion.body.id}/`), 204);
    await advance(clockId, '2025-09-10T01:00:00Z');
    const firstTotal = Math.round(Number(detail.order.amountTotal) * 100);
    const renewals = (await invoicesOf(detail.subscription.id)).map((i) => [i.status, i.total_minor]);
    expect(renewals).toEqual([['PAID', firstTotal]]);
  });
});
