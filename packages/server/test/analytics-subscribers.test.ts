/**
 * Subscribers and trials through the API (issue 30, decision 0101): trials on a test clock
 * that convert (the clock passes their end with a card on file), that don't (cancelled during
 * the trial, at once or for its end; ended with no way to pay), that a plan change carries on
 * or ends at once, and one whose first
 * payment fails (it converts: its first paid period began, past due) appear in
 * GET /analytics/subscribers/ in the months they happened in; the kept events agree with a
 * rebuild from the terms log.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AnalyticsService } from '../src/modules/analytics/service.js';
import { ManualClock } from '../src/lib/clock.js';
import { CARDS, shop, untilClockReady, type Shop } from './commerce-support.js';
import { environmentIdOf, startTestServer, uniqueId, type TestOrg, type TestServer } from './harness.js';
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
  const clock = await s.call('POST', '/test-clocks/', { name: uniqueId('trials'), frozenTime: '2026-03-01T10:00:00Z' });
  expect(clock.status, clock.text).toBe(201);
  clockId = clock.body.id;
});
afterAll(() => server.close());

/** A customer on the clock with a card, subscribed monthly to the plan; `removeCard` takes the card away after. */
async function subscribed(planIdentifier: string, card: string = CARDS.ok, removeCard = false): Promise<string> {
  const customerId = await s.customer({ testClockId: clockId });
  const method = await s.card(customerId, card);
  const res = await s.call('POST', '/subscriptions/create/', { planIdentifier, chargePeriod: 'MONTHLY', customerId });
  expect(res.status, res.text).toBe(201);
  if (removeCard) expect((await s.call('DELETE', `/payment-methods/${method.id}/`)).status).toBe(204);
  return res.body.id as string;
}

async function advance(frozenTime: string): Promise<void> {
  const res = await s.call('POST', `/test-clocks/${clockId}/advance/`, { frozenTime });
  expect(res.status, res.text).toBe(200);
  expect(await untilClockReady(server, s, clockId)).toMatchObject({ status: 'ready', failure: null });
}

const series = async (query: string) => {
  const res = await s.call('GET', `/analytics/subscribers/${query}`);
  expect(res.status, res.text).toBe(200);
  return res.body;
};

const counts = (p: Record<string, unknown>) => ({
  active: [p.activeSubscriptionsStart, p.activeSubscriptionsEnd],
  trials: [p.trialsStart, p.trialsEnd],
  started: p.trialsStarted,
  ended: p.trialsEnded,
  converted: p.trialsConverted,
  rate: p.trialConversionRateBp,
});

