import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CARDS, shop } from './commerce-support.js';
import { startTestServer, uniqueId, type TestOrg, type TestServer } from './harness.js';

let server: TestServer;
let org: TestOrg;
let s: Awaited<ReturnType<typeof shop>>;

beforeAll(async () => {
  server = await startTestServer();
  org = await server.createOrg();
  s = await shop(server, org.sandbox.serverKey);
});
afterAll(() => server.close());

const charge = (customerId: string, extra: Record<string, unknown> = {}, headers?: Record<string, string>) =>
  s.call('POST', '/charges/', { planIdentifier: s.plans.lifetime, chargePeriod: 'ONE_TIME', customerId, ...extra }, headers);

async function ordersOf(customerId: string) {
  const customer = await server.database.db.selectFrom('customers').select('id').where('customer_id', '=', customerId).executeTakeFirstOrThrow();
  return server.database.db.selectFrom('orders').selectAll().where('customer_id', '=', customer.id).execute();
}

describe('POST /charges/ (interface §4.1)', () => {
  it('bills at once and answers 201 with the charge record', async () => {
    const customerId = await s.customer();
    await s.card(customerId);
    const res = await charge(customerId);
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      endDate: null,
      billingPeriodStartTime: null,
      billingPeriodEndTime: null,
      amount: '49.00',
      recurrence: '',
      currency: 'USD',
      status: 'active',
      plan: { identifier: s.plans.lifetime },
      product: { id: s.product.id, identifier: s.product.identifier },
      features: [],
      trialDaysRemaining: 0,
      customerId,
      billingType: 'ONE_TIME',
      recurrenceUnit: null,
      recurrenceType: null,
    });
    expect(res.body.startDate).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    const [order] = await ordersOf(customerId);
    expect(order).toMatchObject({ status: 'COMPLETE', billing_type: 'ONE_TIME', total_minor: 4900, currency: 'USD' });
    const db = server.database.db;
    expect(await db.selectFrom('invoices').select(['status', 'total_minor']).where('order_id', '=', order!.id).executeTakeFirst()).toEqual({ status: 'PAID', total_minor: 4900 });
    const tx = await db.selectFrom('transactions').selectAll().where('order_id', '=', order!.id).executeTakeFirstOrThrow();
    expect(tx).toMatchObject({ transaction_type: 'CHARGE', status: 'success', amount_minor: 4900 });
    expect(tx.fee_minor).toBeGreaterThan(0);
    expect(tx.net_minor).toBe(4900 - tx.fee_minor - tx.tax_minor);
    const licenses = await db.selectFrom('licenses').selectAll().where('order_id', '=', order!.id).execute();
    expect(licenses).toHaveLength(1);
    expect(licenses[0]!.license_key).toMatch(/^LIC-[0-9A-F-]{36}$/);
    const events = await db
      .selectFrom('events')
      .select('type')
      .where((eb) =>
        eb.or([
          eb(sql`payload::jsonb`, '@>', JSON.stringify({ data: { object: { id: order!.id } } })),
          eb(sql`payload::jsonb`, '@>', JSON.stringify({ data: { object: { order_id: order!.id } } })),
        ]),
      )
      .execute();
    expect(events.map((e) => e.type).sort()).toEqual(['invoice.created', 'invoice.paid', 'order.created']);
  });

  it('fixes the customer currency with the first purchase and refuses another with 400', async () => {
    const customerId = await s.customer();
    await s.card(customerId);
    expect((await charge(customerId, { currencyCode: 'EUR' })).body.amount).toBe('45.00');
    const other = await charge(customerId, { currencyCode: 'USD' });
    expect(other.status).toBe(400);
    expect(other.body.detail).toMatch(/differs from the customer's currency EUR/);
    expect((await charge(customerId)).body.currency).toBe('EUR');
  });

  it('refuses 400 when there is no payment method', async () => {
    const customerId = await s.customer();
    const res = await charge(customerId);
    expect(res.status).toBe(400);
    expect(res.body.detail).toBe('A payment method is required to complete this payment.');
    expect(await ordersOf(customerId)).toEqual([]);
  });

  it("uses an active subscription's payment method when none is saved as default", async () => {
    const customerId = await s.customer();
    const card = await s.card(customerId);
    const sub = await s.call('POST', '/subscriptions/create/', { planIdentifier: s.plans.basic, chargePeriod: 'MONTHLY', customerId });
    expect(sub.status).toBe(201);
    await server.database.db.updateTable('payment_methods').set({ is_default: false, deleted_at: new Date() }).where('id', '=', card.id).execute();
    await server.database.db.updateTable('subscriptions').set({ payment_method_id: card.id }).where('id', '=', sub.body.id).execute();
    await server.database.db.updateTable('payment_methods').set({ deleted_at: null }).where('id', '=', card.id).execute();
    expect((await charge(customerId)).status).toBe(201);
  });

  it.each([
    ['declined', CARDS.declined, /declined/],
    ['needing authentication', CARDS.authentication, /authentication/],
    ['short of funds', CARDS.insufficient, /insufficient funds/],
  ])('refuses 400 when the card is %s, and records nothing', async (_name, number, detail) => {
    const customerId = await s.customer();
    await s.card(customerId, number);
    const res = await charge(customerId);
    expect(res.status).toBe(400);
    expect(res.body.detail).toMatch(detail);
    expect(await ordersOf(customerId)).toEqual([]);
  });

  it('refuses 400 when the organization is blocked', async () => {
    const blocked = await server.createOrg();
    const b = await shop(server, blocked.sandbox.serverKey);
    const customerId = await b.customer();
    await b.card(customerId);
    await server.database.db.updateTable('organizations').set({ blocked_at: new Date(), blocked_reason: 'under review' }).where('id', '=', blocked.organizationId).execute();
    const res = await b.call('POST', '/charges/', { planIdentifier: b.plans.lifetime, chargePeriod: 'ONE_TIME', customerId });
    expect(res.status).toBe(400);
    expect(res.body.detail).toMatch(/blocked.*under review/);
  });

  it('refuses 400 when chargePeriod is not ONE_TIME', async () => {
    const customerId = await s.customer();
    await s.card(customerId);
    const res = await charge(customerId, { planIdentifier: s.plans.basic, chargePeriod: 'MONTHLY' });
    expect(res.status).toBe(400);
    expect(res.body.detail).toMatch(/ONE_TIME/);
  });

  it('refuses 400 for an unknown customer, an unpublished plan and a plan without a price in the currency', async () => {
    expect((await charge(uniqueId('ghost'))).body.detail).toBe('Customer does not exist.');
    const customerId = await s.customer();
    await s.card(customerId);
    const draft = await s.api.plan(s.product.id);
    expect((await charge(customerId, { planIdentifier: draft.identifier })).body.detail).toMatch(/not published/);
    const gbp = await charge(customerId, { currencyCode: 'GBP' });
    expect(gbp.status).toBe(400);
    expect(gbp.body.detail).toMatch(/no enabled price in GBP/);
  });

  it('charges once for 20 concurrent identical requests with one Idempotency-Key', async () => {
    const customerId = await s.customer();
    await s.card(customerId);
    const key = uniqueId('idem');
    const responses = await Promise.all(Array.from({ length: 20 }, () => charge(customerId, {}, { 'idempotency-key': key })));
    expect(responses.map((r) => r.status)).toEqual(Array(20).fill(201));
    expect(new Set(responses.map((r) => r.body.orderId)).size).toBe(1);
    expect(await ordersOf(customerId)).toHaveLength(1);
  });

  it('answers 428 in production, where no payment provider is configured', async () => {
    const p = await shop(server, org.production.serverKey, '');
    const customerId = await p.customer();
    await server.database.db
      .insertInto('payment_methods')
      .values({
        environment_id: (await server.database.db.selectFrom('customers').select('environment_id').where('customer_id', '=', customerId).executeTakeFirstOrThrow()).environment_id,
        customer_id: (await server.database.db.selectFrom('customers').select('id').where('customer_id', '=', customerId).executeTakeFirstOrThrow()).id,
        provider_ref: 'card_4242424242424242',
        status: 'succeeded',
        is_default: true,
        last4: '4242',
        created_at: new Date(),
        modified_at: new Date(),
      })
      .execute();
    const res = await p.call('POST', '/charges/', { planIdentifier: p.plans.lifetime, chargePeriod: 'ONE_TIME', customerId });
    expect(res.status).toBe(428);
    expect(res.body.detail).toMatch(/provider/);
  });

  it('taxes by the country of ipAddress when the customer has no billing country, and by the billing country first', async () => {
    const byIp = await s.customer();
    await s.card(byIp);
    const german = await charge(byIp, { ipAddress: '85.214.0.1' });
    expect(german.body.amount).toBe('58.31');
    const [order] = await ordersOf(byIp);
    expect(order).toMatchObject({ tax_country: 'DE', tax_rate_bp: 1900, tax_minor: 931, total_minor: 5831 });

    const british = await s.customer({ billingAddress: { country: 'GB' } });
    await s.card(british);
    expect((await charge(british, { ipAddress: '85.214.0.1' })).body.amount).toBe('58.80');

    const american = await s.customer();
    await s.card(american);
    expect((await charge(american, { ipAddress: '8.8.8.8' })).body.amount).toBe('49.00');
  });

  it('raises the base fee rate once the environment has charged 5,000 USD', async () => {
    const other = await server.createOrg();
    const o = await shop(server, other.sandbox.serverKey);
    const customerId = await o.customer();
    await o.card(customerId);
    const buy = () => o.call('POST', '/charges/', { planIdentifier: o.plans.lifetime, chargePeriod: 'ONE_TIME', customerId });
    const feeOf = async (orderId: string) =>
      (await server.database.db.selectFrom('transactions').select('fee_breakdown').where('order_id', '=', orderId).executeTakeFirstOrThrow())
        .fee_breakdown as Array<{ name: string; percentage: string | null }>;
    const first = (await buy()).body;
    expect((await feeOf(first.orderId)).find((f) => f.name === 'base_fee')?.percentage).toBe('2.9');
    const row = await server.database.db.selectFrom('transactions').selectAll().where('order_id', '=', first.orderId).executeTakeFirstOrThrow();
    await server.database.db
      .insertInto('transactions')
      .values({ ...row, seq: undefined as never, id: crypto.randomUUID(), amount_minor: 500_000, fee_breakdown: '[]', available_on: null })
      .execute();
    const second = (await buy()).body;
    expect((await feeOf(second.orderId)).find((f) => f.name === 'base_fee')?.percentage).toBe('3.5');
  });

  it("shows a key's activations on its order", async () => {
    const customerId = await s.customer();
    await s.card(customerId);
    const { orderId } = (await charge(customerId)).body;
    const before = await s.call('GET', `/orders/${orderId}/`);
    const key = before.body.license[0].licenseKey;
    expect(before.body.license[0]).toMatchObject({ activationUsage: 0, activatedOn: null, activationLimit: 3 });
    const activated = await s.call('POST', '/license/activate/', { licenseKey: key, instanceName: 'laptop' });
    expect(activated.status).toBe(201);
    const after = await s.call('GET', `/orders/${orderId}/`);
    expect(after.body.license[0].activationUsage).toBe(1);
    expect(after.body.license[0].activatedOn).toMatch(/Z$/);
  });
});
