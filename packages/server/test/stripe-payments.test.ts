/**
 * Production payments on the seller's Stripe account (decision 0039), through the official
 * library pointed at a local stand-in of Stripe's API (test/stripe/stand-in.ts): nothing
 * leaves the machine.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recoverPayments } from '../src/job-handlers/recover-payments.js';
import { systemClock } from '../src/lib/clock.js';
import { uniqueId, type TestOrg, type TestServer } from './harness.js';
import type { Shop } from './commerce-support.js';
import type { StripeStandIn } from './stripe/stand-in.js';
import { configureStripe, deliver, environmentIdOf, LIVE_KEY, stripeCard, stripeShop, TEST_KEY, WEBHOOK_SECRET } from './stripe/support.js';

let stand: StripeStandIn;
let server: TestServer;
let org: TestOrg;
let s: Shop;
let environmentId: string;

beforeAll(async () => {
  ({ stand, server, org, s } = await stripeShop(''));
  environmentId = await environmentIdOf(server, org, 'production');
});
afterAll(async () => {
  await server?.close();
  await stand?.close();
});

const db = () => server.database.db;

function expectStatus(res: { status: number; text: string }, status: number) {
  if (res.status !== status) throw new Error(`${status} expected: ${res.status} ${res.text}`);
}

async function intentsOf(customerId: string) {
  return db()
    .selectFrom('payment_intents as i')
    .innerJoin('customers as c', 'c.id', 'i.customer_id')
    .select(['i.id', 'i.status', 'i.provider_key', 'i.provider_ref', 'i.failure_code'])
    .where('c.customer_id', '=', customerId)
    .orderBy('i.created_at')
    .execute();
}

async function ordersOf(customerId: string): Promise<string[]> {
  const res = await s.call('GET', `/orders/?customer_id=${customerId}`);
  expectStatus(res, 200);
  return res.body.results.map((o: { id: string }) => o.id);
}

const lifetime = (customerId: string) => ({ planIdentifier: s.plans.lifetime, chargePeriod: 'ONE_TIME', customerId });

describe('configuring Stripe for an environment', () => {
  it('until it is configured, production purchases answer 428 and the settings 404', async () => {
    expectStatus(await s.call('GET', '/payment-provider/'), 404);
    const customerId = await s.customer();
    const res = await s.call('POST', '/charges/', lifetime(customerId));
    expectStatus(res, 428);
    expect(res.body.code).toBe('payment_provider_required');
    expect(res.body.detail).toMatch(/billow provider set/);
  });

  it('refuses keys that are not Stripe keys, and live keys in the sandbox, changing nothing', async () => {
    const bad = await s.call('PUT', '/payment-provider/', { provider: 'stripe', stripeSecretKey: 'pk_live_abcdefgh1234', stripeWebhookSecret: WEBHOOK_SECRET });
    expectStatus(bad, 400);
    expect(bad.body.detail).toMatch(/^stripeSecretKey: /);
    const badHook = await s.call('PUT', '/payment-provider/', { provider: 'stripe', stripeSecretKey: LIVE_KEY, stripeWebhookSecret: 'secret' });
    expectStatus(badHook, 400);
    expect(badHook.body.detail).toMatch(/^stripeWebhookSecret: /);
    const sandboxLive = await server.request('PUT', '/sandbox/api/v1/payment-provider/', {
      key: org.sandbox.serverKey,
      body: { provider: 'stripe', stripeSecretKey: LIVE_KEY, stripeWebhookSecret: WEBHOOK_SECRET },
    });
    expectStatus(sandboxLive, 400);
    expect(sandboxLive.body.detail).toMatch(/test-mode/);
    expectStatus(await s.call('GET', '/payment-provider/'), 404);
  });

  it('stores the keys sealed, and shows only hints of them', async () => {
    const view = await configureStripe(s);
    expect(view).toMatchObject({ provider: 'stripe', mode: 'live', secretKeyHint: 'sk_live_…0000', webhookSecretHint: 'whsec_…0000', webhookPath: `/providers/stripe/webhook/${environmentId}` });
    const shown = await s.call('GET', '/payment-provider/');
    expectStatus(shown, 200);
    expect(shown.body).toEqual(view);
    expect(shown.text).not.toContain(LIVE_KEY);
    expect(shown.text).not.toContain(WEBHOOK_SECRET);
    const row = await db().selectFrom('payment_providers').selectAll().where('environment_id', '=', environmentId).executeTakeFirstOrThrow();
    expect(JSON.stringify(row)).not.toContain(LIVE_KEY.slice(8));
    expect(JSON.stringify(row)).not.toContain(WEBHOOK_SECRET.slice(6));
  });

  it('can be removed (428 again) and set again', async () => {
    const other = await stripeShop('');
    try {
      await configureStripe(other.s, TEST_KEY);
      expectStatus(await other.s.call('DELETE', '/payment-provider/'), 204);
      expectStatus(await other.s.call('GET', '/payment-provider/'), 404);
      const customerId = await other.s.customer();
      expectStatus(await other.s.call('POST', '/charges/', { planIdentifier: other.s.plans.lifetime, chargePeriod: 'ONE_TIME', customerId }), 428);
      expect((await configureStripe(other.s, TEST_KEY)).mode).toBe('test');
    } finally {
      await other.server.close();
      await other.stand.close();
    }
  });
});

describe('what each environment pays with, and what a typed card is told', () => {
  const sandboxCall = (method: string, body?: unknown) =>
    server.request(method, '/sandbox/api/v1/payment-provider/', { key: org.sandbox.serverKey, ...(body ? { body } : {}) });

  it('a sandbox without Stripe answers its built-in provider; with Stripe, the Stripe account; without it again, the built-in one', async () => {
    const builtIn = { provider: 'sandbox', mode: 'test', secretKeyHint: null, webhookSecretHint: null, publishableKey: null, webhookPath: null, updatedOn: null };
    const before = await sandboxCall('GET');
    expectStatus(before, 200);
    expect(before.body).toEqual(builtIn);
    expectStatus(await sandboxCall('PUT', { provider: 'stripe', stripeSecretKey: TEST_KEY, stripeWebhookSecret: WEBHOOK_SECRET }), 200);
    const withStripe = await sandboxCall('GET');
    expectStatus(withStripe, 200);
    expect(withStripe.body).toMatchObject({ provider: 'stripe', mode: 'test', secretKeyHint: 'sk_test_…0000' });
    expectStatus(await sandboxCall('DELETE'), 204);
    expect((await sandboxCall('GET')).body).toEqual(builtIn);
  });

  it('a card number sent to production with Stripe configured is refused with what works there', async () => {
    await configureStripe(s);
    const customerId = await s.customer();
    const res = await s.call('POST', '/payment-methods/', { customerId, cardNumber: '4242 4242 4242 4242', expMonth: 12, expYear: 2035, cvc: '123' });
    expectStatus(res, 403);
    expect(res.body.code).toBe('sandbox_only');
    expect(res.body.detail).toMatch(/POST \/api\/v1\/payment-methods\/stripe\//);
    expect(res.body.detail).not.toMatch(/no payment provider/);
  });
});

describe('production purchases on Stripe', () => {
  it('a card saved from Stripe is charged once, off session, under a key derived from the intent; the order is recorded', async () => {
    const customerId = await s.customer();
    const method = await stripeCard(s, customerId);
    expect(method).toMatchObject({ methodType: 'card', isDefault: true, methodData: { brand: 'visa', last4: '4242', expMonth: 12, expYear: 2034 } });
    const res = await s.call('POST', '/charges/', lifetime(customerId));
    expectStatus(res, 201);
    const [intent] = await intentsOf(customerId);
    expect(intent).toMatchObject({ status: 'succeeded', provider_key: `billow_pi_${intent!.id}` });
    const charged = stand.intentOfKey(intent!.provider_key)!;
    expect(charged).toMatchObject({ amount: 4900, currency: 'usd', off_session: true, status: 'succeeded' });
    expect(intent!.provider_ref).toBe(charged.id);
    const creates = stand.requests.filter((r) => r.path === '/v1/payment_intents' && r.idempotencyKey === intent!.provider_key);
    expect(creates).toHaveLength(1);
    expect(await ordersOf(customerId)).toHaveLength(1);
  });

  it('a refund is made on Stripe, under the refund\'s own key', async () => {
    const customerId = await s.customer();
    await stripeCard(s, customerId);
    const charge = await s.call('POST', '/charges/', lifetime(customerId));
    expectStatus(charge, 201);
    const [orderId] = await ordersOf(customerId);
    const refund = await s.call('POST', '/refunds/', { orderId, amountUnits: 900 });
    expectStatus(refund, 200);
    expect(refund.body.status).toBe('SUCCEEDED');
    const [intent] = await intentsOf(customerId);
    const refunds = stand.refunds.filter((r) => r.payment_intent === intent!.provider_ref);
    expect(refunds).toHaveLength(1);
    expect(refunds[0]).toMatchObject({ amount: 900, idempotencyKey: expect.stringMatching(/^refund:/) });
    const order = await s.call('GET', `/orders/${orderId}/`);
    expect(order.body.status).toBe('PARTIAL_REFUND');
  });

  it.each([
    ['chargeDeclined', 'card_declined'],
    ['insufficientFunds', 'insufficient_funds'],
    ['stolen', 'stolen_card'],
    ['threeDSecure', 'authentication_required'],
  ])('a card that Stripe declines (%s) answers 400 %s and records no order', async (kind, code) => {
    const customerId = await s.customer();
    await stripeCard(s, customerId, kind);
    const res = await s.call('POST', '/charges/', lifetime(customerId));
    expectStatus(res, 400);
    expect(res.body.code).toBe(code);
    expect(await ordersOf(customerId)).toEqual([]);
    expect((await intentsOf(customerId)).map((i) => [i.status, i.failure_code])).toEqual([['failed', code]]);
  });

  it('a subscription is created with a Stripe charge for its first period', async () => {
    const customerId = await s.customer();
    await stripeCard(s, customerId);
    const res = await s.call('POST', '/subscriptions/create/', { planIdentifier: s.plans.basic, chargePeriod: 'MONTHLY', customerId });
    expectStatus(res, 201);
    const [intent] = await intentsOf(customerId);
    expect(stand.intentOfKey(intent!.provider_key)).toMatchObject({ amount: 1000, status: 'succeeded' });
  });

  it('a Stripe card is refused when the method does not exist, or the customer is unknown', async () => {
    const customerId = await s.customer();
    const missing = await s.call('POST', '/payment-methods/stripe/', { customerId, stripePaymentMethod: 'pm_missing_1' });
    expectStatus(missing, 400);
    expect(missing.body.code).toBe('invalid_payment_method');
    expectStatus(await s.call('POST', '/payment-methods/stripe/', { customerId, stripePaymentMethod: '4242424242424242' }), 400);
    expectStatus(await s.call('POST', '/payment-methods/stripe/', { customerId: uniqueId('nobody'), stripePaymentMethod: 'pm_card_visa' }), 400);
  });
});

describe("Stripe's webhooks", () => {
  it('a payment Stripe is still processing settles when its webhook arrives, once however often it is delivered', async () => {
    const customerId = await s.customer();
    await stripeCard(s, customerId, 'processing');
    const res = await s.call('POST', '/charges/', lifetime(customerId));
    expectStatus(res, 409);
    expect(res.body.code).toBe('payment_in_progress');
    const [pending] = await intentsOf(customerId);
    expect(pending!.status).toBe('processing');
    const paid = stand.finish(stand.intentOfKey(pending!.provider_key)!.id, true);
    const event = { id: `evt_${pending!.id.replace(/-/g, '')}`, type: 'payment_intent.succeeded', object: paid };
    const delivered = await deliver(server, environmentId, event);
    expectStatus(delivered, 200);
    expect(delivered.body).toEqual({ received: true, duplicate: false });
    expect((await intentsOf(customerId)).map((i) => i.status)).toEqual(['succeeded']);
    expect(await ordersOf(customerId)).toHaveLength(1);
    const again = await deliver(server, environmentId, event);
    expect(again.body).toEqual({ received: true, duplicate: true });
    expect(await ordersOf(customerId)).toHaveLength(1);
  });

  it('a webhook that names a PaymentIntent settles by reading it, never by asking for the charge again (its key may be forgotten)', async () => {
    const customerId = await s.customer();
    await stripeCard(s, customerId, 'processing');
    expectStatus(await s.call('POST', '/charges/', lifetime(customerId)), 409);
    const [pending] = await intentsOf(customerId);
    const made = stand.intentOfKey(pending!.provider_key)!;
    const paid = stand.finish(made.id, true);
    stand.forgetKeys();
    const since = stand.requests.length;
    const event = { id: `evt_late_${pending!.id.replace(/-/g, '')}`, type: 'payment_intent.succeeded', object: paid };
    expectStatus(await deliver(server, environmentId, event), 200);
    expect(stand.requests.slice(since).map((r) => `${r.method} ${r.path}`)).toEqual([`GET /v1/payment_intents/${made.id}`]);
    expect([...stand.intents.values()].filter((i) => i.metadata.billow_key === pending!.provider_key)).toHaveLength(1);
    expect((await intentsOf(customerId)).map((i) => [i.status, i.provider_ref])).toEqual([['succeeded', made.id]]);
    expect(await ordersOf(customerId)).toHaveLength(1);
  });

  it('a payment that fails after processing settles failed, with no order', async () => {
    const customerId = await s.customer();
    await stripeCard(s, customerId, 'processing');
    expectStatus(await s.call('POST', '/charges/', lifetime(customerId)), 409);
    const [pending] = await intentsOf(customerId);
    const failed = stand.finish(stand.intentOfKey(pending!.provider_key)!.id, false);
    expectStatus(await deliver(server, environmentId, { type: 'payment_intent.payment_failed', object: failed }), 200);
    expect((await intentsOf(customerId)).map((i) => i.status)).toEqual(['failed']);
    expect(await ordersOf(customerId)).toEqual([]);
  });

  it('a dispute opened is recorded once as an event of the order it disputes', async () => {
    const customerId = await s.customer();
    await stripeCard(s, customerId);
    expectStatus(await s.call('POST', '/charges/', lifetime(customerId)), 201);
    const [orderId] = await ordersOf(customerId);
    const [intent] = await intentsOf(customerId);
    const dispute = { id: 'dp_1', object: 'dispute', amount: 4900, currency: 'usd', reason: 'fraudulent', status: 'needs_response', payment_intent: intent!.provider_ref };
    const event = { id: `evt_dispute_${orderId}`, type: 'charge.dispute.created', object: dispute };
    expectStatus(await deliver(server, environmentId, event), 200);
    expectStatus(await deliver(server, environmentId, event), 200);
    const events = await db().selectFrom('order_events').select(['code', 'metadata']).where('order_id', '=', orderId!).where('code', '=', 'order.dispute_opened').execute();
    expect(events).toHaveLength(1);
    expect(events[0]!.metadata).toMatchObject({ disputeId: 'dp_1', reason: 'fraudulent', amount: 4900, currency: 'USD' });
  });

  it('refuses a delivery whose signature does not verify (400) and a URL with no Stripe account (404)', async () => {
    const object = { id: 'pi_x', object: 'payment_intent', metadata: {} };
    const forged = await deliver(server, environmentId, { type: 'payment_intent.succeeded', object }, 'whsec_someoneelsessecret00000');
    expectStatus(forged, 400);
    expect(forged.body.code).toBe('invalid_signature');
    const unsigned = await server.request('POST', `/providers/stripe/webhook/${environmentId}`, { key: null, rawBody: '{}', headers: { 'content-type': 'application/json' } });
    expectStatus(unsigned, 400);
    expectStatus(await deliver(server, '00000000-0000-4000-8000-000000000000', { type: 'payment_intent.succeeded', object }), 404);
    expectStatus(await deliver(server, 'not-a-uuid', { type: 'payment_intent.succeeded', object }), 404);
  });

  it('a secret key Stripe refuses (revoked, mistyped) fails the payment at once, says so, and is never charged later', async () => {
    const customerId = await s.customer();
    await stripeCard(s, customerId);
    stand.rejectKeys = true;
    try {
      const charge = await s.call('POST', '/charges/', lifetime(customerId));
      expectStatus(charge, 400);
      expect(charge.body.code).toBe('provider_key_rejected');
      expect(charge.body.detail).toMatch(/refused this environment's secret key.*billow provider set/);
      const card = await s.call('POST', '/payment-methods/stripe/', { customerId, stripePaymentMethod: 'pm_card_visa_revoked' });
      expectStatus(card, 503);
      expect(card.body.code).toBe('payment_provider_key_rejected');
    } finally {
      stand.rejectKeys = false;
    }
    const [failed] = await intentsOf(customerId);
    expect(failed!.status).toBe('failed');
    await recoverPayments(db(), systemClock, 60_000, 0);
    expect((await intentsOf(customerId)).map((i) => i.status)).toEqual(['failed']);
    expect(await ordersOf(customerId)).toHaveLength(0);
    expect([...stand.intents.values()].filter((i) => i.metadata.billow_key === failed!.provider_key)).toHaveLength(0);
  });
});

describe('reconciliation', () => {
  it('Stripe not answering leaves the intent processing (503); the recovery task asks again under the same key and records it once', async () => {
    const customerId = await s.customer();
    await stripeCard(s, customerId);
    stand.failNext(10);
    const res = await s.call('POST', '/charges/', lifetime(customerId));
    expectStatus(res, 503);
    expect(res.body.code).toBe('payment_provider_unavailable');
    const [pending] = await intentsOf(customerId);
    expect(pending!.status).toBe('processing');
    stand.failNext(0);
    await recoverPayments(db(), systemClock, 60_000, 0);
    await recoverPayments(db(), systemClock, 60_000, 0);
    expect((await intentsOf(customerId)).map((i) => i.status)).toEqual(['succeeded']);
    expect(await ordersOf(customerId)).toHaveLength(1);
    expect([...stand.intents.values()].filter((i) => i.metadata.billow_key === pending!.provider_key)).toHaveLength(1);
  });
});
