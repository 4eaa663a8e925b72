import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openShop, shop, type Shop } from './commerce-support.js';
import type { TestOrg, TestServer } from './harness.js';

/** GET /api/v1/customers/{customerId}/events/ (decision 0085): a customer's timeline, through HTTP. */
let server: TestServer;
let org: TestOrg;
let s: Shop;
let customerId: string;
let orderId: string;
let subscriptionId: string;

const timeline = (id: string, query = '', key = org.sandbox.serverKey, prefix = '/sandbox') =>
  server.request('GET', `${prefix}/api/v1/customers/${encodeURIComponent(id)}/events/${query}`, { key });

beforeAll(async () => {
  ({ server, org, s } = await openShop());
  customerId = await s.customer();
  await s.card(customerId);
  const charge = await s.call('POST', '/charges/', { planIdentifier: s.plans.lifetime, chargePeriod: 'ONE_TIME', customerId });
  if (charge.status !== 201) throw new Error(`charge: ${charge.status} ${charge.text}`);
  orderId = charge.body.orderId;
  const sub = await s.call('POST', '/subscriptions/create/', { planIdentifier: s.plans.basic, chargePeriod: 'MONTHLY', customerId });
  if (sub.status !== 201) throw new Error(`subscription: ${sub.status} ${sub.text}`);
  subscriptionId = sub.body.id;
  // Another customer's purchase, in between: none of its events is this customer's.
  const other = await s.customer();
  await s.card(other);
  await s.call('POST', '/charges/', { planIdentifier: s.plans.lifetime, chargePeriod: 'ONE_TIME', customerId: other });
  await s.call('PATCH', `/customers/${customerId}/`, { name: 'Renamed' });
});
afterAll(() => server.close());

describe("a customer's events", () => {
  it("lists the events about the customer, newest first, and no one else's", async () => {
    const res = await timeline(customerId, '?page_size=100');
    expect(res.status).toBe(200);
    const types = (res.body.results as Array<{ type: string }>).map((e) => e.type);
    expect(types[0]).toBe('customer.updated');
    expect(types[types.length - 1]).toBe('customer.created');
    expect(types).toEqual(expect.arrayContaining(['payment_method.created', 'order.created', 'subscription.created', 'invoice.paid']));
    expect(res.body.count).toBe(types.length);
    const objects = (res.body.results as Array<{ objectType: string; objectId: string }>).map((e) => `${e.objectType}:${e.objectId}`);
    expect(objects).toContain(`order:${orderId}`);
    expect(objects).toContain(`subscription:${subscriptionId}`);
    const times = (res.body.results as Array<{ createdOn: string }>).map((e) => e.createdOn);
    expect([...times].sort().reverse()).toEqual(times);
    // Every event of the list is about this customer: its orders are its own.
    const orderIds = (res.body.results as Array<{ objectType: string; objectId: string }>).filter((e) => e.objectType === 'order').map((e) => e.objectId);
    expect(new Set(orderIds).size).toBeGreaterThan(0);
    for (const id of orderIds) expect((await s.call('GET', `/orders/${id}/`)).body.customer.customerId).toBe(customerId);
  });

  it('pages with the usual envelope', async () => {
    const all = await timeline(customerId, '?page_size=100');
    const first = await timeline(customerId, '?page_size=2');
    expect(first.body.count).toBe(all.body.count);
    expect(first.body.results).toEqual(all.body.results.slice(0, 2));
    expect(first.body.next).toMatch(/page=2/);
    const second = await timeline(customerId, '?page_size=2&page=2');
    expect(second.body.results).toEqual(all.body.results.slice(2, 4));
  });

  it('answers 404 for a customerId unknown in the environment, and 400 for a bad page', async () => {
    expect((await timeline('nobody-here')).status).toBe(404);
    const production = await shop(server, org.production.serverKey, '');
    expect(production).toBeDefined();
    const elsewhere = await timeline(customerId, '', org.production.serverKey, '');
    expect(elsewhere.status).toBe(404);
    const bad = await timeline(customerId, '?page=0');
    expect(bad.status).toBe(400);
    expect(bad.body.detail).toBeTruthy();
  });

  it('keeps the timeline of an archived customer', async () => {
    const buyer = await s.customer();
    expect((await s.call('DELETE', `/customers/${buyer}/`)).status).toBe(204);
    const res = await timeline(buyer);
    expect(res.status).toBe(200);
    expect(res.body.results.map((e: { type: string }) => e.type)).toContain('customer.created');
  });
});

describe("a customer's license keys (GET /customers/{customerId}/licenses/)", () => {
  it('lists its keys with the machines each is active on now, and no one else\'s', async () => {
    const order = await s.call('GET', `/orders/${orderId}/`);
    const key = order.body.license[0].licenseKey as string;
    const activate = (name: string) => s.call('POST', '/license/activate/', { license_key: key, customer_id: customerId, instance_name: name });
    expect((await activate('Laptop')).status).toBe(201);
    const desktop = await activate('Desktop');
    expect(desktop.status).toBe(201);
    const instanceId = desktop.body.instanceId as string;
    expect((await s.call('POST', '/license/deactivate/', { license_key: key, instance_id: instanceId })).status).toBe(200);

    const res = await s.call('GET', `/customers/${customerId}/licenses/`);
    expect(res.status).toBe(200);
    expect(res.body.licenses).toHaveLength(1);
    expect(res.body.licenses[0]).toMatchObject({ licenseKey: key, enabled: true, activationLimit: 3, expiresOn: null });
    expect(res.body.licenses[0].instances.map((i: { name: string }) => i.name)).toEqual(['Laptop']);
    expect(res.body.licenses[0].instances[0].activatedOn).toMatch(/Z$/);
    expect((await s.call('GET', '/customers/nobody-here/licenses/')).status).toBe(404);
    const other = await s.customer();
    expect((await s.call('GET', `/customers/${other}/licenses/`)).body).toEqual({ licenses: [] });
  });
});
