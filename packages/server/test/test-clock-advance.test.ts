/**
 * A test clock's advance over many subscriptions (issue 24, item 15): the statements it
 * issues grow with the subscriptions due, not with their square, and on the embedded
 * database requests are answered while it runs.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../src/db/connect.js';
import { systemClock } from '../src/lib/clock.js';
import { BillingEngine } from '../src/use-cases/billing-engine.js';
import { runTestClockAdvance } from '../src/use-cases/advance-test-clock.js';
import { CARDS, shop, type Shop } from './commerce-support.js';
import { openTestDatabase, startTestServer, uniqueId, type TestServer } from './harness.js';

let database: DatabaseHandle;
let server: TestServer;
let s: Shop;
let engine: BillingEngine;
let statements = 0;

beforeAll(async () => {
  database = await openTestDatabase({ onQuery: () => statements++ });
  server = await startTestServer({ database });
  const org = await server.createOrg();
  s = await shop(server, org.sandbox.serverKey);
  engine = new BillingEngine({ db: database.db, clock: systemClock, changes: null, dunning: server.config.billing.dunningDays });
});
afterAll(async () => {
  await server.close();
  await database.close();
});

function ok(res: { status: number; text: string }, status: number): void {
  if (res.status !== status) throw new Error(`${status} expected: ${res.status} ${res.text}`);
}

/**
 * A clock with `count` monthly subscriptions that renew on Feb 1st, `perCustomer` to each of
 * its customers (each with a card): a clock takes 100 customers at most.
 */
async function clockWith(count: number, perCustomer = 1): Promise<{ clockId: string; subscriptions: string[] }> {
  const created = await s.call('POST', '/test-clocks/', { name: uniqueId('many'), frozenTime: '2032-01-01T00:00:00Z' });
  ok(created, 201);
  const subscriptions: string[] = [];
  for (let i = 0; i < count / perCustomer; i++) {
    const customerId = await s.customer({ testClockId: created.body.id });
    await s.card(customerId, CARDS.ok);
    for (let k = 0; k < perCustomer; k++) {
      const res = await s.call('POST', '/subscriptions/create/', { planIdentifier: s.plans.basic, chargePeriod: 'MONTHLY', customerId });
      ok(res, 201);
      subscriptions.push(res.body.id);
    }
  }
  return { clockId: created.body.id, subscriptions };
}

/**
 * Sets the clock advancing to Feb 1st, noon, as POST /advance/ does, but without queueing its
 * job: the test runs the advance itself, as a worker would, and on a shared database no other
 * test's worker can take the job and run part of it meanwhile.
 */
async function askAdvance(clockId: string): Promise<void> {
  await database.db.updateTable('test_clocks').set({ status: 'advancing', target_time: new Date('2032-02-01T12:00:00Z') }).where('id', '=', clockId).execute();
}

/** Every subscription renewed once: one renewal invoice each, paid. */
async function expectRenewedOnce(subscriptions: string[]): Promise<void> {
  const renewals = await database.db
    .selectFrom('orders')
    .select(['subscription_id', 'status'])
    .where('subscription_id', 'in', subscriptions)
    .where('is_renewal', '=', true)
    .execute();
  expect(renewals.length).toBe(subscriptions.length);
  expect(new Set(renewals.map((r) => r.subscription_id)).size).toBe(subscriptions.length);
}

/** The statements an advance over one renewal of `count` subscriptions issues. */
async function statementsOfAdvance(count: number): Promise<number> {
  const { clockId, subscriptions } = await clockWith(count);
  await askAdvance(clockId);
  statements = 0;
  await runTestClockAdvance(database.db, engine, clockId);
  const issued = statements;
  const clock = await s.call('GET', `/test-clocks/${clockId}/`);
  expect(clock.body).toMatchObject({ status: 'ready', frozenTime: '2032-02-01T12:00:00.000Z', failure: null });
  await expectRenewedOnce(subscriptions);
  return issued;
}

