import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openShop, type Shop } from './commerce-support.js';
import type { TestOrg, TestServer } from './harness.js';

/**
 * Which subscribers are on which version of a plan (decision 0086): GET /subscriptions/versions/
 * counts them per version, and GET /subscriptions/?plan=…&plan_version=… lists them.
 */
let server: TestServer;
let org: TestOrg;
let s: Shop;
let plan: string;
const monthly = (amount: number) => [{ priceType: 'PAID', currency: 'USD', chargeCatalogPrice: [{ charges: [{ chargePeriod: 'MONTHLY', priceData: { amount } }] }] }];

async function subscribe(): Promise<string> {
  const customerId = await s.customer();
  await s.card(customerId);
  const res = await s.call('POST', '/subscriptions/create/', { planIdentifier: plan, chargePeriod: 'MONTHLY', customerId });
  if (res.status !== 201) throw new Error(`subscription: ${res.status} ${res.text}`);
  return res.body.id as string;
}

beforeAll(async () => {
  ({ server, org, s } = await openShop());
  plan = (await s.api.plan(s.product.id, { name: 'Versioned' })).identifier;
  await s.api.prices(plan, monthly(10));
  await s.api.publish(plan);
  await subscribe();
  await subscribe();
  const ended = await subscribe();
  expect((await s.call('POST', `/subscriptions/${ended}/cancel/`, { cancellationType: 'IMMEDIATE' })).status).toBe(200);
  await s.api.prices(plan, monthly(12));
  await s.api.publish(plan);
  await subscribe();
  // A draft third version, with nobody on it.
  await s.api.prices(plan, monthly(14));
});
afterAll(() => server.close());

describe('subscribers per plan version', () => {
  it('counts every version, newest first, as the list shows them', async () => {
    const res = await s.call('GET', `/subscriptions/versions/?plan=${plan}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ plan, versions: [{ version: 3, subscriptions: 0 }, { version: 2, subscriptions: 1 }, { version: 1, subscriptions: 2 }] });
    const withEnded = await s.call('GET', `/subscriptions/versions/?plan=${plan}&status=active,canceled`);
    expect(withEnded.body.versions).toEqual([{ version: 3, subscriptions: 0 }, { version: 2, subscriptions: 1 }, { version: 1, subscriptions: 3 }]);
  });

  it('lists the subscriptions of one version', async () => {
    const first = await s.call('GET', `/subscriptions/?plan=${plan}&plan_version=1`);
    expect(first.status).toBe(200);
    expect(first.body.count).toBe(2);
    expect(first.body.results.map((r: { planVersion: number }) => r.planVersion)).toEqual([1, 1]);
    const second = await s.call('GET', `/subscriptions/?plan=${plan}&plan_version=2`);
    expect(second.body.results.map((r: { planVersion: number }) => r.planVersion)).toEqual([2]);
    expect((await s.call('GET', `/subscriptions/?plan=${plan}&plan_version=3`)).body.count).toBe(0);
  });

  it('refuses what it cannot answer, in words', async () => {
    const noPlan = await s.call('GET', '/subscriptions/?plan_version=1&search=x');
    expect(noPlan.status).toBe(400);
    expect(noPlan.body.detail).toMatch(/plan_version needs plan/);
    expect((await s.call('GET', `/subscriptions/?plan=${plan}&plan_version=0`)).status).toBe(400);
    const unknown = await s.call('GET', '/subscriptions/versions/?plan=no-such-plan');
    expect(unknown.status).toBe(404);
    expect(unknown.body.code).toBe('plan_not_found');
    expect((await s.call('GET', '/subscriptions/versions/')).status).toBe(400);
    const production = await server.request('GET', `/api/v1/subscriptions/versions/?plan=${plan}`, { key: org.production.serverKey });
    expect(production.status).toBe(404);
    const client = await server.request('GET', `/sandbox/api/v1/subscriptions/versions/?plan=${plan}`, { key: org.sandbox.clientKey });
    expect([401, 403]).toContain(client.status);
  });
});
