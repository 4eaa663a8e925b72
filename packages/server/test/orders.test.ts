import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './harness.js';
import {
  commerceSeller,
  createCustomer,
  insertOrder,
  insertSubscription,
  type Seller,
  type TestCustomer,
} from './commerce-factory.js';

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

const get = (seller: Seller, path: string) => server.request('GET', `${seller.api}${path}`, { key: seller.key });
const ids = (body: { results: { id: string }[] }) => body.results.map((r) => r.id);
const minutesAgo = (n: number) => new Date(Date.now() - n * 60_000);

describe('an order', () => {
  let seller: Seller;
  let customer: TestCustomer;

  beforeAll(async () => {
    seller = await commerceSeller(server, await server.createOrg());
    customer = await createCustomer(seller, { name: 'Grace Hopper', email: 'grace@example.com' });
  });

  it('is shown with its amounts, customer, product, plan, invoice and payment method', async () => {
    const paidAt = new Date('2026-03-04T05:06:07.000Z');
    const order = await insertOrder(seller, customer, { totalMinor: 26100, taxMinor: 4350, paidAt, last4: '1881' });
    const res = await get(seller, `/orders/${order.orderId}/`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      id: order.orderId,
      customer: { customerId: customer.customerId, name: 'Grace Hopper', email: 'grace@example.com' },
      product: { id: seller.product.id, name: seller.product.name, identifier: seller.product.identifier, images: [] },
      status: 'COMPLETE',
      paidAt: '2026-03-04T05:06:07.000Z',
      amountSubtotal: '217.50',
      amountDiscount: '0.00',
      amountTax: '43.50',
      amountTotal: '261.00',
      saleCurrency: 'USD',
      amountSubtotalUnits: 21750,
      amountDiscountUnits: 0,
      amountTaxUnits: 4350,
      amountTotalUnits: 26100,
      refundedTotalUnits: 0,
      saleCurrencySymbol: '$',
      billingAddress: { line1: '12 Analytical Row', city: 'London', postalCode: 'N1 7AA', country: 'GB' },
      plan: { identifier: seller.plan.identifier, name: 'Growth plan', version: seller.plan.version, product: seller.product.id },
      billingType: 'ONE_TIME',
      license: [],
      isTrial: false,
      isRenewal: false,
      subscription: {},
      invoiceId: order.invoiceId,
      customFieldsData: {},
      paymentMethod: { paymentMethodType: 'card', paymentMethodName: 'visa', last4: '1881' },
    });
    expect(res.body.id).toMatch(/^ORD-\d{14}-[A-Z0-9]{10}$/);
  });

  it('formats amounts with the digits of its currency and its symbol', async () => {
    const yen = await insertOrder(seller, customer, { currency: 'JPY', totalMinor: 1500, taxMinor: 136 });
    const euro = await insertOrder(seller, customer, { currency: 'EUR', totalMinor: 11900, taxMinor: 1900 });
    const dinar = await insertOrder(seller, customer, { currency: 'KWD', totalMinor: 12345, taxMinor: 0 });
    expect((await get(seller, `/orders/${yen.orderId}/`)).body).toMatchObject({
      amountTotal: '1500',
      amountTax: '136',
      saleCurrencySymbol: '¥',
    });
    expect((await get(seller, `/orders/${euro.orderId}/`)).body).toMatchObject({ amountTotal: '119.00', saleCurrencySymbol: '€' });
    expect((await get(seller, `/orders/${dinar.orderId}/`)).body).toMatchObject({ amountTotal: '12.345', amountTotalUnits: 12345 });
  });

  it('has no payment method when nothing was charged', async () => {
    const order = await insertOrder(seller, customer, { totalMinor: 0, taxMinor: 0, isTrial: true, providerRef: null, last4: null });
    const res = await get(seller, `/orders/${order.orderId}/`);
    expect(res.body).toMatchObject({ paymentMethod: null, isTrial: true, amountTotal: '0.00' });
  });

  it('lists the licenses issued with it', async () => {
    const order = await insertOrder(seller, customer);
    const expires = new Date('2027-01-01T00:00:00.000Z');
    const licenseId = randomUUID();
    await server.database.db
      .insertInto('licenses')
      .values({
        id: licenseId,
        environment_id: seller.environmentId,
        customer_id: customer.id,
        order_id: order.orderId,
        subscription_id: null,
        plan_version_id: seller.plan.versionId,
        license_key: 'LIC-0F0F0F0F-AAAA-BBBB-CCCC-DDDDDDDDDDDD',
        activation_limit: 3,
        activation_limit_enabled: true,
        expires_on: expires,
        enabled: true,
        created_at: new Date(),
      })
      .execute();
    const res = await get(seller, `/orders/${order.orderId}/`);
    expect(res.body.license).toEqual([
      {
        id: licenseId,
        licenseKey: 'LIC-0F0F0F0F-AAAA-BBBB-CCCC-DDDDDDDDDDDD',
        activatedOn: null,
        expiresOn: '2027-01-01T00:00:00.000Z',
        activationUsage: 0,
        activationLimit: 3,
        enabled: true,
      },
    ]);
  });

  it('summarises its subscription', async () => {
    const start = new Date('2026-05-01T10:00:00.000Z');
    const subscriptionId = await insertSubscription(seller, customer, start);
    const order = await insertOrder(seller, customer, { subscriptionId, paidAt: start });
    const res = await get(seller, `/orders/${order.orderId}/`);
    expect(res.body.billingType).toBe('SUBSCRIPTION');
    expect(res.body.subscription).toEqual({
      id: subscriptionId,
      status: 'active',
      amount: '12.00',
      currency: 'usd',
      interval: 'month',
      currencySymbol: '$',
      nextInvoiceDate: '2026-05-31T10:00:00.000Z',
    });
  });

  it('is 404 when unknown, PENDING, or of another environment or organization', async () => {
    const pending = await insertOrder(seller, customer, { status: 'PENDING', paidAt: null });
    const paid = await insertOrder(seller, customer);
    const missing = await get(seller, '/orders/ORD-20260101000000-NOPE0/');
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ detail: 'No order with id "ORD-20260101000000-NOPE0"', code: 'order_not_found' });
    expect((await get(seller, `/orders/${pending.orderId}/`)).status).toBe(404);
    expect((await get(seller, `/orders/${pending.orderId}/events/`)).status).toBe(404);

    const production = await server.request('GET', `/api/v1/orders/${paid.orderId}/`, { key: seller.org.production.serverKey });
    expect(production.status).toBe(404);
    const other = await server.createOrg();
    const foreign = await server.request('GET', `/sandbox/api/v1/orders/${paid.orderId}/`, { key: other.sandbox.serverKey });
    expect(foreign.status).toBe(404);
    expect((await get(seller, `/orders/${paid.orderId}/`)).status).toBe(200);
  });

  it('takes only a server key', async () => {
    const order = await insertOrder(seller, customer);
    const res = await server.request('GET', `${seller.api}/orders/${order.orderId}/`, { key: seller.org.sandbox.clientKey });
    expect(res.status).toBe(403);
    expect((await server.request('GET', `${seller.api}/orders/`, {})).status).toBe(401);
  });
});