describe('GET /analytics/subscribers/', () => {
  it('counts the trials of a simulated March and April: started, ended, converted', async () => {
    // March 1: a paid plan, and three 14-day trials: one converts on the 15th, one is cancelled on the 5th, one loses its card.
    expect((await s.call('GET', `/subscriptions/${await subscribed(s.plans.basic)}/`)).body.status).toBe('active');
    expect((await s.call('GET', `/subscriptions/${await subscribed(s.plans.trial)}/`)).body.status).toBe('trialing');
    const cancelled = await subscribed(s.plans.trial);
    const cardless = await subscribed(s.plans.trial, CARDS.ok, true);
    await advance('2026-03-05T10:00:00Z');
    expect((await s.call('POST', `/subscriptions/${cancelled}/cancel/`, { cancellationType: 'IMMEDIATE' })).status).toBe(200);
    await advance('2026-03-20T10:00:00Z');
    expect((await s.call('GET', `/subscriptions/${cardless}/`)).body.status).toBe('canceled');
    // March 20: three more trials; one moves to the basic plan during its trial (the trial goes on), one's card declines at its end.
    await subscribed(s.plans.trial);
    const changed = await subscribed(s.plans.trial);
    const declined = await subscribed(s.plans.trial, CARDS.declined);
    const moved = await s.call('POST', `/subscriptions/${changed}/update/`, { planIdentifier: s.plans.basic, chargePeriod: 'MONTHLY' });
    expect(moved.status, moved.text).toBe(200);
    expect((await s.call('GET', `/subscriptions/${moved.body.subscriptionId}/`)).body.status).toBe('trialing');
    await advance('2026-04-05T10:00:00Z');
    expect((await s.call('GET', `/subscriptions/${declined}/`)).body.status).toBe('past_due');

    const body = await series('?start=2026-03-01&end=2026-04-30');
    expect(body).toMatchObject({ timeZone: 'UTC', interval: 'month', start: '2026-03-01', end: '2026-05-01' });
    expect(body.currencies.map((c: { currency: string }) => c.currency)).toEqual(['USD']);
    const [march, april] = body.currencies[0].periods;
    expect(counts(march)).toEqual({ active: [0, 2], trials: [0, 3], started: 6, ended: 3, converted: 1, rate: 3333 });
    expect(counts(april)).toEqual({ active: [2, 5], trials: [3, 0], started: 0, ended: 3, converted: 3, rate: 10_000 });
    expect(body.allCurrencies).toEqual(body.currencies[0].periods);
  });

  it('places each start and end on its day', async () => {
    const body = await series('?start=2026-03-01&end=2026-04-30&interval=day');
    const days = (body.currencies[0].periods as Record<string, number>[])
      .filter((d) => d.trialsStarted + d.trialsEnded > 0)
      .map((d) => [d.period, d.trialsStarted, d.trialsEnded, d.trialsConverted]);
    expect(days).toEqual([
      ['2026-03-01', 3, 0, 0],
      ['2026-03-05', 0, 1, 0],
      ['2026-03-15', 0, 2, 1],
      ['2026-03-20', 3, 0, 0],
      ['2026-04-03', 0, 3, 3],
    ]);
    expect(days.length).toBeGreaterThan(0);
    const quiet = body.currencies[0].periods.find((d: { period: string }) => d.period === '2026-03-02');
    expect(quiet.trialConversionRateBp).toBeNull();
  });

  it('agrees with a rebuild from the log, and with the MRR series', async () => {
    const report = await new AnalyticsService(server.database.db, new ManualClock(new Date())).rebuild({ environmentId }, false);
    expect(report).toMatchObject({ differences: [], applied: false });
    expect(report.subscriberEvents.kept).toBe(report.subscriberEvents.rebuilt);
    // Started 6 + ended 6 + activated 5 (basic, three conversions and the declined one's past-due period), in the whole
    // business's book and in the product's; and 19 in the plans' (decision 0107): the trial a plan change moved from Trial to
    // Basic ends on Trial (lapsed) and starts on Basic.
    expect(report.subscriberEvents.kept).toBe(17 + 17 + 19);
    const mrr = await s.call('GET', '/analytics/mrr/?start=2026-03-01&end=2026-04-30');
    const [march, april] = mrr.body.currencies[0].periods;
    expect([march.customers.end, april.customers.end]).toEqual([2, 5]);
  });

  it('answers CSV, a row per currency and period, then every currency together', async () => {
    const res = await s.call('GET', '/analytics/subscribers/?start=2026-03-01&end=2026-04-30&format=csv');
    expect(res.status, res.text).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/csv');
    expect(res.text.trim().split('\r\n')).toEqual([
      'currency,period,start,end,active_subscriptions_start,active_subscriptions_end,trials_start,trials_end,trials_started,trials_ended,trials_converted,trial_conversion_rate_bp',
      'USD,2026-03,2026-03-01,2026-04-01,0,2,0,3,6,3,1,3333',
      'USD,2026-04,2026-04-01,2026-05-01,2,5,3,0,0,3,3,10000',
      'all,2026-03,2026-03-01,2026-04-01,0,2,0,3,6,3,1,3333',
      'all,2026-04,2026-04-01,2026-05-01,2,5,3,0,0,3,3,10000',
    ]);
    const empty = await s.call('GET', '/analytics/subscribers/?start=2026-01-01&end=2026-01-31&currency=EUR&format=csv');
    expect(empty.text.trim().split('\r\n').slice(1)).toEqual(['all,2026-01,2026-01-01,2026-02-01,0,0,0,0,0,0,0,']);
  });

  it('is read by every role, and refuses what it cannot answer, in words', async () => {
    const viewer = await signedInMember(server, org, 'viewer');
    const read = await viewer.api('GET', '/sandbox/api/v1/analytics/subscribers/?start=2026-03-01&end=2026-03-31');
    expect(read.status, read.text).toBe(200);
    for (const [query, words] of [
      ['?start=2026-02-30', 'calendar date'],
      ['?start=2026-03-01&end=2026-02-01', 'before start'],
      ['?interval=year', 'interval'],
      ['?currency=usd', 'currency'],
    ] as const) {
      const res = await s.call('GET', `/analytics/subscribers/${query}`);
      expect(res.status, query).toBe(400);
      expect(res.body.detail).toContain(words);
    }
  });

  it('ends a trial cancelled for its end on the day it ends, and converts one that a plan change ends at once', async () => {
    const clock = await s.call('POST', '/test-clocks/', { name: uniqueId('june'), frozenTime: '2025-06-01T10:00:00Z' });
    const trial = async () => {
      const customerId = await s.customer({ testClockId: clock.body.id });
      await s.card(customerId);
      return (await s.call('POST', '/subscriptions/create/', { planIdentifier: s.plans.trial, chargePeriod: 'MONTHLY', customerId })).body.id as string;
    };
    const leaving = await trial();
    const hurried = await trial();
    const moveTo = async (frozenTime: string) => {
      expect((await s.call('POST', `/test-clocks/${clock.body.id}/advance/`, { frozenTime })).status).toBe(200);
      expect(await untilClockReady(server, s, clock.body.id)).toMatchObject({ status: 'ready', failure: null });
    };
    await moveTo('2025-06-03T10:00:00Z');
    const cancel = await s.call('POST', `/subscriptions/${leaving}/cancel/`, { cancellationType: 'CURRENT_PERIOD_ENDS' });
    expect(cancel.status, cancel.text).toBe(200);
    const change = await s.call('POST', `/subscriptions/${hurried}/update/`, { planIdentifier: s.plans.basic, chargePeriod: 'MONTHLY', trialEnd: 'now' });
    expect(change.status, change.text).toBe(200);
    await moveTo('2025-06-20T10:00:00Z');
    expect((await s.call('GET', `/subscriptions/${leaving}/`)).body.status).toBe('canceled');
    const body = await series('?start=2025-06-01&end=2025-06-30&interval=day');
    const days = (body.currencies[0].periods as Record<string, number>[])
      .filter((d) => d.trialsStarted + d.trialsEnded > 0)
      .map((d) => [d.period, d.trialsStarted, d.trialsEnded, d.trialsConverted, d.activeSubscriptionsEnd]);
    expect(days).toEqual([
      ['2025-06-01', 2, 0, 0, 0],
      ['2025-06-03', 0, 1, 1, 1],
      ['2025-06-15', 0, 1, 0, 1],
    ]);
    const [june] = (await series('?start=2025-06-01&end=2025-06-30')).allCurrencies;
    expect(counts(june)).toEqual({ active: [0, 1], trials: [0, 0], started: 2, ended: 2, converted: 1, rate: 5000 });
    // By plan (decision 0107): the trial a change to Basic ended at once ended for Trial without converting; Basic has a paying subscription, no trial.
    const [onTrial] = (await series(`?start=2025-06-01&end=2025-06-30&plan=${s.plans.trial}`)).allCurrencies;
    expect(counts(onTrial)).toEqual({ active: [0, 0], trials: [0, 0], started: 2, ended: 2, converted: 0, rate: 0 });
    const [onBasic] = (await series(`?start=2025-06-01&end=2025-06-30&plan=${s.plans.basic}`)).allCurrencies;
    expect(counts(onBasic)).toEqual({ active: [0, 1], trials: [0, 0], started: 0, ended: 0, converted: 0, rate: null });
    const report = await new AnalyticsService(server.database.db, new ManualClock(new Date())).rebuild({ environmentId }, false);
    // 22 events in the whole business's book and the product's, 24 in the plans'.
    expect(report).toMatchObject({ differences: [], subscriberEvents: { kept: 68, rebuilt: 68 } });
  });

  it('is put right by a rebuild with apply when a kept event is lost', async () => {
    const analytics = new AnalyticsService(server.database.db, new ManualClock(new Date()));
    const before = await series('?start=2025-06-01&end=2026-04-30');
    await server.database.db.deleteFrom('analytics_subscription_events').where('environment_id', '=', environmentId).where('kind', '=', 'trial_lapsed').execute();
    expect((await series('?start=2025-06-01&end=2026-04-30')).allCurrencies).not.toEqual(before.allCurrencies);
    const found = await analytics.rebuild({ environmentId }, false);
    expect(found.differences[0]).toMatch(/^subscriber event \d+: kept /);
    // Three lapsed trials in the whole business's book and the product's, five in the plans'.
    expect(found.subscriberEvents).toEqual({ kept: 57, rebuilt: 68 });
    expect(await analytics.rebuild({ environmentId }, true)).toMatchObject({ applied: true });
    expect(await analytics.rebuild({ environmentId }, false)).toMatchObject({ differences: [], subscriberEvents: { kept: 68, rebuilt: 68 } });
    expect((await series('?start=2025-06-01&end=2026-04-30')).allCurrencies).toEqual(before.allCurrencies);
  });
});
