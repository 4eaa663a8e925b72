import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../src/lib/clock.js';
import { OverviewService } from '../src/modules/overview/service.js';
import { commerceSeller, createCustomer, insertOrder, type Seller, type TestCustomer } from './commerce-factory.js';
import { shop, type Shop } from './commerce-support.js';
import { environmentIdOf, startTestServer, type TestOrg, type TestServer } from './harness.js';

/**
 * GET /api/v1/overview/ (decision 0080): the dashboard's Home figures, every expected value
 * worked out by hand below from the rows the test writes.
 */
// 22:30 UTC on 31 March 2026 is already 00:30 on 1 April in Berlin (UTC+2 since 29 March).
const NOW = new Date('2026-03-31T22:30:00Z');
const at = (iso: string) => new Date(iso);

let server: TestServer;
let org: TestOrg;
let seller: Seller;
let production: Seller;
let buyer: TestCustomer;
let lastCustomer: TestCustomer;

const overview = (key: string, prefix = '/sandbox') => server.request('GET', `${prefix}/api/v1/overview/`, { key });

/** A successful REFUND transaction of an order, as a settled refund writes it. */
async function refundTransaction(s: Seller, orderId: string, amountMinor: number, when: Date, currency = 'USD') {
  await server.database.db
    .insertInto('transactions')
    .values({
      id: randomUUID(),
      environment_id: s.environmentId,
      order_id: orderId,
      refund_id: null,
      transaction_type: 'REFUND',
      status: 'success',
      currency,
      amount_minor: amountMinor,
      fee_minor: 0,
      fee_breakdown: '[]',
      tax_minor: 0,
      net_minor: amountMinor,
      payment_method_id: null,
      provider_ref: null,
      failure_reason: null,
      available_on: null,
      created_at: when,
    })
    .execute();
}

beforeAll(async () => {
  server = await startTestServer({ clock: new ManualClock(NOW) });
  org = await server.createOrg();
  seller = await commerceSeller(server, org, 'sandbox');
  production = await commerceSeller(server, org, 'production');
  const zone = await server.request('PATCH', '/sandbox/api/v1/seller-profile/', { key: seller.key, body: { timeZone: 'Europe/Berlin' } });
  expect(zone.status, zone.text).toBe(200);
  buyer = await createCustomer(seller, { name: 'Revenue Buyer' });

  // Sandbox, counted in Berlin: today and this month both began at 2026-03-31T22:00:00Z.
  const a = await insertOrder(seller, buyer, { totalMinor: 1200, currency: 'USD', paidAt: at('2026-03-31T22:10:00Z') });
  await insertOrder(seller, buyer, { totalMinor: 500, currency: 'USD', paidAt: at('2026-03-31T21:00:00Z') }); // 23:00 on 31 March in Berlin
  await insertOrder(seller, buyer, { totalMinor: 999, currency: 'EUR', paidAt: at('2026-03-31T22:20:00Z') });
  await refundTransaction(seller, a.orderId, 200, at('2026-03-31T22:25:00Z'));
  await refundTransaction(seller, a.orderId, 50, at('2026-03-31T21:59:59Z')); // the month before, in Berlin
  // Six renewal invoices whose payment failed, the newest last; and one still OPEN, which is not a failure.
  for (let i = 0; i < 6; i++) {
    const failed = await insertOrder(seller, buyer, {
      totalMinor: 700 + i,
      status: 'FAILED',
      paidAt: null,
      invoiceStatus: 'PAYMENT_FAILED',
      createdAt: at(`2026-03-2${i}T10:00:00Z`),
    });
    await server.database.db
      .updateTable('invoices')
      .set({ attempt_count: 2, failure_code: 'card_declined', failure_message: 'Your card was declined.', number: `FAIL-${i}` })
      .where('id', '=', failed.invoiceId)
      .execute();
  }
  await insertOrder(seller, buyer, { totalMinor: 800, status: 'FAILED', paidAt: null, invoiceStatus: 'OPEN' });

  // Production, no seller profile: counted in UTC, so today began at 2026-03-31T00:00:00Z and the month on 1 March.
  const prodBuyer = await createCustomer(production);
  await insertOrder(production, prodBuyer, { totalMinor: 300, paidAt: at('2026-03-31T01:00:00Z') });
  await insertOrder(production, prodBuyer, { totalMinor: 400, paidAt: at('2026-03-01T00:00:00Z') });
  await insertOrder(production, prodBuyer, { totalMinor: 9999, paidAt: at('2026-02-28T23:59:59Z') });

  // Eleven customer.created events in the sandbox, on top of the one of the first buyer.
  for (let i = 0; i < 10; i++) await createCustomer(seller);
  lastCustomer = await createCustomer(seller, { name: 'Newest' });
});
afterAll(() => server.close());

