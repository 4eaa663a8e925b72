import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../src/lib/clock.js';
import { shop } from './commerce-support.js';
import { startTestServer, type TestOrg, type TestServer } from './harness.js';

const START = new Date('2026-01-01T00:00:00Z');
const DAY = 86_400_000;
const clock = new ManualClock(START);
let server: TestServer;
let org: TestOrg;
let s: Awaited<ReturnType<typeof shop>>;

beforeAll(async () => {
  server = await startTestServer({ clock });
  org = await server.createOrg();
  s = await shop(server, org.sandbox.serverKey);
});
afterAll(() => server.close());
beforeEach(() => clock.set(START));

const subscribe = async (customerId: string, planIdentifier: string) =>
  (await s.call('POST', '/subscriptions/create/', { planIdentifier, chargePeriod: 'MONTHLY', customerId })).body.id as string;
const preview = (id: string, body: Record<string, unknown>) => s.call('POST', `/subscriptions/${id}/update/preview/`, body);
const credit = async (customerId: string) =>
  (await server.database.db.selectFrom('customers').select('credit_minor').where('customer_id', '=', customerId).executeTakeFirstOrThrow()).credit_minor;
const ordersOf = (subscriptionId: string) =>
  server.database.db.selectFrom('orders').select(['total_minor']).where('subscription_id', '=', subscriptionId).execute();

describe('previewing a change of plan (POST /subscriptions/{id}/update/preview/)', () => {
  it('answers what the change then charges, to the cent, and records nothing', async () => {
    const customerId = await s.customer();
    await s.card(customerId);
    const first = await subscribe(customerId, s.plans.basic);
    clock.advance(15.5 * DAY);
    const body = { planIdentifier: s.plans.pro, chargePeriod: 'MONTHLY' };
    const seen = await preview(first, body);
    expect(seen.status).toBe(200);
    // Pro for the rest of January (10.00), paid by Basic's unused half (5.00) and 5.00 on the card.
    expect(seen.body).toMatchObject({
      subscriptionId: first,
      planIdentifier: s.plans.pro,
      currency: 'USD',
      periodEnd: '2026-02-01T00:00:00.000Z',
      amountTotalUnits: 1_000,
      unusedCreditUnits: 500,
      creditAppliedUnits: 500,
      amountDueNowUnits: 500,
      amountDueNow: '5.00',
    });
    expect(seen.body.lines.length).toBeGreaterThan(0);
    // Nothing changed: the subscription, the credit, the orders, the events.
    expect((await s.call('GET', `/subscriptions/${first}/`)).body.status).toBe('active');
    expect(await credit(customerId)).toBe(0);
    expect((await ordersOf(first)).map((o) => o.total_minor)).toEqual([1_000]);
    const changed = await s.call('POST', `/subscriptions/${first}/update/`, body);
    expect(changed.status).toBe(200);
    expect((await ordersOf(changed.body.subscriptionId)).map((o) => o.total_minor)).toEqual([seen.body.amountDueNowUnits]);
  });

  it('shows a downgrade as credit kept for later, with nothing to pay', async () => {
    const customerId = await s.customer();
    await s.card(customerId);
    const first = await subscribe(customerId, s.plans.pro);
    clock.advance(15.5 * DAY);
    const seen = (await preview(first, { planIdentifier: s.plans.basic, chargePeriod: 'MONTHLY' })).body;
    expect(seen).toMatchObject({ amountTotalUnits: 500, unusedCreditUnits: 1_000, creditAppliedUnits: 500, amountDueNowUnits: 0, amountDueNow: '0.00' });
    expect(await credit(customerId)).toBe(0);
  });

  it('needs no card to preview, and refuses what the change itself refuses', async () => {
    const customerId = await s.customer();
    const free = await subscribe(customerId, s.plans.free);
    const seen = await preview(free, { planIdentifier: s.plans.pro, chargePeriod: 'MONTHLY' });
    expect(seen.status).toBe(200);
    expect(seen.body.amountDueNowUnits).toBe(2_000);
    const unknownPlan = await preview(free, { planIdentifier: 'no-such-plan', chargePeriod: 'MONTHLY' });
    expect(unknownPlan.status).toBeGreaterThanOrEqual(400);
    expect(unknownPlan.status).toBeLessThan(500);
    expect(unknownPlan.body.detail).toEqual(expect.any(String));
    const missing = await preview('00000000-0000-4000-8000-000000000000', { planIdentifier: s.plans.pro, chargePeriod: 'MONTHLY' });
    expect(missing.status).toBe(404);
    const otherOrg = await server.createOrg();
    const foreign = await server.request('POST', `/sandbox/api/v1/subscriptions/${free}/update/preview/`, {
      key: otherOrg.sandbox.serverKey,
      body: { planIdentifier: s.plans.pro, chargePeriod: 'MONTHLY' },
    });
    expect(foreign.status).toBe(404);
  });

  it('is not recorded in the audit log, unlike the change', async () => {
    const customerId = await s.customer();
    await s.card(customerId);
    const first = await subscribe(customerId, s.plans.basic);
    expect((await preview(first, { planIdentifier: s.plans.pro, chargePeriod: 'MONTHLY' })).status).toBe(200);
    const log = await s.call('GET', `/audit-log/?resource=${first}`);
    expect(log.status).toBe(200);
    expect(log.body.results.map((e: { action: string }) => e.action)).not.toContainEqual(expect.stringContaining('preview'));
  });
});