describe('the order timeline', () => {
  let seller: Seller;
  let customer: TestCustomer;

  beforeAll(async () => {
    seller = await commerceSeller(server, await server.createOrg());
    customer = await createCustomer(seller);
  });

  it("is the order's own events, newest first", async () => {
    const order = await insertOrder(seller, customer);
    const res = await get(seller, `/orders/${order.orderId}/events/`);
    expect(res.status).toBe(200);
    expect(res.body.count).toBe(3);
    expect(res.body.results.map((e: { code: string }) => e.code)).toEqual(['invoice.paid', 'order.completed', 'order.created']);
    const event = res.body.results[1];
    expect(event).toMatchObject({ order: order.orderId, title: 'Payment completed', status: 'success', metadata: { secondary: 'card ending 4242' } });
    expect(Number.isInteger(event.id)).toBe(true);
    expect(event.timestamp).toMatch(/Z$/);
  });

  it('covers every order of the same subscription, and pages', async () => {
    const subscriptionId = await insertSubscription(seller, customer);
    const first = await insertOrder(seller, customer, { subscriptionId, paidAt: minutesAgo(60) });
    const renewal = await insertOrder(seller, customer, { subscriptionId, isRenewal: true, paidAt: minutesAgo(5) });
    const unrelated = await insertOrder(seller, customer, { paidAt: minutesAgo(1) });

    for (const orderId of [first.orderId, renewal.orderId]) {
      const res = await get(seller, `/orders/${orderId}/events/`);
      expect(res.body.count).toBe(6);
      const orders = res.body.results.map((e: { order: string }) => e.order);
      expect(orders.slice(0, 3)).toEqual([renewal.orderId, renewal.orderId, renewal.orderId]);
      expect(orders.slice(3)).toEqual([first.orderId, first.orderId, first.orderId]);
      expect(orders).not.toContain(unrelated.orderId);
    }
    const page = await get(seller, `/orders/${first.orderId}/events/?page_size=4&page=2`);
    expect(page.body.count).toBe(6);
    expect(page.body.results).toHaveLength(2);
    expect(page.body.next).toBeNull();
    expect(page.body.previous).toMatch(/page=1/);
  });
});

