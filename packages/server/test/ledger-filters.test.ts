import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { shop } from './commerce-support.js';
import { startTestServer, type TestOrg, type TestServer } from './harness.js';

/**
 * The customer_id filter (ours) of the ledger lists: a seller who looks up one
 * customer's orders, invoices, transactions or refunds gets only that customer's.
 */
let server: TestServer;
let org: TestOrg;
let s: Awaited<ReturnType<typeof shop>>;
const buyers: { customerId: string; uuid: string; orderIds: string[] }[] = [];

const LISTS = ['/orders/', '/invoices/', '/transaction/', '/refunds/'] as const;
/** Rows each purchase leaves in a list: a transaction list holds its CHARGE and its REFUND. */
const rowsPerPurchase = (list: (typeof LISTS)[number]) => (list === '/transaction/' ? 2 : 1);

beforeAll(async () => {
  server = await startTestServer();
  org = await server.createOrg();
  s = await shop(server, org.sandbox.serverKey);
  for (const purchases of [2, 1]) {
    const customerId = await s.customer();
    await s.card(customerId);
    const orderIds: string[] = [];
    for (let i = 0; i < purchases; i++) {
      const charged = await s.call('POST', '/charges/', { planIdentifier: s.plans.lifetime, chargePeriod: 'ONE_TIME', customerId });
      expect(charged.status, charged.text).toBe(201);
      const orders = await s.call('GET', `/orders/?search=${customerId}`);
      const orderId = (orders.body.results as { id: string }[]).find((o) => !orderIds.includes(o.id))!.id;
      orderIds.push(orderId);
      const refunded = await s.call('POST', '/refunds/', { orderId, amountUnits: 100 });
      expect(refunded.status, refunded.text).toBe(200);
    }
    const customer = await s.call('GET', `/customers/${customerId}/`);
    buyers.push({ customerId, uuid: customer.body.id, orderIds });
  }
});
afterAll(() => server.close());

/** The customerId each listed row belongs to, whatever the list. */
function ownerOf(row: any): string {
  return row.customer?.customerId ?? row.customerId ?? row.order?.customer?.customerId;
}

describe('customer_id on the ledger lists', () => {
  it.each(LISTS)('%s lists only the customer given, by customerId or UUID, in either casing', async (list) => {
    const [many, one] = buyers as [(typeof buyers)[0], (typeof buyers)[0]];
    const all = await s.call('GET', list);
    expect(all.status).toBe(200);
    expect(new Set(all.body.results.map(ownerOf))).toEqual(new Set([many.customerId, one.customerId]));

    for (const query of [`customer_id=${many.customerId}`, `customerId=${many.customerId}`, `customer_id=${many.uuid}`]) {
      const res = await s.call('GET', `${list}?${query}`);
      expect(res.status, query).toBe(200);
      expect(res.body.count, query).toBe(2 * rowsPerPurchase(list));
      expect(new Set(res.body.results.map(ownerOf)), query).toEqual(new Set([many.customerId]));
    }
    const other = await s.call('GET', `${list}?customer_id=${one.customerId}`);
    expect(other.body.count).toBe(rowsPerPurchase(list));
    expect(new Set(other.body.results.map(ownerOf))).toEqual(new Set([one.customerId]));
  });

  it.each(LISTS)('%s counts and pages within the filter, and keeps it in the next link', async (list) => {
    const [many] = buyers as [(typeof buyers)[0]];
    const pageSize = rowsPerPurchase(list);
    const first = await s.call('GET', `${list}?customer_id=${many.customerId}&page_size=${pageSize}`);
    expect(first.body.count).toBe(2 * pageSize);
    expect(first.body.results).toHaveLength(pageSize);
    expect(first.body.next).toContain(`customer_id=${many.customerId}`);
    const second = await server.request('GET', new URL(first.body.next).pathname + new URL(first.body.next).search, {
      key: org.sandbox.serverKey,
    });
    expect(second.body.results.map(ownerOf)).toEqual(Array(pageSize).fill(many.customerId));
    const firstIds = first.body.results.map((row: { id: string }) => row.id);
    for (const row of second.body.results) expect(firstIds).not.toContain(row.id);
    expect(second.body.next).toBeNull();
  });

  it.each(LISTS)('%s: an unknown customer gives an empty list; an empty value is refused, never ignored', async (list) => {
    const unknown = await s.call('GET', `${list}?customer_id=nobody-here`);
    expect(unknown.status).toBe(200);
    expect(unknown.body).toMatchObject({ count: 0, results: [] });
    const blank = await s.call('GET', `${list}?customer_id=%20`);
    expect(blank.status).toBe(200);
    expect(blank.body.count).toBe(0);
    const empty = await s.call('GET', `${list}?customer_id=`);
    expect(empty.status).toBe(400);
    expect(empty.body.detail).toMatch(/customer_id/);
  });

  it('combines with the reference filters, and a known filter with a bad value is a 400', async () => {
    const [many] = buyers as [(typeof buyers)[0]];
    const partial = await s.call('GET', `/orders/?customer_id=${many.customerId}&status=PARTIAL_REFUND&billing_type=ONE_TIME&is_renewal=false`);
    expect(partial.body.count).toBe(2);
    const none = await s.call('GET', `/orders/?customer_id=${many.customerId}&status=REFUNDED`);
    expect(none.body.count).toBe(0);
    for (const bad of ['status=PAID_ISH', 'billing_type=MONTHLY', 'is_renewal=maybe', 'start_date=yesterday']) {
      const res = await s.call('GET', `/orders/?customer_id=${many.customerId}&${bad}`);
      expect(res.status, bad).toBe(400);
      expect(res.body.detail, bad).toEqual(expect.any(String));
    }
    // Given twice, under both names, a filter is refused rather than one value silently winning.
    const twice = await s.call('GET', `/orders/?customer_id=${many.customerId}&customerId=someone-else`);
    expect(twice.status).toBe(400);
    expect(twice.body.detail).toMatch(/customer_id/);
    const ignored = await s.call('GET', `/orders/?customer_id=${many.customerId}&colour=blue`);
    expect(ignored.body.count).toBe(2);
  });

  it("is scoped to the environment: production's customer of the same customerId is another customer", async () => {
    const [many] = buyers as [(typeof buyers)[0]];
    const production = await server.request('POST', '/api/v1/customers/', {
      key: org.production.serverKey,
      body: { customerId: many.customerId, email: 'same@example.com' },
    });
    expect(production.status).toBe(201);
    for (const list of LISTS) {
      const res = await server.request('GET', `/api/v1${list}?customer_id=${many.customerId}`, { key: org.production.serverKey });
      expect(res.body.count, list).toBe(0);
    }
  });
});
