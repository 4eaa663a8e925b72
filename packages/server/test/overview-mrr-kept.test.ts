import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../src/lib/clock.js';
import { OverviewService } from '../src/modules/overview/service.js';
import { shop, type Shop } from './commerce-support.js';
import { environmentIdOf, startTestServer, type TestOrg, type TestServer } from './harness.js';

/**
 * The MRR counts kept by the triggers on subscriptions (decision 0090): after purchases,
 * plan changes, cancellations, bulk updates and deletions, the kept counts per terms are
 * what a recount of the subscriptions gives, and GET /overview/'s MRR is what a
 * recomputation from every subscription gives; folding the counts changes nothing.
 */
let server: TestServer;
let org: TestOrg;
let s: Shop;
let environmentId: string;
let recompute: OverviewService;

const overview = async () => {
  const res = await server.request('GET', '/sandbox/api/v1/overview/', { key: org.sandbox.serverKey });
  expect(res.status, res.text).toBe(200);
  return res.body as { mrr: { currency: string; amountUnits: number; subscriptions: number }[]; activeSubscriptions: number };
};

/** The kept counts summed per terms, and the same terms counted from the subscriptions themselves. */
async function keptAndRecounted() {
  const terms = sql.raw('currency, charge_period, price_id, quantities::text AS quantities, custom_amount_minor, custom_tax_behavior, promotion_percent');
  const group = sql.raw('currency, charge_period, price_id, quantities::text, custom_amount_minor, custom_tax_behavior, promotion_percent');
  const db = server.database.db;
  const kept = await sql<Record<string, unknown>>`
    SELECT ${terms}, sum(n)::int AS n FROM subscription_mrr_terms WHERE environment_id = ${environmentId}
     GROUP BY ${group} HAVING sum(n) <> 0 ORDER BY price_id, charge_period, quantities::text, n`.execute(db);
  const recounted = await sql<Record<string, unknown>>`
    SELECT ${terms}, count(*)::int AS n FROM subscriptions
     WHERE environment_id = ${environmentId} AND status IN ('active', 'past_due') AND charge_period <> 'ONE_TIME'
     GROUP BY ${group} ORDER BY price_id, charge_period, quantities::text, n`.execute(db);
  return { kept: kept.rows, recounted: recounted.rows };
}

async function expectAgreement(expectedSubscriptions: number) {
  const { kept, recounted } = await keptAndRecounted();
  expect(kept).toEqual(recounted);
  const { mrr } = await overview();
  expect(mrr).toEqual(await recompute.recomputedMrr({ environmentId }));
  expect(mrr.reduce((sum, m) => sum + m.subscriptions, 0)).toBe(expectedSubscriptions);
  return mrr;
}

async function subscribe(plan: string, chargePeriod: string): Promise<string> {
  const customerId = await s.customer();
  await s.card(customerId);
  const res = await s.call('POST', '/subscriptions/create/', { customerId, planIdentifier: plan, chargePeriod });
  expect(res.status, res.text).toBe(201);
  return res.body.id as string;
}

beforeAll(async () => {
  server = await startTestServer();
  org = await server.createOrg();
  s = await shop(server, org.sandbox.serverKey);
  environmentId = await environmentIdOf(server, org.organizationId, 'sandbox');
  recompute = new OverviewService(server.database.db, new ManualClock(new Date()));
});
afterAll(() => server.close());

describe('the kept MRR counts', () => {
  const ids: string[] = [];

  it('count what the API sells, and agree with a recomputation', async () => {
    for (const [plan, period] of [['basic', 'MONTHLY'], ['basic', 'MONTHLY'], ['basic', 'YEARLY'], ['pro', 'YEARLY'], ['pro', 'MONTHLY'], ['trial', 'MONTHLY']] as const) {
      ids.push(await subscribe(s.plans[plan], period));
    }
    // USD: 1000 + 1000 + 10000 / 12 + 20000 / 12 + 2000 = 6500 (the trial is not counted).
    expect(await expectAgreement(5)).toEqual([{ currency: 'USD', amountUnits: 6500, subscriptions: 5 }]);
  });

  it('follow a plan change and a cancellation', async () => {
    const changed = await s.call('POST', `/subscriptions/${ids[0]}/update/`, { planIdentifier: s.plans.pro, chargePeriod: 'MONTHLY' });
    expect(changed.status, changed.text).toBe(200);
    const canceled = await s.call('POST', `/subscriptions/${ids[3]}/cancel/`, { cancellationType: 'IMMEDIATE' });
    expect(canceled.status, canceled.text).toBe(200);
    // basic monthly 1000, pro monthly 2000 (changed), basic yearly 833.33, pro monthly 2000: (1000 + 2000 + 2000) + 10000 / 12 = 5833.33.
    expect(await expectAgreement(4)).toEqual([{ currency: 'USD', amountUnits: 5833, subscriptions: 4 }]);
  });

  it('follow statements that change many rows at once, a deletion, and keep a renewal out', async () => {
    const db = server.database.db;
    await db.updateTable('subscriptions').set({ status: 'past_due' }).where('environment_id', '=', environmentId).where('status', '=', 'active').execute();
    await expectAgreement(4);
    const before = await db.selectFrom('subscription_mrr_terms').select((eb) => eb.fn.countAll<string>().as('n')).where('environment_id', '=', environmentId).executeTakeFirstOrThrow();
    // A renewal moves only dates: nothing is appended.
    await db.updateTable('subscriptions').set({ current_period_end: new Date('2030-01-01T00:00:00Z') }).where('environment_id', '=', environmentId).execute();
    const after = await db.selectFrom('subscription_mrr_terms').select((eb) => eb.fn.countAll<string>().as('n')).where('environment_id', '=', environmentId).executeTakeFirstOrThrow();
    expect(after.n).toBe(before.n);
    // Location pricing at 50 %: other terms, the same subscription.
    await db.updateTable('subscriptions').set({ promotion_percent: 50 }).where('id', '=', ids[1]!).execute();
    await db.deleteFrom('subscription_discounts').where('subscription_id', '=', ids[2]!).execute();
    await db.deleteFrom('subscriptions').where('id', '=', ids[2]!).execute().catch(async () => {
      // Rows that refer to it (orders, invoices) keep it: end it instead.
      await db.updateTable('subscriptions').set({ status: 'canceled' }).where('id', '=', ids[2]!).execute();
    });
    await expectAgreement(3);
  });

  it('fold into one row per terms when they have grown, and the figure stays', async () => {
    const db = server.database.db;
    for (let i = 0; i < 220; i++) {
      await db.updateTable('subscriptions').set({ status: i % 2 === 0 ? 'canceled' : 'past_due' }).where('id', '=', ids[4]!).execute();
    }
    const rows = async () =>
      Number((await db.selectFrom('subscription_mrr_terms').select((eb) => eb.fn.countAll<string>().as('n')).where('environment_id', '=', environmentId).executeTakeFirstOrThrow()).n);
    expect(await rows()).toBeGreaterThan(200);
    const mrr = await expectAgreement(3);
    // The overview read above folded them: as many rows as sets of terms.
    expect(await rows()).toBe((await keptAndRecounted()).kept.length);
    expect(await expectAgreement(3)).toEqual(mrr);
  });
});
