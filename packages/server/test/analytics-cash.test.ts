/**
 * Cash and dunning analytics through the API (issue 30, decision 0099), on a test clock: a
 * paid checkout and a partial refund in March; in April a renewal paid, one whose first
 * attempt fails and that a dunning retry recovers once the customer gives a working card, and
 * one that dunning loses. Each counts on the clock's day; failures, recoveries and losses in
 * the cohort of the first failure. The kept day rollups agree with a rebuild from the raw
 * tables, which finds a tampered rollup and puts it right.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rebuildAnalytics } from '../src/modules/analytics/admin.js';
import { ManualClock } from '../src/lib/clock.js';
import { CARDS, shop, untilClockReady, type Shop } from './commerce-support.js';
import { environmentIdOf, startTestServer, uniqueId, type TestOrg, type TestServer } from './harness.js';
import { csrfOf, getPage, payWith, postForm } from './checkout/support.js';

let server: TestServer;
let org: TestOrg;
let s: Shop;
let clockId: string;
let environmentId: string;

async function advance(frozenTime: string): Promise<void> {
  const res = await s.call('POST', `/test-clocks/${clockId}/advance/`, { frozenTime });
  expect(res.status, res.text).toBe(200);
  expect(await untilClockReady(server, s, clockId)).toMatchObject({ status: 'ready', failure: null });
}

async function subscribed(card: string): Promise<string> {
  const customerId = await s.customer({ testClockId: clockId });
  await s.card(customerId, card);
  const res = await s.call('POST', '/subscriptions/create/', { planIdentifier: s.plans.basic, chargePeriod: 'MONTHLY', customerId });
  expect(res.status, res.text).toBe(201);
  return customerId;
}

/** A new card becomes the customer's default: what their next renewal or retry charges. */
async function defaultCard(customerId: string, cardNumber: string): Promise<void> {
  const card = await s.call('POST', '/payment-methods/', { customerId, cardNumber, expMonth: 12, expYear: 2035, cvc: '123' });
  expect(card.status, card.text).toBe(201);
  expect((await s.call('POST', `/payment-methods/${card.body.id}/default/`)).status).toBe(200);
}

async function checkout(customerId: string): Promise<void> {
  const session = await s.call('POST', '/checkout/', { planIdentifier: s.plans.basic, chargePeriod: 'MONTHLY', customerId, successUrl: 'https://shop.example/thanks' });
  expect(session.status, session.text).toBe(201);
  const page = await getPage(session.body.checkoutUrl);
  expect((await postForm(session.body.checkoutUrl, payWith(csrfOf(page.text), CARDS.ok, { country: 'US' }))).status).toBe(303);
}

const cash = async (query: string) => {
  const res = await s.call('GET', `/analytics/cash/${query}`);
  expect(res.status, res.text).toBe(200);
  return res.body;
};

beforeAll(async () => {
  server = await startTestServer();
  org = await server.createOrg();
  s = await shop(server, org.sandbox.serverKey);
  environmentId = await environmentIdOf(server, org.organizationId, 'sandbox');
  const clock = await s.call('POST', '/test-clocks/', { name: uniqueId('cash'), frozenTime: '2027-03-01T10:00:00Z' });
  expect(clock.status, clock.text).toBe(201);
  clockId = clock.body.id;

  // 1 March: Ada pays $10.00 through a checkout and gets $4.00 back; Bo and Cy subscribe at $10.00.
  const ada = await s.customer({ testClockId: clockId });
  await checkout(ada);
  const orders = await s.call('GET', `/orders/?search=${ada}`);
  const refund = await s.call('POST', '/refunds/', { orderId: orders.body.results[0].id, amountUnits: 400 });
  expect(refund.status, refund.text).toBe(200);
  const bo = await subscribed(CARDS.ok);
  const cy = await subscribed(CARDS.ok);
  await defaultCard(bo, CARDS.declined);
  await defaultCard(cy, CARDS.declined);
  // 1 April: Ada's renewal is paid, Bo's and Cy's are declined; Bo gives a working card, which the next retry charges.
  await advance('2027-04-01T12:00:00Z');
  await defaultCard(bo, CARDS.ok);
  // Cy's dunning runs out (the last retry is 14 days after the failure): lost.
  await advance('2027-04-20T12:00:00Z');
}, 120_000);
afterAll(() => server.close());

