import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../src/lib/clock.js';
import { Registry } from 'prom-client';
import { backgroundJobs } from '../src/job-handlers/tasks.js';
import { JobRunner } from '../src/modules/jobs/runner.js';
import { EXPIRE_PENDING_UPDATE_JOB } from '../src/modules/subscriptions/service.js';
import { CARDS, shop } from './commerce-support.js';
import { startTestServer, type TestOrg, type TestServer } from './harness.js';
import { officialClient } from './official-client-support.js';

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

const subscribe = (customerId: string, planIdentifier: string, extra: Record<string, unknown> = {}) =>
  s.call('POST', '/subscriptions/create/', { planIdentifier, chargePeriod: 'MONTHLY', customerId, ...extra });
const update = (id: string, body: Record<string, unknown>) => s.call('POST', `/subscriptions/${id}/update/`, body);
const get = (id: string) => s.call('GET', `/subscriptions/${id}/`);

/** Runs the pending-update expiry jobs only: on a shared database, other jobs belong to other tests. */
function expiryRunner(): JobRunner {
  const all = backgroundJobs(server.database.db, clock, {
    pendingUpdateTtlMs: server.config.pendingUpdateTtlMs,
    paymentRecoveryAfterMs: server.config.paymentRecoveryAfterMs,
    jobRetentionMs: server.config.jobs.retentionMs,
    billing: server.config.billing,
    sweepMedia: async () => 0,
  });
  const handlers = { [EXPIRE_PENDING_UPDATE_JOB]: all[EXPIRE_PENDING_UPDATE_JOB]! };
  return new JobRunner({ db: server.database.db, clock, log: server.app.log, registry: new Registry(), handlers });
}

async function paidCustomer(number: string = CARDS.ok) {
  const customerId = await s.customer();
  await s.card(customerId, number);
  return customerId;
}

async function ordersOf(subscriptionIds: string[]) {
  return server.database.db
    .selectFrom('orders')
    .select(['total_minor', 'is_trial', 'billing_type', 'discount_minor'])
    .where('subscription_id', 'in', subscriptionIds)
    .orderBy('seq')
    .execute();
}

describe('creating subscriptions', () => {
  it('charges the first period off-session and answers 201', async () => {
    const customerId = await paidCustomer();
    const res = await subscribe(customerId, s.plans.basic);
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      status: 'active',
      amount: '10.00',
      currency: 'USD',
      recurrence: 'month',
      recurrenceUnit: 1,
      recurrenceType: 'MONTH',
      billingType: 'SUBSCRIPTION',
      product: { id: s.product.id, name: s.product.name, identifier: s.product.identifier },
      plan: { identifier: s.plans.basic },
      customerId,
      billingPeriodStartTime: '2026-01-01T00:00:00.000Z',
      billingPeriodEndTime: '2026-02-01T00:00:00.000Z',
      files: [],
      links: [],
      license: [],
      trialDaysRemaining: 0,
    });
    expect(await ordersOf([res.body.id])).toEqual([{ total_minor: 1000, is_trial: false, billing_type: 'SUBSCRIPTION', discount_minor: 0 }]);
    const listed = await get(res.body.id);
    expect(listed.body).toMatchObject({ currency: 'usd', product: s.product.name, canceledAt: null });
  });

  it('starts a trial without charging', async () => {
    const customerId = await paidCustomer();
    const res = await subscribe(customerId, s.plans.trial);
    expect(res.body).toMatchObject({ status: 'trialing', trialDaysRemaining: 14, billingPeriodEndTime: '2026-01-15T00:00:00.000Z' });
    expect(await ordersOf([res.body.id])).toEqual([{ total_minor: 0, is_trial: true, billing_type: 'SUBSCRIPTION', discount_minor: 0 }]);
  });

  it('subscribes to a free plan without a payment method', async () => {
    const customerId = await s.customer();
    const res = await subscribe(customerId, s.plans.free);
    expect(res.status).toBe(201);
    expect(res.body.status).toBe('active');
  });

  it('refuses without a payment method, with a declined card, or for an unknown customer', async () => {
    expect((await subscribe(await s.customer(), s.plans.basic)).body.detail).toBe('A payment method is required to complete this payment.');
    const declined = await subscribe(await paidCustomer(CARDS.declined), s.plans.basic);
    expect(declined.status).toBe(400);
    expect(declined.body.detail).toMatch(/declined/);
    expect((await subscribe('nobody', s.plans.basic)).body.detail).toBe('Customer does not exist.');
  });

  it('prices quantities of seats', async () => {
    const customerId = await paidCustomer();
    const res = await subscribe(customerId, s.plans.seats, { features: [{ identifier: s.seats.identifier, quantity: 4 }] });
    expect(res.body.amount).toBe('17.00');
  });
});