describe('the order list', () => {
  let seller: Seller;
  let ada: TestCustomer;
  let bob: TestCustomer;
  const orders: Record<string, string> = {};

  beforeAll(async () => {
    seller = await commerceSeller(server, await server.createOrg());
    ada = await createCustomer(seller, { customerId: `ada-${randomUUID().slice(0, 6)}`, name: 'Ada Lovelace', email: 'ada@engine.example' });
    bob = await createCustomer(seller, { customerId: `bob-${randomUUID().slice(0, 6)}`, name: 'Bob Babbage', email: 'bob@mill.example' });
    const subscriptionId = await insertSubscription(seller, ada);
    orders.oldest = (await insertOrder(seller, ada, { paidAt: new Date('2026-01-10T12:00:00Z') })).orderId;
    orders.subscription = (await insertOrder(seller, ada, { subscriptionId, paidAt: new Date('2026-02-10T12:00:00Z') })).orderId;
    orders.renewal = (
      await insertOrder(seller, ada, { subscriptionId, isRenewal: true, paidAt: new Date('2026-03-10T12:00:00Z') })
    ).orderId;
    orders.bob = (await insertOrder(seller, bob, { paidAt: new Date('2026-03-31T23:59:59Z') })).orderId;
    orders.refunded = (await insertOrder(seller, bob, { status: 'REFUNDED', paidAt: new Date('2026-04-01T00:00:00Z') })).orderId;
    // Never paid: a FAILED order (listed last) and a PENDING one (never listed).
    orders.failed = (await insertOrder(seller, bob, { status: 'FAILED', paidAt: null, createdAt: new Date('2026-04-05T00:00:00Z') })).orderId;
    orders.pending = (await insertOrder(seller, bob, { status: 'PENDING', paidAt: null, createdAt: new Date('2026-04-06T00:00:00Z') })).orderId;
  });

  it('shows every paid order, newest paid first, and never a PENDING one', async () => {
    const res = await get(seller, '/orders/');
    expect(res.status).toBe(200);
    expect(res.body.count).toBe(6);
    expect(ids(res.body)).toEqual([
      orders.refunded,
      orders.bob,
      orders.renewal,
      orders.subscription,
      orders.oldest,
      orders.failed,
    ]);
    const pending = await get(seller, '/orders/?status=PENDING');
    expect(pending.body).toMatchObject({ count: 0, results: [] });
  });

  it('filters by status, billing type and renewal', async () => {
    expect(ids((await get(seller, '/orders/?status=REFUNDED')).body)).toEqual([orders.refunded]);
    expect(ids((await get(seller, '/orders/?billing_type=SUBSCRIPTION')).body)).toEqual([orders.renewal, orders.subscription]);
    expect(ids((await get(seller, '/orders/?is_renewal=true')).body)).toEqual([orders.renewal]);
    expect((await get(seller, '/orders/?is_renewal=false')).body.count).toBe(5);
    expect(ids((await get(seller, '/orders/?billingType=ONE_TIME&status=COMPLETE')).body)).toEqual([orders.bob, orders.oldest]);
  });

  it('searches the order id and the customer name, email and customerId', async () => {
    expect(ids((await get(seller, `/orders/?search=${orders.renewal!.slice(-5).toLowerCase()}`)).body)).toEqual([orders.renewal]);
    expect((await get(seller, '/orders/?search=lovelace')).body.count).toBe(3);
    expect((await get(seller, '/orders/?search=MILL.example')).body.count).toBe(3);
    expect((await get(seller, `/orders/?search=${bob.customerId}`)).body.count).toBe(3);
    expect((await get(seller, '/orders/?search=nobody-at-all')).body.count).toBe(0);
    // LIKE wildcards are taken literally.
    expect((await get(seller, '/orders/?search=%25')).body.count).toBe(0);
  });

  it('filters by paid date, both ends included', async () => {
    expect(ids((await get(seller, '/orders/?start_date=2026-03-10&end_date=2026-03-31')).body)).toEqual([
      orders.bob,
      orders.renewal,
    ]);
    expect(ids((await get(seller, '/orders/?end_date=2026-01-10')).body)).toEqual([orders.oldest]);
    expect(ids((await get(seller, '/orders/?start_date=2026-04-01')).body)).toEqual([orders.refunded]);
    expect(ids((await get(seller, '/orders/?start_date=2026-03-31T23:59:59Z&end_date=2026-04-01T00:00:00Z')).body)).toEqual([
      orders.refunded,
      orders.bob,
    ]);
  });

  it('pages by 10 by default', async () => {
    const more = await createCustomer(seller);
    for (let i = 0; i < 6; i++) await insertOrder(seller, more, { paidAt: new Date(`2025-06-0${i + 1}T00:00:00Z`) });
    const first = await get(seller, '/orders/');
    expect(first.body.count).toBe(12);
    expect(first.body.results).toHaveLength(10);
    expect(first.body.next).toMatch(/\/sandbox\/api\/v1\/orders\/\?page=2$/);
    const second = await get(seller, '/orders/?page=2');
    expect(second.body.results).toHaveLength(2);
    expect(ids(second.body)[1]).toBe(orders.failed);
    expect(ids(first.body).filter((id) => ids(second.body).includes(id))).toEqual([]);
    expect(second.body.next).toBeNull();
  });

  it('refuses unknown filter values', async () => {
    const badStatus = await get(seller, '/orders/?status=DONE');
    expect(badStatus.status).toBe(400);
    expect(badStatus.body.detail).toMatch(/status/);
    const badDate = await get(seller, '/orders/?start_date=yesterday');
    expect(badDate.status).toBe(400);
    expect(badDate.body.detail).toMatch(/start_date/);
    expect((await get(seller, '/orders/?end_date=2026-02-30')).status).toBe(400);
    expect((await get(seller, '/orders/?is_renewal=maybe')).status).toBe(400);
  });

  it("keeps each environment's orders to itself", async () => {
    const production = await commerceSeller(server, seller.org, 'production');
    const customer = await createCustomer(production);
    const order = await insertOrder(production, customer);
    const list = await get(production, '/orders/');
    expect(ids(list.body)).toEqual([order.orderId]);
    expect((await get(seller, '/orders/')).body.results.map((o: { id: string }) => o.id)).not.toContain(order.orderId);
    expect((await get(seller, `/orders/${order.orderId}/`)).status).toBe(404);
  });
});
