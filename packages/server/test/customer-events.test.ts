import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openShop, shop, type Shop } from './commerce-support.js';
import type { TestOrg, TestServer } from './harness.js';
import { signedInMember } from './accounts-support.js';

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

describe("freeing a machine of a customer's key (POST /customers/{customerId}/licenses/{licenseId}/instances/{instanceId}/deactivate/)", () => {
  /** A new customer with a lifetime key active on one machine: the ids the dashboard's list gives. */
  async function keyOnOneMachine() {
    const buyer = await s.customer();
    await s.card(buyer);
    const charge = await s.call('POST', '/charges/', { planIdentifier: s.plans.lifetime, chargePeriod: 'ONE_TIME', customerId: buyer });
    expect(charge.status, charge.text).toBe(201);
    const key = (await s.call('GET', `/orders/${charge.body.orderId}/`)).body.license[0].licenseKey as string;
    const activated = await s.call('POST', '/license/activate/', { license_key: key, customer_id: buyer, instance_name: 'Laptop' });
    expect(activated.status, activated.text).toBe(201);
    const [license] = (await s.call('GET', `/customers/${buyer}/licenses/`)).body.licenses;
    return { buyer, key, licenseId: license.id as string, instanceId: activated.body.instanceId as string };
  }
  const freePath = (buyer: string, licenseId: string, instanceId: string) =>
    `/sandbox/api/v1/customers/${buyer}/licenses/${licenseId}/instances/${instanceId}/deactivate/`;

  it('frees it for a support member, in the audit log; the key is free again, and a second time is 409', async () => {
    const { buyer, key, licenseId, instanceId } = await keyOnOneMachine();
    const support = await signedInMember(server, org, 'support');
    const freed = await support.api('POST', freePath(buyer, licenseId, instanceId));
    expect(freed.status, freed.text).toBe(200);
    expect(freed.body).toEqual({ licenseId, instanceId, deactivatedOn: expect.stringMatching(/Z$/) });
    expect((await s.call('GET', `/customers/${buyer}/licenses/`)).body.licenses[0].instances).toEqual([]);
    const check = await s.call('POST', '/license/validate/', { license_key: key, instance_id: instanceId });
    expect(check.body.code).toBe('INSTANCE_NOT_FOUND');

    const again = await support.api('POST', freePath(buyer, licenseId, instanceId));
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ code: 'instance_already_deactivated', detail: expect.stringMatching(/already freed/) });
    // The public deactivation shares the step, and says so in the reference's shape.
    const publicAgain = await s.call('POST', '/license/deactivate/', { license_key: key, instance_id: instanceId });
    expect(publicAgain.status).toBe(404);
    expect(publicAgain.body.code).toBe('instance_already_deactivated');

    const owner = await signedInMember(server, org, 'owner');
    const log = await owner.api('GET', `/api/v1/audit-log/?actorId=${support.userId}`);
    expect(log.body.results).toEqual([
      expect.objectContaining({
        action: 'license.instance_deactivated',
        resource: 'license',
        resourceId: licenseId,
        environment: 'sandbox',
        before: { customerId: buyer, instanceId, instanceName: 'Laptop', deactivatedOn: null },
        after: { customerId: buyer, instanceId, instanceName: 'Laptop', deactivatedOn: freed.body.deactivatedOn },
      }),
    ]);
  });

  it("answers 404 for another customer's key, an unknown instance, or another environment; 400 for an id that is none", async () => {
    const { buyer, licenseId, instanceId } = await keyOnOneMachine();
    const other = await s.customer();
    const wrong = await s.call('POST', `/customers/${other}/licenses/${licenseId}/instances/${instanceId}/deactivate/`);
    expect(wrong.status).toBe(404);
    expect(wrong.body).toMatchObject({ code: 'license_not_found', detail: expect.any(String) });
    const unknown = await s.call('POST', `/customers/${buyer}/licenses/${licenseId}/instances/${crypto.randomUUID()}/deactivate/`);
    expect(unknown.body.code).toBe('instance_not_found');
    const production = await server.request('POST', `/api/v1/customers/${buyer}/licenses/${licenseId}/instances/${instanceId}/deactivate/`, {
      key: org.production.serverKey,
    });
    expect(production.status).toBe(404);
    const bad = await s.call('POST', `/customers/${buyer}/licenses/not-a-key/instances/${instanceId}/deactivate/`);
    expect(bad.status).toBe(400);
    expect(bad.body.detail).toBeTruthy();
    // Still active: none of these freed it.
    expect((await s.call('GET', `/customers/${buyer}/licenses/`)).body.licenses[0].instances).toHaveLength(1);
  });

  it('refuses a viewer (403), and the machine stays', async () => {
    const { buyer, licenseId, instanceId } = await keyOnOneMachine();
    const viewer = await signedInMember(server, org, 'viewer');
    const refused = await viewer.api('POST', freePath(buyer, licenseId, instanceId));
    expect(refused.status).toBe(403);
    expect(refused.body.detail).toMatch(/viewer role may not change customers/);
    expect((await s.call('GET', `/customers/${buyer}/licenses/`)).body.licenses[0].instances).toHaveLength(1);
  });
});