describe('revenue', () => {
  it("counts today and this month in the seller's time zone, per currency, net of refunds", async () => {
    const res = await overview(seller.key);
    expect(res.status, res.text).toBe(200);
    expect(res.body.timeZone).toBe('Europe/Berlin');
    const expected = [
      { currency: 'EUR', paidUnits: 999, refundedUnits: 0, netUnits: 999 },
      { currency: 'USD', paidUnits: 1200, refundedUnits: 200, netUnits: 1000 },
    ];
    expect(res.body.revenue.today).toEqual({ start: '2026-03-31T22:00:00.000Z', end: NOW.toISOString(), currencies: expected });
    expect(res.body.revenue.month).toEqual({ start: '2026-03-31T22:00:00.000Z', end: NOW.toISOString(), currencies: expected });
  });

  it('counts in UTC where the seller set no time zone, and never another environment', async () => {
    const res = await overview(production.key, '');
    expect(res.status, res.text).toBe(200);
    expect(res.body.timeZone).toBe('UTC');
    expect(res.body.revenue.today).toEqual({
      start: '2026-03-31T00:00:00.000Z',
      end: NOW.toISOString(),
      currencies: [{ currency: 'USD', paidUnits: 300, refundedUnits: 0, netUnits: 300 }],
    });
    expect(res.body.revenue.month.start).toBe('2026-03-01T00:00:00.000Z');
    expect(res.body.revenue.month.currencies).toEqual([{ currency: 'USD', paidUnits: 700, refundedUnits: 0, netUnits: 700 }]);
    expect(res.body.failedPayments).toEqual({ count: 0, newest: [] });
  });
});

describe('failed payments and events', () => {
  it('counts the unpaid invoices whose payment failed and shows the newest five', async () => {
    const { failedPayments } = (await overview(seller.key)).body;
    expect(failedPayments.count).toBe(6);
    expect(failedPayments.newest.map((f: { invoiceNumber: string }) => f.invoiceNumber)).toEqual(['FAIL-5', 'FAIL-4', 'FAIL-3', 'FAIL-2', 'FAIL-1']);
    expect(failedPayments.newest[0]).toMatchObject({
      customerId: buyer.customerId,
      customerEmail: buyer.email,
      currency: 'USD',
      amountUnits: 705,
      attemptCount: 2,
      failureCode: 'card_declined',
      failureMessage: 'Your card was declined.',
      nextPaymentAttempt: null,
      failedOn: '2026-03-25T10:00:00.000Z',
    });
  });

  it("lists the environment's ten newest events, newest first", async () => {
    const { events } = (await overview(seller.key)).body;
    expect(events).toHaveLength(10);
    expect(events[0]).toMatchObject({ type: 'customer.created', objectType: 'customer', objectId: lastCustomer.id, actor: null, createdOn: NOW.toISOString() });
    // Each names the customer it is about, so that Home can say who.
    expect(events[0].customer).toEqual({ customerId: lastCustomer.customerId, name: 'Newest', email: lastCustomer.email });
    expect(events.every((e: { customer: unknown }) => e.customer !== null)).toBe(true);
    const prodEvents = (await overview(production.key, '')).body.events;
    expect(prodEvents.some((e: { objectId: string }) => e.objectId === lastCustomer.id)).toBe(false);
  });

  it('answers only a server key', async () => {
    expect((await overview(org.sandbox.clientKey)).status).toBe(403);
    expect((await overview('sk_test_nope')).status).toBe(401);
  });
});

