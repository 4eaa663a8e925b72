/**
 * Attaching an existing customer to a test clock, and what an advance billed on it
 * (issue 29, decision 0087): Billow extensions, sandbox only, with their rules, the role
 * check and the audit log.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signedInMember } from './accounts-support.js';
import { CARDS, openShop, untilClockReady, type Shop } from './commerce-support.js';
import { uniqueId, type TestOrg, type TestServer } from './harness.js';

let server: TestServer;
let org: TestOrg;
let s: Shop;

beforeAll(async () => {
  ({ server, org, s } = await openShop());
});
afterAll(async () => {
  await server.close();
});

async function clockAt(frozenTime: string): Promise<string> {
  const res = await s.call('POST', '/test-clocks/', { name: uniqueId('attach'), frozenTime });
  expect(res.status, res.text).toBe(201);
  return res.body.id;
}

const untilReady = (clockId: string) => untilClockReady(server, s, clockId);

describe('attaching an existing customer to a test clock', () => {
  it('moves a customer without subscriptions onto the clock, whose advance then bills them at its times', async () => {
    const clockId = await clockAt('2036-01-01T00:00:00Z');
    const customerId = await s.customer();
    await s.card(customerId, CARDS.ok);
    const attached = await s.call('POST', `/test-clocks/${clockId}/customers/`, { customerId });
    expect(attached.status, attached.text).toBe(200);
    expect(attached.body).toMatchObject({ customerId, testClockId: clockId });
    expect((await s.call('GET', `/customers/${customerId}/`)).body.testClockId).toBe(clockId);
    expect((await s.call('GET', `/test-clocks/${clockId}/`)).body.customerCount).toBe(1);
    // Once more changes nothing.
    expect((await s.call('POST', `/test-clocks/${clockId}/customers/`, { customerId })).status).toBe(200);

    const sub = await s.call('POST', '/subscriptions/create/', { planIdentifier: s.plans.basic, chargePeriod: 'MONTHLY', customerId });
    expect(sub.status, sub.text).toBe(201);
    const before = await s.call('GET', `/test-clocks/${clockId}/invoices/`);
    expect(before.status, before.text).toBe(200);
    expect(before.body.count).toBe(1);
    expect(before.body.results[0]).toMatchObject({ customerId, status: 'PAID', issuedOn: '2036-01-01T00:00:00.000Z', currency: 'USD', totalUnits: 1000 });

    expect((await s.call('POST', `/test-clocks/${clockId}/advance/`, { frozenTime: '2036-02-01T12:00:00Z' })).status).toBe(200);
    expect(await untilReady(clockId)).toMatchObject({ status: 'ready' });
    const after = await s.call('GET', `/test-clocks/${clockId}/invoices/?page_size=1`);
    expect(after.body.count).toBe(2);
    expect(after.body.next).toContain('page=2');
    expect(after.body.results[0]).toMatchObject({ customerId, subscriptionId: sub.body.id, status: 'PAID', periodStart: '2036-02-01T00:00:00.000Z', issuedOn: '2036-02-01T00:00:00.000Z' });
  });

  it('refuses a customer with a subscription, one of another clock, a clock before the customer, an unknown clock or customer', async () => {
    const clockId = await clockAt('2036-01-01T00:00:00Z');
    const subscribed = await s.customer();
    await s.card(subscribed, CARDS.ok);
    expect((await s.call('POST', '/subscriptions/create/', { planIdentifier: s.plans.basic, chargePeriod: 'MONTHLY', customerId: subscribed })).status).toBe(201);
    const withSub = await s.call('POST', `/test-clocks/${clockId}/customers/`, { customerId: subscribed });
    expect([withSub.status, withSub.body.code]).toEqual([409, 'customer_has_subscriptions']);
    expect(withSub.body.detail).toMatch(/without any subscription/);

    const other = await clockAt('2036-01-01T00:00:00Z');
    const onOther = await s.customer({ testClockId: other });
    const moved = await s.call('POST', `/test-clocks/${clockId}/customers/`, { customerId: onOther });
    expect([moved.status, moved.body.code]).toEqual([409, 'customer_on_test_clock']);

    const past = await clockAt('2020-01-01T00:00:00Z');
    const back = await s.call('POST', `/test-clocks/${past}/customers/`, { customerId: await s.customer() });
    expect([back.status, back.body.code]).toEqual([409, 'test_clock_before_customer']);

    expect((await s.call('POST', '/test-clocks/tc_missing/customers/', { customerId: subscribed })).status).toBe(404);
    const nobody = await s.call('POST', `/test-clocks/${clockId}/customers/`, { customerId: uniqueId('nobody') });
    expect([nobody.status, nobody.body.code]).toEqual([404, 'customer_not_found']);
    expect((await s.call('POST', `/test-clocks/${clockId}/customers/`, {})).status).toBe(400);
    expect((await s.call('GET', `/test-clocks/${clockId}/`)).body.customerCount).toBe(0);
    expect((await s.call('GET', '/test-clocks/tc_missing/invoices/')).status).toBe(404);
  });

  it('is for the sandbox only, for roles that may change test clocks, and is in the audit log', async () => {
    const production = await server.request('POST', '/api/v1/test-clocks/tc_x/customers/', { key: org.production.serverKey, body: { customerId: 'x' } });
    expect([production.status, production.body.code]).toEqual([403, 'test_clocks_sandbox_only']);
    expect((await server.request('GET', '/api/v1/test-clocks/tc_x/invoices/', { key: org.production.serverKey })).status).toBe(403);

    const clockId = await clockAt('2036-01-01T00:00:00Z');
    const customerId = await s.customer();
    const support = await signedInMember(server, org, 'support');
    const refused = await support.api('POST', `/sandbox/api/v1/test-clocks/${clockId}/customers/`, { customerId });
    expect(refused.status, refused.text).toBe(403);
    expect((await support.api('GET', `/sandbox/api/v1/test-clocks/${clockId}/invoices/`)).status).toBe(200);

    const developer = await signedInMember(server, org, 'developer');
    expect((await developer.api('POST', `/sandbox/api/v1/test-clocks/${clockId}/customers/`, { customerId })).status).toBe(200);
    const log = await s.call('GET', `/audit-log/?action=test_clock.customer_attached&resource=${clockId}`);
    expect(log.status, log.text).toBe(200);
    expect(log.body.results).toHaveLength(1);
    expect(log.body.results[0]).toMatchObject({ actorType: 'user', actorId: developer.userId, resource: 'test_clock', resourceId: clockId, after: { customerId, testClockId: clockId } });
  });
});
