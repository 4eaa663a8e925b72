/**
 * A version published with updatePricing takes its plan's subscribers over at their next
 * renewal (decision 0113): the period that begins is charged at the new price, the usage
 * of the period that ended at the old one; a version published without it leaves them on
 * theirs (grandfathering). Driven through the API on test clocks.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Shop } from './commerce-support.js';
import { uniqueId, type TestServer } from './harness.js';
import { openPortalWorld, type PortalWorld } from './portal/support.js';

let w: PortalWorld;
let server: TestServer;
let s: Shop;

beforeAll(async () => {
  w = await openPortalWorld();
  ({ server, s } = w);
});
afterAll(() => server.close());

function expectStatus(res: { status: number; text: string }, status: number) {
  if (res.status !== status) throw new Error(`${status} expected: ${res.status} ${res.text}`);
}

let calls: string;
let callsId: string;

/** USD prices of a month: `base` for the plan, `perCall` for each API call used (pay-as-you-go). */
const meteredPrice = (base: number, perCall: number, extra: Record<string, unknown> = {}) => ({
  priceType: 'PAID',
  currency: 'USD',
  ...extra,
  chargeCatalogPrice: [
    { charges: [{ chargePeriod: 'MONTHLY', priceData: { amount: base } }] },
    { feature: calls, paymentType: 'PAY_AS_YOU_GO', priceModel: 'FLAT', charges: [{ chargePeriod: 'MONTHLY', priceData: { amount: perCall } }] },
  ],
});

async function meteredPlan(base: number, perCall: number): Promise<string> {
  const plan = await s.api.plan(s.product.id, { name: uniqueId('Metered') });
  expectStatus(await s.call('POST', `/catalog/plans/${plan.identifier}/features/`, { planEntitlements: [{ feature: callsId, details: { value: 0 } }] }), 201);
  await s.api.prices(plan.identifier, [meteredPrice(base, perCall)]);
  await s.api.publish(plan.identifier);
  return plan.identifier as string;
}

/** A new version of the plan at these prices, published with `options`. */
async function republish(plan: string, prices: unknown[], options: { updatePricing?: boolean }) {
  await s.api.prices(plan, prices);
  expectStatus(await s.call('POST', `/catalog/plans/${plan}/publish/`, options), 200);
}

async function report(customerId: string, value: number) {
  expectStatus(await s.call('POST', '/report/usage/', { customerId, featureId: calls, value, behaviour: 'DELTA' }), 200);
}

type Line = { description: string; amountMinor: number; featureId: string | null };

/** The renewal orders of a subscription, oldest first: their totals and lines. */
async function renewals(subscriptionId: string) {
  const rows = await server.database.db
    .selectFrom('orders')
    .select(['subtotal_minor', 'lines'])
    .where('subscription_id', '=', subscriptionId)
    .where('is_renewal', '=', true)
    .orderBy('seq')
    .execute();
  return rows.map((row) => ({
    subtotal: row.subtotal_minor,
    lines: ((typeof row.lines === 'string' ? JSON.parse(row.lines) : row.lines) as Line[]).map((l) => [l.featureId === null ? 'plan' : 'usage', l.amountMinor]),
  }));
}

async function retrieve(id: string) {
  const res = await s.call('GET', `/subscriptions/${id}/`);
  expectStatus(res, 200);
  return res.body;
}

beforeAll(async () => {
  const feature = await s.api.feature({
    name: 'API calls',
    identifier: uniqueId('calls'),
    featureType: 'METER',
    featureDetails: { featureSubType: 'PRE_AGGREGATED_USAGE', units: { singular: 'call', plural: 'calls' } },
  });
  calls = feature.identifier as string;
  callsId = feature.id as string;
});

describe('updatePricing', () => {
  it('moves subscribers to the new price at their renewal; the usage of the old period keeps its rates', async () => {
    const plan = await meteredPlan(10, 0.01);
    const clockId = await w.testClock('2029-03-01T00:00:00Z');
    const customerId = await w.customer({ clockId });
    const id = await w.subscribe(customerId, plan);
    await report(customerId, 100);

    await republish(plan, [meteredPrice(12, 0.02)], { updatePricing: true });
    expect(await retrieve(id)).toMatchObject({ planVersion: 1 }); // nothing moves before the renewal
    const upcoming = await s.call('GET', `/subscriptions/${id}/upcoming-invoice/`);
    expectStatus(upcoming, 200);
    expect(upcoming.body.lines.map((l: { featureId: string | null; amountUnits: number }) => [l.featureId === null ? 'plan' : 'usage', l.amountUnits])).toEqual([
      ['plan', 1200],
      ['usage', 100],
    ]);

    await w.advance(clockId, '2029-04-01T01:00:00Z');
    expect(await retrieve(id)).toMatchObject({ planVersion: 2, status: 'active' });
    await report(customerId, 100);
    await w.advance(clockId, '2029-05-01T01:00:00Z');
    expect(await renewals(id)).toEqual([
      { subtotal: 1300, lines: [['plan', 1200], ['usage', 100]] }, // 100 calls of March at 0.01
      { subtotal: 1400, lines: [['plan', 1200], ['usage', 200]] }, // 100 calls of April at 0.02
    ]);
  });

  it('leaves subscribers on their version when the new one is published without it (grandfathering)', async () => {
    const plan = await meteredPlan(10, 0.01);
    const clockId = await w.testClock('2029-03-01T00:00:00Z');
    const customerId = await w.customer({ clockId });
    const id = await w.subscribe(customerId, plan);
    await republish(plan, [meteredPrice(12, 0.02)], {});
    await w.advance(clockId, '2029-04-01T01:00:00Z');
    expect(await retrieve(id)).toMatchObject({ planVersion: 1 });
    expect(await renewals(id)).toEqual([{ subtotal: 1000, lines: [['plan', 1000]] }]);
  });

  it('takes the newest version published with updatePricing, and skips one that has no price in the currency', async () => {
    const plan = await meteredPlan(10, 0.01);
    const clockId = await w.testClock('2029-03-01T00:00:00Z');
    const customerId = await w.customer({ clockId });
    const id = await w.subscribe(customerId, plan);
    await republish(plan, [meteredPrice(11, 0.01)], { updatePricing: true }); // version 2
    await republish(plan, [meteredPrice(15, 0.01)], {}); // version 3: grandfathers
    await republish(plan, [{ ...meteredPrice(9, 0.01), currency: 'EUR' }], { updatePricing: true }); // version 4: no USD
    await w.advance(clockId, '2029-04-01T01:00:00Z');
    expect(await retrieve(id)).toMatchObject({ planVersion: 2 });
    expect(await renewals(id)).toEqual([{ subtotal: 1100, lines: [['plan', 1100]] }]);
  });

  it('does not move a subscriber whose period the new price does not sell', async () => {
    const plan = await meteredPlan(10, 0.01);
    const clockId = await w.testClock('2029-03-01T00:00:00Z');
    const customerId = await w.customer({ clockId });
    const id = await w.subscribe(customerId, plan);
    const yearlyOnly = { priceType: 'PAID', currency: 'USD', chargeCatalogPrice: [{ charges: [{ chargePeriod: 'YEARLY', priceData: { amount: 100 } }] }] };
    await republish(plan, [yearlyOnly], { updatePricing: true });
    await w.advance(clockId, '2029-04-01T01:00:00Z');
    expect(await retrieve(id)).toMatchObject({ planVersion: 1, status: 'active' });
    expect(await renewals(id)).toEqual([{ subtotal: 1000, lines: [['plan', 1000]] }]);
  });
});