describe('GET /analytics/cash/', () => {
  it('counts March and April on the clock, the dunning figures in the month of the first failure', async () => {
    const body = await cash('?start=2027-03-01&end=2027-04-30&interval=month');
    expect(body).toMatchObject({ timeZone: 'UTC', interval: 'month', start: '2027-03-01', end: '2027-05-01' });
    expect(body.currencies).toHaveLength(1);
    const [march, april] = body.currencies[0].periods;
    expect(march).toEqual({
      period: '2027-03',
      start: '2027-03-01',
      end: '2027-04-01',
      collected: { count: 3, amountUnits: 3000 },
      refunded: { count: 1, amountUnits: 400 },
      netUnits: 2600,
      failed: { count: 0, amountUnits: 0 },
      recovered: { count: 0, amountUnits: 0 },
      lost: { count: 0, amountUnits: 0 },
      recoveryRateBp: null,
    });
    expect(april).toMatchObject({
      period: '2027-04',
      collected: { count: 2, amountUnits: 2000 },
      refunded: { count: 0, amountUnits: 0 },
      netUnits: 2000,
      failed: { count: 2, amountUnits: 2000 },
      recovered: { count: 1, amountUnits: 1000 },
      lost: { count: 1, amountUnits: 1000 },
      recoveryRateBp: 5000,
    });
  });

  it('puts each figure on its day of the clock, by day', async () => {
    const body = await cash('?start=2027-03-01&end=2027-04-30&interval=day');
    const moved = (body.currencies[0].periods as { period: string; collected: { amountUnits: number }; failed: { count: number } }[])
      .filter((d) => d.collected.amountUnits !== 0 || d.failed.count !== 0)
      .map((d) => [d.period, d.collected.amountUnits, d.failed.count]);
    expect(moved).toEqual([
      ['2027-03-01', 3000, 0],
      ['2027-04-01', 2000, 2],
    ]);
  });

  it('answers only the currency asked for, and CSV', async () => {
    expect((await cash('?start=2027-03-01&end=2027-04-30&currency=EUR')).currencies).toEqual([]);
    const res = await s.call('GET', '/analytics/cash/?start=2027-03-01&end=2027-04-30&format=csv');
    expect(res.status, res.text).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/csv');
    expect(res.text.trim().split('\r\n')).toEqual([
      'currency,period,start,end,collected_count,collected_units,refunded_count,refunded_units,net_units,failed_count,failed_units,recovered_count,recovered_units,lost_count,lost_units,recovery_rate_bp',
      'USD,2027-03,2027-03-01,2027-04-01,3,3000,1,400,2600,0,0,0,0,0,0,',
      'USD,2027-04,2027-04-01,2027-05-01,2,2000,0,0,2000,2,2000,1,1000,1,1000,5000',
    ]);
  });

  it('refuses a range it cannot answer, in words', async () => {
    for (const [query, words] of [
      ['?start=2027-02-30', 'calendar date'],
      ['?start=2027-03-01&end=2027-02-01', 'before start'],
      ['?start=2020-01-01&end=2027-01-01&interval=day', 'at most 1000'],
      ['?interval=year', 'interval'],
      ['?currency=usd', 'currency'],
      ['?format=xlsx', 'format'],
    ] as const) {
      const res = await s.call('GET', `/analytics/cash/${query}`);
      expect(res.status, query).toBe(400);
      expect(res.body.detail).toContain(words);
    }
  });

  it('is for server keys, not publishable ones', async () => {
    const res = await server.request('GET', '/sandbox/api/v1/analytics/cash/', { key: org.sandbox.clientKey });
    expect([401, 403]).toContain(res.status);
  });
});

describe("the seller's time zone", () => {
  it("counts a payment on the seller's day, not UTC's", async () => {
    const other = await shop(server, (await server.createOrg()).sandbox.serverKey);
    expect((await other.call('PATCH', '/seller-profile/', { timeZone: 'Pacific/Auckland' })).status).toBe(200);
    // 20:00 UTC on 1 March is 09:00 on 2 March in Auckland (UTC+13).
    const clock = await other.call('POST', '/test-clocks/', { name: uniqueId('auckland'), frozenTime: '2027-03-01T20:00:00Z' });
    const customerId = await other.customer({ testClockId: clock.body.id });
    await other.card(customerId, CARDS.ok);
    expect((await other.call('POST', '/subscriptions/create/', { planIdentifier: other.plans.basic, chargePeriod: 'MONTHLY', customerId })).status).toBe(201);
    const res = await other.call('GET', '/analytics/cash/?start=2027-03-01&end=2027-03-02&interval=day');
    expect(res.status, res.text).toBe(200);
    expect(res.body.timeZone).toBe('Pacific/Auckland');
    expect(res.body.currencies[0].periods.map((p: { period: string; collected: { count: number } }) => [p.period, p.collected.count])).toEqual([
      ['2027-03-01', 0],
      ['2027-03-02', 1],
    ]);
  });
});

describe('billow analytics rebuild, for cash', () => {
  const rebuild = (apply: boolean) => rebuildAnalytics(server.database.db, new ManualClock(new Date()), org.organizationId, 'sandbox', apply);

  it('agrees with the kept days, finds a tampered one and puts it right with --apply', async () => {
    await server.runJobs(['price-analytics']);
    const agreed = await rebuild(false);
    // Two days, each in the whole business's book, its plan's and its product's (decision 0107).
    expect(agreed.cash).toEqual({ kept: 6, rebuilt: 6, differences: [], applied: false });

    await sql`UPDATE analytics_cash_days SET collected_minor = collected_minor + 1 WHERE environment_id = ${environmentId} AND day = '2027-03-01' AND dimension = 'all'`.execute(server.database.db);
    const found = await rebuild(false);
    expect(found.cash.differences).toHaveLength(1);
    expect(found.cash.differences[0]).toContain('cash of 2027-03-01 USD: kept collected_count 3, collected_minor 3001');
    expect((await cash('?start=2027-03-01&end=2027-03-31')).currencies[0].periods[0].collected.amountUnits).toBe(3001);

    expect((await rebuild(true)).cash).toMatchObject({ applied: true });
    expect((await rebuild(false)).cash.differences).toEqual([]);
    expect((await cash('?start=2027-03-01&end=2027-03-31')).currencies[0].periods[0].collected.amountUnits).toBe(3000);
  });

  it('counts what was appended but not folded yet as kept', async () => {
    await sql`INSERT INTO analytics_cash_log (environment_id, currency, at, collected_count, collected_minor) VALUES (${environmentId}, 'USD', '2027-03-01T11:00:00Z', 1, 500)`.execute(server.database.db);
    const report = await rebuild(false);
    expect(report.cash.differences).toEqual([expect.stringContaining('kept collected_count 4, collected_minor 3500')]);
    await rebuild(true);
    const [{ n }] = (await sql<{ n: string }>`SELECT count(*)::text AS n FROM analytics_cash_log WHERE environment_id = ${environmentId}`.execute(server.database.db)).rows as [{ n: string }];
    expect(n).toBe('0');
  });
});
