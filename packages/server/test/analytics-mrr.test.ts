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
import { signedInMember } from './accounts-support.js';

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

describe('GET /analytics/mrr/movements/', () => {
  const movements = async (query: string) => {
    const res = await s.call('GET', `/analytics/mrr/movements/${query}`);
    expect(res.status, res.text).toBe(200);
    return res.body;
  };

  it('lists the customers behind a month, newest first, each rounded once', async () => {
    const february = await movements('?start=2026-02-01&end=2026-02-28');
    expect(february.count).toBe(2);
    const byKind = Object.fromEntries(february.results.map((m: { kind: string }) => [m.kind, m]));
    expect(byKind.expansion).toMatchObject({ currency: 'USD', amountUnits: 1000, customerMrrAfterUnits: 2000, day: '2026-02-10' });
    expect(byKind.churned).toMatchObject({ amountUnits: -2000, customerMrrAfterUnits: 0, day: '2026-02-10' });
    expect(byKind.churned.customer).toMatchObject({ name: 'Buyer', email: `${byKind.churned.customer.customerId}@example.com` });
    const times = february.results.map((m: { at: string }) => m.at);
    expect(times).toEqual([...times].sort().reverse());

    const january = await movements('?start=2026-01-01&end=2026-01-31&kind=new&currency=USD');
    expect(january.results.map((m: { amountUnits: number; day: string }) => [m.day, m.amountUnits])).toEqual([
      ['2026-01-15', 3000],
      ['2026-01-01', expect.any(Number)],
      ['2026-01-01', expect.any(Number)],
    ]);
    const total = january.results.reduce((sum: number, m: { amountUnits: number }) => sum + m.amountUnits, 0);
    expect(total).toBe(6000);
    expect((await movements('?start=2026-01-01&end=2026-01-31&kind=churned')).count).toBe(0);
    expect((await movements('?start=2026-01-01&end=2026-01-31&currency=EUR')).count).toBe(0);
  });

  it('pages like every list', async () => {
    const first = await movements('?start=2026-01-01&end=2026-02-28&page_size=2');
    expect(first).toMatchObject({ count: 5, previous: null });
    expect(first.results).toHaveLength(2);
    expect(first.next).toContain('page=2');
    const last = await movements('?start=2026-01-01&end=2026-02-28&page_size=2&page=3');
    expect(last.results).toHaveLength(1);
    expect(last.next).toBeNull();
  });

  it('answers CSV with a header row and minor units, for the list and the series', async () => {
    const list = await s.call('GET', '/analytics/mrr/movements/?start=2026-02-01&end=2026-02-28&kind=churned&format=csv');
    expect(list.status, list.text).toBe(200);
    expect(list.headers.get('content-type')).toContain('text/csv');
    const rows = list.text.trim().split('\r\n');
    expect(rows[0]).toBe('day,at,kind,currency,amount_units,customer_mrr_after_units,customer_id,customer_name,customer_email,subscription_id');
    expect(rows).toHaveLength(2);
    expect(rows[1]).toMatch(/^2026-02-10,2026-02-10T[\d:.]+Z,churned,USD,-2000,0,buyer/);

    const series = await s.call('GET', '/analytics/mrr/?start=2026-01-01&end=2026-02-28&interval=month', undefined, { accept: 'text/csv' });
    expect(series.status, series.text).toBe(200);
    const lines = series.text.trim().split('\r\n');
    expect(lines[0]).toMatch(/^currency,period,start,end,mrr_start_units,mrr_end_units,arr_end_units,new_units,/);
    // The discounted customer of 2025 pays $10.00 all along; a rate without a denominator would be an empty cell.
    expect(lines.slice(1)).toEqual([
      'USD,2026-01,2026-01-01,2026-02-01,1000,7000,84000,6000,0,0,0,0,1,4,3,0,0,0,0,10000,1750,',
      'USD,2026-02,2026-02-01,2026-03-01,7000,6000,72000,0,1000,0,0,-2000,4,3,0,0,1,2500,2857,8571,2000,8000',
    ]);
  });

  it('is read by every role, a viewer too', async () => {
    const viewer = await signedInMember(server, org, 'viewer');
    const res = await viewer.api('GET', '/sandbox/api/v1/analytics/mrr/movements/?start=2026-02-01&end=2026-02-28');
    expect(res.status, res.text).toBe(200);
    expect(res.body.count).toBe(2);
  });

  it('refuses a drill-down it cannot answer, in words', async () => {
    for (const [query, words] of [
      ['?start=2026-13-01', 'calendar date'],
      ['?start=2026-03-01&end=2026-02-01', 'before start'],
      ['?kind=upgrade', 'kind'],
      ['?currency=usd', 'currency'],
      ['?format=xlsx', 'format'],
    ] as const) {
      const res = await s.call('GET', `/analytics/mrr/movements/${query}`);
      expect(res.status, query).toBe(400);
      expect(res.body.detail).toContain(words);
    }
  });
});