describe('reading subscriptions', () => {
  it('requires customer_id, answers 404 "Subscription not found.", and hides superseded records by default', async () => {
    expect((await s.call('GET', '/subscriptions/')).status).toBe(400);
    const missing = await get('00000000-0000-4000-8000-000000000000');
    expect(missing.status).toBe(404);
    expect(missing.body.detail).toBe('Subscription not found.');
    const customerId = await paidCustomer();
    const first = (await subscribe(customerId, s.plans.basic)).body.id;
    const second = (await update(first, { planIdentifier: s.plans.pro, chargePeriod: 'MONTHLY' })).body.subscriptionId;
    const list = await s.call('GET', `/subscriptions/?customer_id=${customerId}`);
    expect(list.body.results.map((r: any) => r.id)).toEqual([second]);
    const all = await s.call('GET', `/subscriptions/?customer_id=${customerId}&status=active,superseded`);
    expect(all.body.results.map((r: any) => [r.id, r.status])).toEqual([
      [second, 'active'],
      [first, 'superseded'],
    ]);
    expect((await s.call('GET', `/subscriptions/?customer_id=${customerId}&status=paused`)).status).toBe(400);
  });
});

describe('changing subscriptions (interface part 3)', () => {
  it('updates immediately without paymentBehavior: new record active, old superseded, the difference prorated', async () => {
    const customerId = await paidCustomer();
    const first = (await subscribe(customerId, s.plans.basic)).body.id;
    clock.advance(15.5 * DAY);
    const res = await update(first, { planIdentifier: s.plans.pro, chargePeriod: 'MONTHLY' });
    expect(res.status).toBe(200);
    const next = res.body.subscriptionId;
    expect(next).not.toBe(first);
    expect((await get(first)).body.status).toBe('superseded');
    expect((await get(next)).body).toMatchObject({ status: 'active', amount: '20.00', previousSubscriptionId: first, billingPeriodEndTime: '2026-02-01T00:00:00.000Z' });
    const orders = await ordersOf([first, next]);
    expect(orders.map((o) => o.total_minor)).toEqual([1000, 500]);
  });

  it('turns a downgrade into customer credit, spent on the next upgrade', async () => {
    const customerId = await paidCustomer();
    const first = (await subscribe(customerId, s.plans.pro)).body.id;
    clock.advance(15.5 * DAY);
    const down = (await update(first, { planIdentifier: s.plans.basic, chargePeriod: 'MONTHLY' })).body.subscriptionId;
    const credit = async () =>
      (await server.database.db.selectFrom('customers').select('credit_minor').where('customer_id', '=', customerId).executeTakeFirstOrThrow()).credit_minor;
    // Half of Pro comes back (10.00, by a credit note); it pays Basic for the rest of the period (5.00) on the
    // change's invoice, and 5.00 stays as credit.
    expect(await credit()).toBe(500);
    expect(await ordersOf([down])).toEqual([{ total_minor: 0, is_trial: false, billing_type: 'SUBSCRIPTION', discount_minor: 500 }]);
    const up = (await update(down, { planIdentifier: s.plans.pro, chargePeriod: 'MONTHLY' })).body.subscriptionId;
    // Pro for the rest (10.00) is paid by that credit and Basic's unused half (5.00).
    expect(await credit()).toBe(0);
    expect(await ordersOf([up])).toEqual([{ total_minor: 0, is_trial: false, billing_type: 'SUBSCRIPTION', discount_minor: 1_000 }]);
  });

  it('keeps the current subscription active while an activate_on_payment change waits for its payment', async () => {
    const customerId = await paidCustomer();
    const first = (await subscribe(customerId, s.plans.basic)).body.id;
    await s.card(customerId, CARDS.declined).then((m: any) => s.call('POST', `/payment-methods/${m.id}/default/`));
    clock.advance(10 * DAY);
    const res = await update(first, { planIdentifier: s.plans.pro, chargePeriod: 'MONTHLY', paymentBehavior: 'activate_on_payment' });
    expect(res.status).toBe(200);
    const pending = res.body.subscriptionId;
    expect((await get(first)).body.status).toBe('active');
    expect((await get(pending)).body.status).toBe('incomplete');
    const list = await s.call('GET', `/subscriptions/?customer_id=${customerId}`);
    expect(list.body.results.map((r: any) => r.id)).toEqual([first]);
    const again = await update(first, { planIdentifier: s.plans.pro, chargePeriod: 'MONTHLY', paymentBehavior: 'activate_on_payment' });
    expect(again.status).toBe(400);

    // The expiry is a job, queued with the change and due 23 hours later by the clock.
    const expiries = expiryRunner();
    clock.advance(23 * 60 * 60 * 1000 - 1000);
    await expiries.runDue();
    expect((await get(pending)).body.status).toBe('incomplete');
    clock.advance(2000);
    expect(await expiries.runDue()).toBeGreaterThanOrEqual(1);
    expect((await get(pending)).body.status).toBe('incomplete_expired');
    const job = await server.database.db.selectFrom('jobs').select(['state', 'attempts']).where('unique_key', '=', `expire-pending-update:${pending}`).execute();
    expect(job).toEqual([{ state: 'succeeded', attempts: 1 }]);
    expect((await get(first)).body).toMatchObject({ status: 'active', amount: '10.00' });
  });

  it('applies an activate_on_payment change at once when the saved card pays', async () => {
    const customerId = await paidCustomer();
    const first = (await subscribe(customerId, s.plans.basic)).body.id;
    const res = await update(first, { planIdentifier: s.plans.pro, chargePeriod: 'MONTHLY', paymentBehavior: 'activate_on_payment' });
    expect((await get(res.body.subscriptionId)).body.status).toBe('active');
    expect((await get(first)).body.status).toBe('superseded');
  });

  it('switches without settling the difference with NEXT_BILLING_CYCLE, and refuses a failed charge otherwise', async () => {
    const customerId = await paidCustomer();
    const first = (await subscribe(customerId, s.plans.basic)).body.id;
    const next = (await update(first, { planIdentifier: s.plans.pro, chargePeriod: 'MONTHLY', probationBehaviour: 'NEXT_BILLING_CYCLE' })).body.subscriptionId;
    expect(await ordersOf([next])).toEqual([]);
    await s.card(customerId, CARDS.declined).then((m: any) => s.call('POST', `/payment-methods/${m.id}/default/`));
    clock.advance(DAY);
    const refused = await update(next, { planIdentifier: s.plans.basic, chargePeriod: 'YEARLY' });
    expect(refused.status).toBe(400);
    expect((await get(next)).body.status).toBe('active');
  });

  it('lets one of several concurrent updates win, never two', async () => {
    const customerId = await paidCustomer();
    const first = (await subscribe(customerId, s.plans.basic)).body.id;
    const results = await Promise.all(
      Array.from({ length: 5 }, () => update(first, { planIdentifier: s.plans.pro, chargePeriod: 'MONTHLY' })),
    );
    expect(results.filter((r) => r.status === 200)).toHaveLength(1);
    // The others lose: refused while the winner's payment is in flight (409), or after it changed the subscription (400).
    const losers = results.filter((r) => r.status !== 200);
    expect(losers).toHaveLength(4);
    for (const loser of losers) {
      expect([400, 409]).toContain(loser.status);
      expect(['payment_in_progress', 'update_in_progress', 'not_updatable']).toContain(loser.body.code);
    }
    const live = await s.call('GET', `/subscriptions/?customer_id=${customerId}&status=active`);
    expect(live.body.count).toBe(1);
  });
});

