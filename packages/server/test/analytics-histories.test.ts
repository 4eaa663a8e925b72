/**
 * Random histories through the API (issue 30, "Correctness"): customers on a test clock
 * subscribe (some with a 14-day trial), change plans and periods, cancel, while the clock
 * moves; whatever the history, the kept MRR movements and subscriber events equal a rebuild
 * from the terms log, each period's movements add up to its change of MRR, the MRR at the end
 * is Home's, no more trials convert than end, and, each customer holding one subscription at
 * most, the active subscriptions are the paying customers.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../src/lib/clock.js';
import { AnalyticsService } from '../src/modules/analytics/service.js';
import { CARDS, shop, untilClockReady, type Shop } from './commerce-support.js';
import { environmentIdOf, startTestServer, uniqueId, type TestOrg, type TestServer } from './harness.js';

const RUNS = Number(process.env.ANALYTICS_HISTORY_RUNS ?? 3);
const CUSTOMERS = 3;

type Step =
  | { op: 'subscribe'; who: number; plan: 'basic' | 'pro'; period: 'MONTHLY' | 'YEARLY' }
  | { op: 'trial'; who: number }
  | { op: 'change'; who: number; plan: 'basic' | 'pro'; period: 'MONTHLY' | 'YEARLY' }
  | { op: 'cancel'; who: number }
  | { op: 'advance'; days: number };

const who = fc.integer({ min: 0, max: CUSTOMERS - 1 });
const plan = fc.constantFrom('basic' as const, 'pro' as const);
const period = fc.constantFrom('MONTHLY' as const, 'YEARLY' as const);
const subscribe = fc.record({ op: fc.constant('subscribe' as const), who, plan, period });
const step: fc.Arbitrary<Step> = fc.oneof(
  subscribe,
  fc.record({ op: fc.constant('change' as const), who, plan, period }),
  fc.record({ op: fc.constant('trial' as const), who }),
  fc.record({ op: fc.constant('cancel' as const), who }),
  fc.record({ op: fc.constant('advance' as const), days: fc.integer({ min: 1, max: 40 }) }),
);

let server: TestServer;
let org: TestOrg;
let s: Shop;
let environmentId: string;

beforeAll(async () => {
  server = await startTestServer();
  org = await server.createOrg();
  s = await shop(server, org.sandbox.serverKey);
  environmentId = await environmentIdOf(server, org.organizationId, 'sandbox');
});
afterAll(() => server.close());

/** Plays a history on a clock of its own; refusals (nothing to change, nothing to cancel) are part of it. */
async function play(steps: readonly Step[]): Promise<void> {
  const start = new Date('2026-01-01T10:00:00Z');
  const clock = await s.call('POST', '/test-clocks/', { name: uniqueId('history'), frozenTime: start.toISOString() });
  expect(clock.status, clock.text).toBe(201);
  const customers: string[] = [];
  for (let i = 0; i < CUSTOMERS; i++) {
    customers.push(await s.customer({ testClockId: clock.body.id }));
    await s.card(customers[i]!, CARDS.ok);
  }
  const live = new Map<number, string>();
  let now = start.getTime();
  for (const next of steps) {
    if (next.op === 'advance') {
      now += next.days * 86_400_000;
      expect((await s.call('POST', `/test-clocks/${clock.body.id}/advance/`, { frozenTime: new Date(now).toISOString() })).status).toBe(200);
      expect(await untilClockReady(server, s, clock.body.id)).toMatchObject({ status: 'ready', failure: null });
      continue;
    }
    const current = live.get(next.who);
    if ((next.op === 'subscribe' || next.op === 'trial') && !current) {
      const [planIdentifier, chargePeriod] = next.op === 'trial' ? [s.plans.trial, 'MONTHLY'] : [s.plans[next.plan], next.period];
      const res = await s.call('POST', '/subscriptions/create/', { customerId: customers[next.who], planIdentifier, chargePeriod });
      expect(res.status, res.text).toBe(201);
      live.set(next.who, res.body.id);
    } else if (next.op === 'change' && current) {
      const res = await s.call('POST', `/subscriptions/${current}/update/`, { planIdentifier: s.plans[next.plan], chargePeriod: next.period });
      expect([200, 400, 409], res.text).toContain(res.status);
      if (res.status === 200 && res.body.subscriptionId) live.set(next.who, res.body.subscriptionId);
    } else if (next.op === 'cancel' && current) {
      const res = await s.call('POST', `/subscriptions/${current}/cancel/`, { cancellationType: 'IMMEDIATE' });
      expect(res.status, res.text).toBe(200);
      live.delete(next.who);
    }
  }
}

describe('random histories', () => {
  it('keep movements that a rebuild reproduces, that add up, and that end at Home’s MRR', async () => {
    const analytics = new AnalyticsService(server.database.db, new ManualClock(new Date()));
    await fc.assert(
      // Each history starts with a sale, so that every run has something to count.
      fc.asyncProperty(fc.tuple(subscribe, fc.array(step, { minLength: 3, maxLength: 9 })), async ([first, rest]) => {
        const steps = [first, ...rest];
        await play(steps);
        const series = await s.call('GET', '/analytics/mrr/?start=2026-01-01&end=2026-12-31&interval=month');
        expect(series.status, series.text).toBe(200);
        const home = (await s.call('GET', '/overview/')).body.mrr as { currency: string; amountUnits: number }[];
        for (const { currency, periods } of series.body.currencies) {
          for (const p of periods) {
            const moved = Object.values(p.movements as Record<string, number>).reduce((sum, n) => sum + n, 0);
            expect(moved).toBe(p.mrrEndUnits - p.mrrStartUnits);
          }
          expect(periods.at(-1).mrrEndUnits).toBe(home.find((m) => m.currency === currency)?.amountUnits ?? 0);
        }
        const subscribers = await s.call('GET', '/analytics/subscribers/?start=2026-01-01&end=2026-12-31&interval=month');
        expect(subscribers.status, subscribers.text).toBe(200);
        const paying = new Map<string, number[]>(series.body.currencies.map((c: { currency: string; periods: { customers: { end: number } }[] }) => [c.currency, c.periods.map((p) => p.customers.end)]));
        for (const p of subscribers.body.allCurrencies) {
          expect(p.trialsConverted).toBeLessThanOrEqual(p.trialsEnded);
          expect(p.trialsEnd).toBe(p.trialsStart + p.trialsStarted - p.trialsEnded);
          expect(p.trialsEnd).toBeGreaterThanOrEqual(0);
        }
        for (const { currency, periods } of subscribers.body.currencies) {
          expect(periods.map((p: { activeSubscriptionsEnd: number }) => p.activeSubscriptionsEnd)).toEqual(paying.get(currency) ?? periods.map(() => 0));
        }
        expect((await analytics.rebuild({ environmentId }, false)).differences).toEqual([]);
      }),
      { numRuns: RUNS },
    );
    // Every history sold to a customer of its own: at least one movement each was kept.
    expect((await analytics.rebuild({ environmentId }, false)).kept).toBeGreaterThanOrEqual(RUNS);
  });
});
