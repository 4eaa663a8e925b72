/**
 * Exactly once under concurrency (issue 11): renewals and dunning attempts of many
 * subscriptions, all due at the same instant, run at once by several billing engines
 * on two database connections (two pools on PostgreSQL; on PGlite the embedded
 * database serialises them), by two runs of a test clock's advance (a job taken over
 * when its lease ran out) and by two servers' job runners. Whatever the interleaving,
 * each subscription is renewed once a period (one invoice, one order, one charge, the
 * period advanced once), each dunning attempt is made once, and the provider is asked
 * to charge under exactly the keys of the intents, never refunding anything. A dunning
 * payment left processing is completed once, by recovery tasks and a retry racing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recoverPayments } from '../src/job-handlers/recover-payments.js';
import { runTestClockAdvance } from '../src/use-cases/advance-test-clock.js';
import { BillingEngine, clockAt } from '../src/use-cases/billing-engine.js';
import { findSubscriptionById } from '../src/modules/subscriptions/repo.js';
import { systemClock } from '../src/lib/clock.js';
import type { DatabaseHandle, Db } from '../src/db/connect.js';
import type { ChargeOutcome, ChargeRequest, PaymentProvider, RefundOutcome, RefundRequest } from '../src/modules/payments/provider.js';
import { replaceSandboxProvider } from '../src/modules/payments/providers.js';
import { SandboxProvider } from '../src/modules/payments/sandbox-provider.js';
import { CARDS, shop, type Shop } from './commerce-support.js';
import { openTestDatabase, startTestServer, uniqueId, type TestServer } from './harness.js';

/** The sandbox provider, a little slow (as a network is), counting what it is asked. */
class CountingProvider implements PaymentProvider {
  readonly name = 'counting';
  private readonly real = new SandboxProvider();
  readonly charges: { key: string; status: ChargeOutcome['status'] }[] = [];
  readonly refunds: RefundRequest[] = [];
  /** The next charge fails as a network does, before it reaches the provider. */
  unreachable = false;

  async charge(request: ChargeRequest): Promise<ChargeOutcome> {
    await new Promise((resolve) => setTimeout(resolve, 2));
    if (this.unreachable) {
      this.unreachable = false;
      throw new Error('the provider could not be reached');
    }
    const outcome = await this.real.charge(request);
    this.charges.push({ key: request.idempotencyKey, status: outcome.status });
    return outcome;
  }

  async refund(request: RefundRequest): Promise<RefundOutcome> {
    this.refunds.push(request);
    return this.real.refund(request);
  }

  reset(): void {
    this.charges.length = 0;
    this.refunds.length = 0;
  }
}

const ON_POSTGRES = Boolean(process.env.DATABASE_URL);
const SUBSCRIPTIONS = 30;
const DECLINED = 10;

let first: TestServer;
let second: TestServer;
let otherDatabase: DatabaseHandle | null = null;
let s: Shop;
let provider: CountingProvider;
let previousProvider: PaymentProvider;

beforeAll(async () => {
  provider = new CountingProvider();
  previousProvider = replaceSandboxProvider(provider);
  first = await startTestServer();
  // Another pool of connections on PostgreSQL, as another process would have; PGlite is one database in this process.
  otherDatabase = ON_POSTGRES ? await openTestDatabase() : null;
  second = await startTestServer({ database: otherDatabase ?? first.database });
  const org = await first.createOrg();
  s = await shop(first, org.sandbox.serverKey);
});
afterAll(async () => {
  replaceSandboxProvider(previousProvider);
  await second?.close();
  await otherDatabase?.close();
  await first?.close();
});