describe('cancelling subscriptions', () => {
  it('cancels now, at period end, or on a date', async () => {
    const now = (await subscribe(await paidCustomer(), s.plans.basic)).body.id;
    const res = await s.call('POST', `/subscriptions/${now}/cancel/`, { cancellationType: 'IMMEDIATE', cancellationFeedback: 'TOO_EXPENSIVE' });
    expect(res.body).toEqual({ message: 'Subscription cancellation processed successfully.' });
    expect((await get(now)).body).toMatchObject({ status: 'canceled', cancellationReason: 'CANCELLED_BY_MERCHANT', cancellationFeedback: 'TOO_EXPENSIVE' });
    expect((await s.call('POST', `/subscriptions/${now}/cancel/`, { cancellationType: 'IMMEDIATE' })).status).toBe(400);

    const later = (await subscribe(await paidCustomer(), s.plans.basic)).body.id;
    await s.call('POST', `/subscriptions/${later}/cancel/`, { cancellationType: 'CURRENT_PERIOD_ENDS' });
    expect((await get(later)).body).toMatchObject({ status: 'active', endDate: '2026-02-01T00:00:00.000Z' });

    const dated = (await subscribe(await paidCustomer(), s.plans.basic)).body.id;
    expect((await s.call('POST', `/subscriptions/${dated}/cancel/`, { cancellationType: 'SPECIFIC_DATE' })).status).toBe(400);
    await s.call('POST', `/subscriptions/${dated}/cancel/`, { cancellationType: 'SPECIFIC_DATE', cancellationDate: '2026-01-20' });
    expect((await get(dated)).body).toMatchObject({ status: 'active', endDate: '2026-01-20T00:00:00.000Z' });
  });
});

describe('the official client', () => {
  it('updates and cancels subscriptions through subscriptions.update and subscriptions.cancel', async () => {
    const client = officialClient(server, org.sandbox.serverKey);
    const customerId = await paidCustomer();
    const first = (await subscribe(customerId, s.plans.basic)).body.id;
    const updated = (await client.subscriptions.update({ subscriptionId: first, planIdentifier: s.plans.pro, chargePeriod: 'MONTHLY' } as any)) as any;
    expect(updated.subscriptionId).toBeTypeOf('string');
    expect((await get(updated.subscriptionId)).body.plan.identifier).toBe(s.plans.pro);
    const cancelled = (await client.subscriptions.cancel({ subscriptionId: updated.subscriptionId, cancellationType: 'IMMEDIATE' } as any)) as any;
    expect(cancelled.message).toMatch(/processed/);
    expect((await get(updated.subscriptionId)).body.status).toBe('canceled');
  });
});