describe('MRR, active subscriptions and trials', () => {
  let other: TestOrg;
  let s: Shop;

  /** A subscription row on a plan's price, as the subscription flows write one. */
  async function subscribe(
    plan: string,
    fields: { chargePeriod: string; status?: string; quantities?: Record<string, number>; currency?: string; customAmountMinor?: number; customTaxBehavior?: 'INCLUSIVE' | 'EXCLUSIVE' },
  ) {
    const environmentId = await environmentIdOf(server, other.organizationId, 'sandbox');
    const row = await server.database.db
      .selectFrom('plans as p')
      .innerJoin('plan_versions as v', 'v.plan_id', 'p.id')
      .innerJoin('plan_prices as pp', 'pp.plan_version_id', 'v.id')
      .select(['p.id', 'p.product_id', 'v.id as version_id', 'pp.id as price_id', 'pp.charge_catalog_price'])
      .where('p.environment_id', '=', environmentId)
      .where('p.identifier', '=', plan)
      .executeTakeFirstOrThrow();
    const customerId = await s.customer();
    const customer = await server.database.db.selectFrom('customers').select('id').where('customer_id', '=', customerId).executeTakeFirstOrThrow();
    const id = randomUUID();
    await server.database.db
      .insertInto('subscriptions')
      .values({
        id,
        environment_id: environmentId,
        customer_id: customer.id,
        product_id: row.product_id,
        plan_id: row.id,
        plan_version_id: row.version_id,
        price_id: row.price_id,
        charge_period: fields.chargePeriod,
        currency: fields.currency ?? 'USD',
        status: (fields.status ?? 'active') as 'active',
        amount_minor: 1,
        quantities: JSON.stringify(fields.quantities ?? {}),
        start_date: NOW,
        current_period_start: NOW,
        current_period_end: at('2026-04-30T22:30:00Z'),
        trial_end: null,
        end_date: null,
        canceled_at: null,
        cancellation_reason: null,
        cancellation_feedback: null,
        cancellation_comment: null,
        payment_method_id: null,
        previous_subscription_id: null,
        pending_expires_at: null,
        custom_amount_minor: fields.customAmountMinor ?? null,
        custom_tax_behavior: fields.customAmountMinor ? (fields.customTaxBehavior ?? 'EXCLUSIVE') : null,
        created_at: NOW,
        modified_at: NOW,
      })
      .execute();
    return { id, environmentId, customerId, customerPk: customer.id, chargeCatalogPrice: row.charge_catalog_price as { feature: string | null }[] };
  }

  /** Gives the subscription a discount it carries into its renewals, with `cycles` left (null: forever). */
  async function carryDiscount(sub: Awaited<ReturnType<typeof subscribe>>, percentOff: number, cycles: number | null) {
    const created = await s.call('POST', '/discounts/', { name: `Off ${percentOff}`, discountType: 'PERCENTAGE', percentOff, ...(cycles === null ? { duration: 'FOREVER' } : { durationInCycles: 3 }) });
    expect(created.status, created.text).toBe(201);
    const redemption = randomUUID();
    const db = server.database.db;
    await db.insertInto('discount_redemptions').values({ id: redemption, environment_id: sub.environmentId, discount_id: created.body.id, customer_id: sub.customerPk, subscription_id: sub.id, order_id: null, redeemed_at: NOW }).execute();
    await db.insertInto('subscription_discounts').values({ subscription_id: sub.id, environment_id: sub.environmentId, discount_id: created.body.id, redemption_id: redemption, cycles_remaining: cycles, created_at: NOW }).execute();
  }

  beforeAll(async () => {
    other = await server.createOrg();
    s = await shop(server, other.sandbox.serverKey);
    // basic: 10.00 a month or 100.00 a year; pro: 20.00 or 200.00; seats: 5.00 a month and 3.00 per seat; trial: 30.00 after 14 days.
    await subscribe(s.plans.basic, { chargePeriod: 'MONTHLY' }); // 1000 a month
    await subscribe(s.plans.basic, { chargePeriod: 'MONTHLY' }); // another 1000
    await subscribe(s.plans.pro, { chargePeriod: 'YEARLY' }); // 20000 a year: 1666.67 a month
    const superseded = await subscribe(s.plans.seats, { chargePeriod: 'MONTHLY', status: 'superseded' }); // not counted
    const seatFeature = superseded.chargeCatalogPrice.find((entry) => entry.feature !== null)!.feature!;
    await subscribe(s.plans.seats, { chargePeriod: 'MONTHLY', status: 'past_due', quantities: { [seatFeature]: 4 } }); // 500 + 4 × 300 = 1700
    await carryDiscount(await subscribe(s.plans.basic, { chargePeriod: 'MONTHLY' }), 10, null); // 1000 - 10 % = 900
    await carryDiscount(await subscribe(s.plans.pro, { chargePeriod: 'YEARLY' }), 50, 0); // no cycles left: 20000 a year
    await subscribe(s.plans.basic, { chargePeriod: 'WEEKLY', currency: 'EUR', customAmountMinor: 1234 }); // 1234 × 52 ÷ 12 = 5347.33
    await subscribe(s.plans.trial, { chargePeriod: 'MONTHLY', status: 'trialing' }); // a trial: not in MRR
    await subscribe(s.plans.free, { chargePeriod: 'MONTHLY' }); // free: active, not in MRR
    await subscribe(s.plans.basic, { chargePeriod: 'MONTHLY', status: 'canceled' }); // ended
    // 12.00 a month with tax included; its newest order (the later of two) taxed it at 20 %: 1000 before tax.
    const inclusive = await subscribe(s.plans.basic, { chargePeriod: 'MONTHLY', customAmountMinor: 1200, customTaxBehavior: 'INCLUSIVE' });
    const otherSeller = await commerceSeller(server, other, 'sandbox');
    const payer = { id: inclusive.customerPk, customerId: inclusive.customerId, name: 'Buyer', email: null, billingAddress: null };
    await insertOrder(otherSeller, payer, { subscriptionId: inclusive.id, taxRateBp: 1000, totalMinor: 1100, taxMinor: 100, paidAt: at('2026-01-31T10:00:00Z') });
    await insertOrder(otherSeller, payer, { subscriptionId: inclusive.id, taxRateBp: 2000, totalMinor: 1200, taxMinor: 200, paidAt: at('2026-02-28T10:00:00Z') });
  });

  it('normalises each recurring amount to a month, after recurring discounts, summed exactly and rounded once', async () => {
    const res = await overview(other.sandbox.serverKey);
    expect(res.status, res.text).toBe(200);
    // USD in 336ths of a month: 1000 × 336 + 20000 × 28 + 1000 × 336 (the other basic) + 1700 × 336 + 900 × 336 + 20000 × 28
    //   + 1000 × 336 (tax included) = 336000 + 560000 + 336000 + 571200 + 302400 + 560000 + 336000 = 3001600; ÷ 336 = 8933.33 -> 8933.
    // EUR: 1234 × 1456 = 1796704; ÷ 336 = 5347.33 -> 5347.
    expect(res.body.mrr).toEqual([
      { currency: 'EUR', amountUnits: 5347, subscriptions: 1 },
      { currency: 'USD', amountUnits: 8933, subscriptions: 7 },
    ]);
    // The same from every subscription, without the counts the triggers keep (decision 0090).
    const environmentId = await environmentIdOf(server, other.organizationId, 'sandbox');
    expect(await new OverviewService(server.database.db, new ManualClock(NOW)).recomputedMrr({ environmentId })).toEqual(res.body.mrr);
    // active: basic ×4 (one discounted, one with tax included), pro ×2, EUR weekly, free; past_due: the team. Trialing: 1.
    expect(res.body.activeSubscriptions).toBe(9);
    expect(res.body.trials).toBe(1);
    // The two orders were paid before this month.
    expect(res.body.revenue.month.currencies).toEqual([]);
  });
});