function ok(res: { status: number; text: string }, status: number): void {
  if (res.status !== status) throw new Error(`${status} expected: ${res.status} ${res.text}`);
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Runs everything due on the subscription by `target` through `engine`, each item at
 * its own time, until nothing is due; an item another worker is paying is tried again.
 */
async function drain(engine: BillingEngine, db: Db, subscriptionId: string, target: Date): Promise<void> {
  for (let tries = 0; tries < 500; tries++) {
    const row = await findSubscriptionById(db, subscriptionId);
    const due = row ? await engine.nextItem(db, row, target) : null;
    if (!row || !due) return;
    if (!(await engine.runItem(row, due, clockAt(due.item.at)))) await sleep(1);
  }
  throw new Error(`subscription ${subscriptionId} was still due after 500 tries`);
}

/** Runs an advance the way a job whose lease ran out is run twice; "another payment under way" is the only failure allowed. */
async function advanceRun(db: Db, engine: BillingEngine, clockId: string): Promise<void> {
  try {
    await runTestClockAdvance(db, engine, clockId);
  } catch (error) {
    if (!(error instanceof Error) || !/another payment of the customer is under way/.test(error.message)) throw error;
  }
}

describe(`renewals raced by several workers on ${ON_POSTGRES ? 'postgres' : 'pglite'}`, () => {
  it('renews each subscription once a period, makes each dunning attempt once, and charges once per intent', async () => {
    const dunning = first.config.billing.dunningDays;
    const dbs = [first.database.db, second.database.db];
    // Two engines on each database connection pool: four workers.
    const engines = [0, 1, 0, 1].map((i) => ({ db: dbs[i]!, engine: new BillingEngine({ db: dbs[i]!, clock: systemClock, changes: null, dunning }) }));

    const created = await s.call('POST', '/test-clocks/', { name: uniqueId('race'), frozenTime: '2031-01-15T00:00:00Z' });
    ok(created, 201);
    const clockId: string = created.body.id;
    const customers: string[] = [];
    const subscriptions: string[] = [];
    for (let i = 0; i < SUBSCRIPTIONS; i++) {
      const customerId = await s.customer({ testClockId: clockId });
      await s.card(customerId, CARDS.ok);
      const res = await s.call('POST', '/subscriptions/create/', { planIdentifier: s.plans.basic, chargePeriod: 'MONTHLY', customerId });
      ok(res, 201);
      customers.push(customerId);
      subscriptions.push(res.body.id);
    }
    // The first ten renew on a declined card: dunning.
    const makeDefault = async (customerId: string, card: string) => {
      const method = await s.card(customerId, card);
      ok(await s.call('POST', `/payment-methods/${method.id}/default/`), 200);
    };
    for (const customerId of customers.slice(0, DECLINED)) await makeDefault(customerId, CARDS.declined);

    const renewalAt = new Date('2031-02-15T00:00:00Z');
    /** Everything due by `target` on the clock's subscriptions, run by every worker at once. */
    const race = async (target: string) => {
      ok(await s.call('POST', `/test-clocks/${clockId}/advance/`, { frozenTime: target }), 200);
      const at = new Date(target);
      const orders = [subscriptions, subscriptions, [...subscriptions].reverse(), [...subscriptions.slice(15), ...subscriptions.slice(0, 15)]];
      await Promise.all([
        ...engines.map(({ db, engine }, i) =>
          (async () => {
            for (const id of orders[i]!) await drain(engine, db, id, at);
          })(),
        ),
        advanceRun(engines[0]!.db, engines[0]!.engine, clockId),
        advanceRun(engines[1]!.db, engines[1]!.engine, clockId),
      ]);
      // Then the advance's own job, on both servers' runners at once: nothing is left for it but to finish.
      await Promise.all([first.runJobs(), second.runJobs()]);
      const clock = await s.call('GET', `/test-clocks/${clockId}/`);
      expect(clock.body).toMatchObject({ status: 'ready', frozenTime: at.toISOString(), failure: null });
    };

    provider.reset();
    // Renewals at 2031-02-15 (ten declined), then two dunning attempts on each declined invoice (a day and two days later).
    await race('2031-02-17T12:00:00Z');
    // Five of the declined customers give a card that works: their next attempt falls due at once, and pays.
    const recovered = customers.slice(0, 5);
    for (const customerId of recovered) await makeDefault(customerId, CARDS.ok);
    await race('2031-02-17T13:00:00Z');

    const db = first.database.db;
    const invoices = await db
      .selectFrom('invoices')
      .select(['id', 'subscription_id', 'order_id', 'status', 'period_start', 'attempt_count', 'next_attempt_at'])
      .where('subscription_id', 'in', subscriptions)
      .where('period_start', '=', renewalAt)
      .execute();
    const orders = await db.selectFrom('orders').select(['id', 'subscription_id', 'status', 'is_renewal']).where('subscription_id', 'in', subscriptions).where('is_renewal', '=', true).execute();
    const renewalOrderIds = orders.map((o) => o.id);
    const transactions = await db.selectFrom('transactions').select(['order_id', 'transaction_type', 'provider_ref', 'status']).where('order_id', 'in', renewalOrderIds).execute();
    const customerPks = new Map((await db.selectFrom('customers').select(['id', 'customer_id']).where('customer_id', 'in', customers).execute()).map((c) => [c.customer_id, c.id]));
    const ours = await db
      .selectFrom('payment_intents')
      .select(['id', 'customer_id', 'kind', 'status', 'provider_key', 'provider_ref', 'idempotency_key'])
      .where('customer_id', 'in', [...customerPks.values()])
      .orderBy('created_at')
      .where('kind', 'in', ['renewal', 'invoice_payment'])
      .execute();

    for (const [index, id] of subscriptions.entries()) {
      const sub = (await s.call('GET', `/subscriptions/${id}/`)).body;
      const declined = index < DECLINED;
      const paid = !declined || index < recovered.length;
      // The period advanced once.
      expect(sub).toMatchObject({
        status: paid ? 'active' : 'past_due',
        billingPeriodStartTime: '2031-02-15T00:00:00.000Z',
        billingPeriodEndTime: '2031-03-15T00:00:00.000Z',
      });
      const own = invoices.filter((i) => i.subscription_id === id);
      expect(own).toHaveLength(1);
      const invoice = own[0]!;
      // Renewal, then attempts a day and two days later; the recovered paid on the next.
      expect(invoice).toMatchObject({ status: paid ? 'PAID' : 'PAYMENT_FAILED', attempt_count: !declined ? 1 : paid ? 4 : 3 });
      const order = orders.filter((o) => o.subscription_id === id);
      expect(order.map((o) => [o.id, o.status])).toEqual([[invoice.order_id, paid ? 'COMPLETE' : 'PENDING']]);
      const charges = transactions.filter((t) => t.order_id === invoice.order_id && t.transaction_type === 'CHARGE');
      expect(charges.map((t) => t.status)).toEqual(paid ? ['success'] : []);

      // One intent for the renewal of the period, one for each later attempt, each settled.
      const customerIntents = ours.filter((i) => i.customer_id === customerPks.get(customers[index]!));
      const renewal = customerIntents.filter((i) => i.kind === 'renewal');
      expect(renewal.map((i) => [i.idempotency_key, i.status])).toEqual([[`${id}:${renewalAt.toISOString()}`, declined ? 'failed' : 'succeeded']]);
      const attempts = customerIntents.filter((i) => i.kind === 'invoice_payment');
      const expected = !declined ? [] : paid ? [['2', 'failed'], ['3', 'failed'], ['4', 'succeeded']] : [['2', 'failed'], ['3', 'failed']];
      expect(attempts.map((i) => [i.idempotency_key, i.status])).toEqual(expected.map(([n, status]) => [`${invoice.id}:${n}`, status]));
      const succeeded = [...renewal, ...attempts].filter((i) => i.status === 'succeeded');
      expect(charges.map((t) => t.provider_ref)).toEqual(succeeded.map((i) => i.provider_ref));
    }

    // The provider was asked under the intents' keys only (a key asked twice gets its first outcome), and gave nothing back.
    // (On a shared PostgreSQL database these runners may run other tests' jobs too: only keys of intents count.)
    const ourKeys = new Set(ours.map((i) => i.provider_key));
    const asked = [...new Set(provider.charges.map((c) => c.key))];
    const known = await db.selectFrom('payment_intents').select('provider_key').where('provider_key', 'in', asked).execute();
    expect(known).toHaveLength(asked.length);
    const charged = new Set(provider.charges.filter((c) => c.status === 'succeeded' && ourKeys.has(c.key)).map((c) => c.key));
    if (!process.env.DATABASE_URL) {
      // The embedded database is this test's alone: every intent went through this provider.
      expect(asked.filter((key) => ourKeys.has(key)).sort()).toEqual([...ourKeys].sort());
      expect(charged.size).toBe(SUBSCRIPTIONS - DECLINED + recovered.length);
    } else {
      // A shared PostgreSQL database: another test's server may have completed some of these intents with its own
      // provider (its recovery task or job runner); the records above prove one charge per intent either way.
      expect(charged.size).toBeLessThanOrEqual(SUBSCRIPTIONS - DECLINED + recovered.length);
    }
    const reversals = new Set(ours.map((i) => `billow_pi_reverse_${i.id}`));
    expect(provider.refunds.filter((r) => reversals.has(r.idempotencyKey))).toEqual([]);
    expect(ours.filter((i) => i.status === 'processing' || i.status === 'reversed')).toEqual([]);
    expect(ours).toHaveLength(SUBSCRIPTIONS + DECLINED * 2 + recovered.length);
  });
});

/** A renewal invoice whose payment by hand never heard back from the provider: its intent stays processing. */
async function paymentLeftProcessing() {
  // A clock over a year in the past: its payments are stale to a recovery task that only takes those (as no other test's are).
  const created = await s.call('POST', '/test-clocks/', { name: uniqueId('stale'), frozenTime: '2024-03-01T00:00:00Z' });
  ok(created, 201);
  const clockId: string = created.body.id;
  const customerId = await s.customer({ testClockId: clockId });
  await s.card(customerId, CARDS.ok);
  const subscribed = await s.call('POST', '/subscriptions/create/', { planIdentifier: s.plans.basic, chargePeriod: 'MONTHLY', customerId });
  ok(subscribed, 201);
  const declined = await s.card(customerId, CARDS.declined);
  ok(await s.call('POST', `/payment-methods/${declined.id}/default/`), 200);
  ok(await s.call('POST', `/test-clocks/${clockId}/advance/`, { frozenTime: '2024-04-01T01:00:00Z' }), 200);
  await first.runJobs();
  const [invoice] = (await s.call('GET', `/invoices/?customer_id=${customerId}&status=PAYMENT_FAILED`)).body.results;
  expect(invoice).toBeDefined();

  const working = await s.card(customerId, CARDS.ok);
  ok(await s.call('POST', `/payment-methods/${working.id}/default/`), 200);
  provider.reset();
  provider.unreachable = true;
  expect((await s.call('POST', `/invoices/${invoice.id}/pay/`)).status).toBe(500);
  const db = first.database.db;
  const customer = await db.selectFrom('customers').select('id').where('customer_id', '=', customerId).executeTakeFirstOrThrow();
  const intentsOf = () => db.selectFrom('payment_intents').selectAll().where('customer_id', '=', customer.id).where('kind', '=', 'invoice_payment').execute();
  const keysOf = async () => (await intentsOf()).map((i) => [i.status, i.idempotency_key]);
  expect(await keysOf()).toEqual([['processing', `${invoice.id}:2`]]);
  return { customerId, invoice, subscriptionId: subscribed.body.id as string, intentsOf, keysOf };
}

describe('a dunning payment left processing', () => {
  it('is completed by the recovery task under its own key, once, however many complete it at once', async () => {
    const { customerId, invoice, subscriptionId, keysOf } = await paymentLeftProcessing();
    // Two recovery tasks (one on each pool) and a retry by hand, at once.
    const year = 366 * 24 * 60 * 60 * 1000;
    const dunning = first.config.billing.dunningDays;
    const [a, b, retry] = await Promise.all([
      recoverPayments(first.database.db, systemClock, 60_000, year, dunning),
      recoverPayments(second.database.db, systemClock, 60_000, year, dunning),
      s.call('POST', `/invoices/${invoice.id}/pay/`),
    ]);
    expect([a.failures, b.failures]).toEqual([[], []]);
    // The retry joins the intent while it is processing (200), or comes after a recovery task paid it: then it is no longer payable.
    expect(retry.status === 200 || (retry.status === 400 && retry.body.code === 'invoice_not_payable')).toBe(true);
    expect(await keysOf()).toEqual([['succeeded', `${invoice.id}:2`]]);
    expect((await s.call('GET', `/invoices/${invoice.id}/`)).body.status).toBe('PAID');
    expect((await s.call('GET', `/subscriptions/${subscriptionId}/`)).body.status).toBe('active');
    const transactions = (await s.call('GET', `/transaction/?customer_id=${customerId}`)).body.results;
    const renewalCharges = transactions.filter((t: { transactionType: string; order: { id: string } }) => t.transactionType === 'CHARGE' && t.order.id === invoice.orderId);
    expect(renewalCharges).toHaveLength(1);
    // On a shared PostgreSQL database another test's recovery task may have completed it with its own provider.
    const succeeded = new Set(provider.charges.filter((c) => c.status === 'succeeded').map((c) => c.key)).size;
    expect(process.env.DATABASE_URL ? succeeded <= 1 : succeeded === 1).toBe(true);
    expect(provider.refunds).toEqual([]);
  });

  it('is not paid again by a recovery task that found it processing after a retry settled it', async () => {
    const { invoice, intentsOf, keysOf } = await paymentLeftProcessing();
    const [stale] = await intentsOf();
    // The retry by hand completes the intent; the recovery task then works from the row it read before.
    ok(await s.call('POST', `/invoices/${invoice.id}/pay/`), 200);
    const engine = new BillingEngine({ db: first.database.db, clock: systemClock, changes: null, dunning: first.config.billing.dunningDays });
    await engine.completeStale(stale!);
    expect(await keysOf()).toEqual([['succeeded', `${invoice.id}:2`]]);
    expect((await s.call('GET', `/invoices/${invoice.id}/`)).body).toMatchObject({ status: 'PAID', attemptCount: 2 });
    const succeeded = provider.charges.filter((c) => c.status === 'succeeded').map((c) => c.key);
    expect(process.env.DATABASE_URL ? succeeded.length <= 1 : succeeded.length === 1).toBe(true);
  });
});