describe('advancing a test clock over many subscriptions', () => {
  it('issues at most twice the statements for twice the subscriptions (each is read a constant number of times)', async () => {
    const ten = await statementsOfAdvance(10);
    const twenty = await statementsOfAdvance(20);
    // Before, each item read every subscription of the clock again: 256 statements for ten, 705 for twenty.
    expect(twenty).toBeLessThanOrEqual(2 * ten + 10);
  });

  it('answers a request made while an advance runs before the advance is over', async () => {
    const { clockId, subscriptions } = await clockWith(30);
    await askAdvance(clockId);
    let advanceOver = false;
    const advance = runTestClockAdvance(database.db, engine, clockId).then(() => (advanceOver = true));
    const during = await s.call('GET', `/test-clocks/${clockId}/`);
    // On the embedded database, an advance that never yields the event loop answers this only once it is over.
    expect(advanceOver).toBe(false);
    expect(during.body.status).toBe('advancing');
    await advance;
    expect((await s.call('GET', `/test-clocks/${clockId}/`)).body.status).toBe('ready');
    await expectRenewedOnce(subscriptions);
  });
});

describe('an advance beside another payment of the customer', () => {
  /** A payment of the customer under way in another process: its intent, processing. */
  async function paymentUnderWay(subscriptionId: string): Promise<string> {
    const sub = await database.db.selectFrom('subscriptions').select(['customer_id', 'environment_id']).where('id', '=', subscriptionId).executeTakeFirstOrThrow();
    const row = await database.db
      .insertInto('payment_intents')
      .values({
        id: crypto.randomUUID(),
        environment_id: sub.environment_id,
        customer_id: sub.customer_id,
        kind: 'charge',
        status: 'processing',
        amount_minor: 500,
        currency: 'USD',
        provider_key: uniqueId('elsewhere'),
        method_ref: 'pm_elsewhere',
        description: 'a charge made by another process',
        plan_version_id: crypto.randomUUID(),
        request: '{}',
        created_at: new Date(),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return row.id;
  }

  it('waits for that payment to settle, then renews, instead of failing the advance', async () => {
    const { clockId, subscriptions } = await clockWith(1);
    const intentId = await paymentUnderWay(subscriptions[0]!);
    await askAdvance(clockId);
    const advance = runTestClockAdvance(database.db, engine, clockId);
    await new Promise((resolve) => setTimeout(resolve, 300));
    // Meanwhile the advance is still going, not failed.
    expect((await s.call('GET', `/test-clocks/${clockId}/`)).body).toMatchObject({ status: 'advancing', failure: null });
    await database.db.updateTable('payment_intents').set({ status: 'failed', settled_at: new Date() }).where('id', '=', intentId).execute();
    await advance;
    expect((await s.call('GET', `/test-clocks/${clockId}/`)).body).toMatchObject({ status: 'ready', frozenTime: '2032-02-01T12:00:00.000Z', failure: null });
    await expectRenewedOnce(subscriptions);
  });

  it("takes up, on the job's next attempt, an advance whose attempt failed", async () => {
    const { clockId, subscriptions } = await clockWith(1);
    await askAdvance(clockId);
    await database.db.updateTable('test_clocks').set({ status: 'internal_failure', failure: 'the attempt before failed' }).where('id', '=', clockId).execute();
    await runTestClockAdvance(database.db, engine, clockId);
    expect((await s.call('GET', `/test-clocks/${clockId}/`)).body).toMatchObject({ status: 'ready', failure: null });
    await expectRenewedOnce(subscriptions);
  });
});

/**
 * The figures of docs/performance.md ("Test clock advances"): not a test (its times are
 * printed, never judged), run with BILLOW_MEASURE_ADVANCES=50,100,200,400.
 */
describe.skipIf(!process.env.BILLOW_MEASURE_ADVANCES)('measured advances', () => {
  it('prints the time and statements of an advance over one renewal of each size', async () => {
    for (const count of (process.env.BILLOW_MEASURE_ADVANCES ?? '').split(',').map(Number)) {
      const { clockId } = await clockWith(count, Math.ceil(count / 100));
      await askAdvance(clockId);
      statements = 0;
      const started = performance.now();
      const cpu = process.cpuUsage();
      await runTestClockAdvance(database.db, engine, clockId);
      const seconds = ((performance.now() - started) / 1000).toFixed(2);
      // The embedded database runs in this process: its CPU time is the advance's, whatever else the machine runs.
      const { user, system } = process.cpuUsage(cpu);
      console.log(`${count} subscriptions: ${seconds} s, ${((user + system) / 1e6).toFixed(2)} s of CPU in this process, ${statements} statements`);
    }
  }, 3_600_000);
});
