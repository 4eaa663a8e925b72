/**
 * Revenue analytics through the API (issue 30, decision 0097): subscriptions sold, converted
 * from a trial, upgraded and cancelled on a test clock appear in GET /analytics/mrr/ as the
 * movements of the months they happened in on the clock, with the figures of
 * docs/analytics.md; the end of a discount is an expansion on the day of the renewal that used
 * it up; the kept movements agree with a rebuild from the terms log, and the MRR at the end
 * agrees with Home's.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AnalyticsService } from '../src/modules/analytics/service.js';
import { ManualClock } from '../src/lib/clock.js';
import { CARDS, shop, untilClockReady, type Shop } from './commerce-support.js';
import { environmentIdOf, startTestServer, uniqueId, type TestOrg, type TestServer } from './harness.js';
import { csrfOf, getPage, payWith, postForm } from './checkout/support.js';

let server: TestServer;
let org: TestOrg;
let s: Shop;
let clockId: string;
let environmentId: string;

beforeAll(async () => {
  server = await startTestServer();
  org = await server.createOrg();
  s = await shop(server, org.sandbox.serverKey);
  environmentId = await environmentIdOf(server, org.organizationId, 'sandbox');
  const clock = await s.call('POST', '/test-clocks/', { name: uniqueId('year'), frozenTime: '2026-01-01T10:00:00Z' });
  expect(clock.status, clock.text).toBe(201);
  clockId = clock.body.id;
});
afterAll(() => server.close());

async function subscribed(planIdentifier: string): Promise<string> {
  const customerId = await s.customer({ testClockId: clockId });
  await s.card(customerId, CARDS.ok);
  const res = await s.call('POST', '/subscriptions/create/', { planIdentifier, chargePeriod: 'MONTHLY', customerId });
  expect(res.status, res.text).toBe(201);
  return res.body.id as string;
}

async function advance(frozenTime: string): Promise<void> {
  const res = await s.call('POST', `/test-clocks/${clockId}/advance/`, { frozenTime });
  expect(res.status, res.text).toBe(200);
  expect(await untilClockReady(server, s, clockId)).toMatchObject({ status: 'ready', failure: null });
}

const series = async (query: string) => {
  const res = await s.call('GET', `/analytics/mrr/${query}`);
  expect(res.status, res.text).toBe(200);
  return res.body;
};

describe('GET /analytics/mrr/', () => {
  it('shows a simulated January and February as the months they happened in', async () => {
    // January 1: basic at $10.00 and pro at $20.00; a $30.00 trial that converts on January 15.
    const basic = await subscribed(s.plans.basic);
    const pro = await subscribed(s.plans.pro);
    await subscribed(s.plans.trial);
    await advance('2026-02-10T10:00:00Z');
    // February 10: basic upgrades to pro (+$10.00), pro is cancelled at once (-$20.00).
    const upgraded = await s.call('POST', `/subscriptions/${basic}/update/`, { planIdentifier: s.plans.pro, chargePeriod: 'MONTHLY' });
    expect(upgraded.status, upgraded.text).toBe(200);
    const cancelled = await s.call('POST', `/subscriptions/${pro}/cancel/`, { cancellationType: 'IMMEDIATE' });
    expect(cancelled.status, cancelled.text).toBe(200);

    const body = await series('?start=2026-01-01&end=2026-02-28&interval=month');
    expect(body).toMatchObject({ timeZone: 'UTC', interval: 'month', start: '2026-01-01', end: '2026-03-01' });
    expect(body.currencies).toHaveLength(1);
    const [january, february] = body.currencies[0].periods;
    expect(january).toMatchObject({
      period: '2026-01',
      mrrStartUnits: 0,
      mrrEndUnits: 6000,
      arrEndUnits: 72_000,
      movements: { newUnits: 6000, expansionUnits: 0, reactivationUnits: 0, contractionUnits: 0, churnedUnits: 0 },
      customers: { start: 0, end: 3, new: 3, reactivated: 0, churned: 0 },
      customerChurnRateBp: null,
      arpuUnits: 2000,
    });
    expect(february).toMatchObject({
      period: '2026-02',
      mrrStartUnits: 6000,
      mrrEndUnits: 5000,
      movements: { newUnits: 0, expansionUnits: 1000, reactivationUnits: 0, contractionUnits: 0, churnedUnits: -2000 },
      customers: { start: 3, end: 2, new: 0, reactivated: 0, churned: 1 },
      customerChurnRateBp: 3333,
      revenueChurnRateBp: 3333,
      netRevenueRetentionBp: 8333,
      arpuUnits: 2500,
      lifetimeValueUnits: 7500,
    });
  });

  it('places the trial on the day it became paid, by day', async () => {
    const body = await series('?start=2026-01-01&end=2026-01-31&interval=day');
    const days = body.currencies[0].periods as { period: string; movements: { newUnits: number } }[];
    const gained = days.filter((d) => d.movements.newUnits !== 0).map((d) => [d.period, d.movements.newUnits]);
    expect(gained).toEqual([
      ['2026-01-01', 3000],
      ['2026-01-15', 3000],
    ]);
  });

  it('counts the end of a discount as expansion, on the day its last discounted renewal began', async () => {
    const code = uniqueId('HALF').toUpperCase().replace(/[^A-Z0-9]/g, '');
    const made = await s.call('POST', '/discounts/', { name: 'Half off twice', code, discountType: 'PERCENTAGE', percentOff: 50, duration: 'REPEATING', durationInCycles: 2 });
    expect(made.status, made.text).toBe(201);
    const clock = await s.call('POST', '/test-clocks/', { name: uniqueId('discount'), frozenTime: '2025-05-10T00:00:00Z' });
    const customerId = await s.customer({ testClockId: clock.body.id });
    const session = await s.call('POST', '/checkout/', { planIdentifier: s.plans.basic, chargePeriod: 'MONTHLY', customerId, successUrl: 'https://shop.example/thanks', discountCode: code });
    expect(session.status, session.text).toBe(201);
    const page = await getPage(session.body.checkoutUrl);
    expect((await postForm(session.body.checkoutUrl, payWith(csrfOf(page.text), CARDS.ok, { country: 'US' }))).status).toBe(303);
    for (const frozenTime of ['2025-06-10T01:00:00Z', '2025-07-10T01:00:00Z']) {
      expect((await s.call('POST', `/test-clocks/${clock.body.id}/advance/`, { frozenTime })).status).toBe(200);
      expect(await untilClockReady(server, s, clock.body.id)).toMatchObject({ status: 'ready', failure: null });
    }
    // $5.00 a month while a discounted renewal is left; the June renewal takes the last one: $10.00 from then on.
    const body = await series('?start=2025-05-01&end=2025-07-31&interval=day');
    const moved = body.currencies[0].periods
      .filter((d: { movements: Record<string, number> }) => Object.values(d.movements).some((n) => n !== 0))
      .map((d: { period: string; movements: { newUnits: number; expansionUnits: number } }) => [d.period, d.movements.newUnits, d.movements.expansionUnits]);
    expect(moved).toEqual([
      ['2025-05-10', 500, 0],
      ['2025-06-10', 0, 500],
    ]);
  });

  it("agrees with Home's MRR and with a rebuild from the log", async () => {
    const home = await s.call('GET', '/overview/');
    expect(home.body.mrr).toEqual([{ currency: 'USD', amountUnits: 6000, subscriptions: 3 }]);
    const report = await new AnalyticsService(server.database.db, new ManualClock(new Date())).rebuild({ environmentId }, false);
    expect(report).toMatchObject({ differences: [], applied: false });
    expect(report.kept).toBeGreaterThanOrEqual(7);
  });

  it('refuses a range it cannot answer, in words', async () => {
    for (const [query, words] of [
      ['?start=2026-02-30', 'calendar date'],
      ['?start=2026-03-01&end=2026-02-01', 'before start'],
      ['?start=2020-01-01&end=2026-01-01&interval=day', 'at most 1000'],
      ['?interval=year', 'interval'],
    ] as const) {
      const res = await s.call('GET', `/analytics/mrr/${query}`);
      expect(res.status, query).toBe(400);
      expect(res.body.detail).toContain(words);
    }
  });
});
