/**
 * Renewals and dunning on Stripe, in a sandbox that uses Stripe's test mode (decision 0039):
 * the sandbox's test clocks drive the billing engine, and each renewal is an off-session
 * PaymentIntent on the stand-in of Stripe's API (test/stripe/stand-in.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { uniqueId, type TestServer } from './harness.js';
import type { Shop } from './commerce-support.js';
import type { StripeStandIn } from './stripe/stand-in.js';
import { configureStripe, stripeCard, stripeShop, TEST_KEY } from './stripe/support.js';

let stand: StripeStandIn;
let server: TestServer;
let s: Shop;

beforeAll(async () => {
  ({ stand, server, s } = await stripeShop('/sandbox'));
  await configureStripe(s, TEST_KEY);
});
afterAll(async () => {
  await server?.close();
  await stand?.close();
});

function expectStatus(res: { status: number; text: string }, status: number) {
  if (res.status !== status) throw new Error(`${status} expected: ${res.status} ${res.text}`);
}

async function advance(clockId: string, frozenTime: string): Promise<void> {
  expectStatus(await s.call('POST', `/test-clocks/${clockId}/advance/`, { frozenTime }), 200);
  let clock = await s.call('GET', `/test-clocks/${clockId}/`);
  for (let tries = 0; clock.body.status === 'advancing' && tries < 300; tries++) {
    if ((await server.runJobs()) === 0) await new Promise((resolve) => setTimeout(resolve, 100));
    clock = await s.call('GET', `/test-clocks/${clockId}/`);
  }
  expect(clock.body).toMatchObject({ status: 'ready', failure: null });
}

async function subscribedOnClock(start: string) {
  const clock = await s.call('POST', '/test-clocks/', { name: uniqueId('clock'), frozenTime: start });
  expectStatus(clock, 201);
  const customerId = await s.customer({ testClockId: clock.body.id });
  const method = await stripeCard(s, customerId);
  const res = await s.call('POST', '/subscriptions/create/', { planIdentifier: s.plans.basic, chargePeriod: 'MONTHLY', customerId });
  expectStatus(res, 201);
  return { clockId: clock.body.id as string, customerId, subscriptionId: res.body.id as string, method };
}

async function renewalIntents(customerId: string) {
  return server.database.db
    .selectFrom('payment_intents as i')
    .innerJoin('customers as c', 'c.id', 'i.customer_id')
    .select(['i.kind', 'i.status', 'i.provider_key', 'i.failure_code'])
    .where('c.customer_id', '=', customerId)
    .where('i.kind', 'in', ['renewal', 'invoice_payment'])
    .orderBy('i.created_at')
    .execute();
}

describe('renewals on Stripe (sandbox in test mode)', () => {
  it('a renewal is charged off session on the saved Stripe card, once', async () => {
    const { clockId, customerId, subscriptionId } = await subscribedOnClock('2027-03-01T00:00:00Z');
    await advance(clockId, '2027-04-01T00:30:00Z');
    const [renewal] = await renewalIntents(customerId);
    expect(renewal).toMatchObject({ kind: 'renewal', status: 'succeeded' });
    const charged = stand.intentOfKey(renewal!.provider_key)!;
    expect(charged).toMatchObject({ amount: 1000, currency: 'usd', off_session: true, status: 'succeeded' });
    expect([...stand.intents.values()].filter((i) => i.metadata.billow_key === renewal!.provider_key)).toHaveLength(1);
    expect((await s.call('GET', `/subscriptions/${subscriptionId}/`)).body.status).toBe('active');
  });

  it('a renewal Stripe declines puts the subscription past_due with its invoice in dunning; a stolen card is not retried', async () => {
    const { clockId, customerId, subscriptionId, method } = await subscribedOnClock('2027-05-01T00:00:00Z');
    stand.setOutcome(/\/(pm_[^/]+)$/.exec(await methodRefOf(method.id))![1]!, 'insufficient_funds');
    await advance(clockId, '2027-06-01T00:30:00Z');
    expect((await s.call('GET', `/subscriptions/${subscriptionId}/`)).body.status).toBe('past_due');
    const [invoice] = await invoicesOf(subscriptionId);
    expect(invoice).toMatchObject({ status: 'PAYMENT_FAILED', attempt_count: 1, failure_code: 'insufficient_funds' });
    expect(invoice!.next_attempt_at).not.toBeNull();
    expect((await renewalIntents(customerId)).map((i) => [i.status, i.failure_code])).toEqual([['failed', 'insufficient_funds']]);

    const stolen = await subscribedOnClock('2027-05-01T00:00:00Z');
    stand.setOutcome(/\/(pm_[^/]+)$/.exec(await methodRefOf(stolen.method.id))![1]!, 'stolen');
    await advance(stolen.clockId, '2027-06-01T00:30:00Z');
    const [hard] = await invoicesOf(stolen.subscriptionId);
    expect(hard).toMatchObject({ status: 'PAYMENT_FAILED', attempt_count: 1, failure_code: 'stolen_card' });
    // Its next attempt is for a new card only: the same card is never charged again, and the subscription ends.
    await advance(stolen.clockId, '2027-06-16T00:00:00Z');
    expect((await s.call('GET', `/subscriptions/${stolen.subscriptionId}/`)).body.status).toBe('canceled');
    expect((await renewalIntents(stolen.customerId)).map((i) => i.kind)).toEqual(['renewal']);
    const stolenRef = await methodRefOf(stolen.method.id);
    expect([...stand.intents.values()].filter((i) => `${i.customer}/${i.payment_method}` === stolenRef)).toHaveLength(2); // the first period, and the one renewal attempt
  });
});

async function methodRefOf(id: number): Promise<string> {
  const row = await server.database.db.selectFrom('payment_methods').select('provider_ref').where('id', '=', id).executeTakeFirstOrThrow();
  return row.provider_ref;
}

/** The subscription's invoices, newest period first. */
function invoicesOf(subscriptionId: string) {
  return server.database.db
    .selectFrom('invoices')
    .select(['status', 'attempt_count', 'failure_code', 'next_attempt_at'])
    .where('subscription_id', '=', subscriptionId)
    .orderBy('period_start', 'desc')
    .execute();
}
