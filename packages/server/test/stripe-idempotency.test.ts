/**
 * Stripe's Idempotency-Key rules (decision 0050): the same key with the same request
 * answers the first answer again; with other parameters Stripe refuses it
 * (`idempotency_error`). Billow sends every retry of a payment exactly as first sent,
 * derives a key from every parameter it covers, and treats a refused key as its own fault:
 * reported, answered with its own code, and never left as a payment waiting for Stripe.
 * Run against Billow's stand-in and, where it has the path, against localstripe.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recoverPayments } from '../src/job-handlers/recover-payments.js';
import { systemClock } from '../src/lib/clock.js';
import { csrfOf, getPage, postForm } from './checkout/support.js';
import { shop, type Shop } from './commerce-support.js';
import type { TestServer } from './harness.js';
import { startIsolatedServer } from './isolated-server.js';
import { localstripeBackend, standInBackend, type StripeBackend } from './stripe/backends.js';
import type { StripeStandIn } from './stripe/stand-in.js';
import { LIVE_KEY, WEBHOOK_SECRET } from './stripe/support.js';

interface World {
  backend: StripeBackend;
  server: TestServer;
  s: Shop;
}

/** A Billow server whose production payments go to `backend`. */
async function worldOf(backend: StripeBackend): Promise<World> {
  const server = await startIsolatedServer('stripe', { env: { BILLOW_STRIPE_API_URL: backend.url } });
  const org = await server.createOrg();
  const s = await shop(server, org.production.serverKey, '');
  const res = await s.call('PUT', '/payment-provider/', { provider: 'stripe', stripeSecretKey: LIVE_KEY, stripeWebhookSecret: WEBHOOK_SECRET, stripePublishableKey: 'pk_live_51BillowIdempotency' });
  if (res.status !== 200) throw new Error(`configure: ${res.status} ${res.text}`);
  return { backend, server, s };
}

let standIn: World;
let stand: StripeStandIn;
let local: World | null = null;

beforeAll(async () => {
  const backend = await standInBackend();
  stand = backend.stand;
  standIn = await worldOf(backend);
  const localstripe = await localstripeBackend();
  if (localstripe) local = await worldOf(localstripe);
}, 180_000);
afterAll(async () => {
  for (const world of [standIn, local]) {
    await world?.server.close();
    await world?.backend.close();
  }
});

function expectStatus(res: { status: number; text: string }, status: number) {
  if (res.status !== status) throw new Error(`${status} expected: ${res.status} ${res.text}`);
}

async function intentsOf({ server }: World, customerPk: string) {
  return server.database.db.selectFrom('payment_intents').select(['status', 'provider_key', 'failure_code']).where('customer_id', '=', customerPk).orderBy('created_at').execute();
}

async function customerPkOf({ server }: World, customerId: string): Promise<string> {
  return (await server.database.db.selectFrom('customers').select('id').where('customer_id', '=', customerId).executeTakeFirstOrThrow()).id;
}

const each = (name: string, test: (world: World) => Promise<void>) => {
  it(`${name} (stand-in)`, () => test(standIn));
  it(`${name} (localstripe)`, (context) => (local ? test(local) : context.skip()));
};

describe('the Stripe customer of a Billow customer', () => {
  each('a buyer who corrects the email after a refused card saves the next card', async (world) => {
    const { s } = world;
    const customerId = await s.customer();
    expectStatus(await s.call('PATCH', `/customers/${customerId}/`, { email: 'ada@exampel.com' }), 200);
    const refused = await s.call('POST', '/payment-methods/stripe/', { customerId, stripePaymentMethod: 'pm_missing00000000' });
    expectStatus(refused, 400);
    expect(refused.body.code).toBe('invalid_payment_method');
    expectStatus(await s.call('PATCH', `/customers/${customerId}/`, { email: 'ada@example.com' }), 200);
    const saved = await s.call('POST', '/payment-methods/stripe/', { customerId, stripePaymentMethod: await world.backend.card() });
    expectStatus(saved, 201);
    const charge = await s.call('POST', '/charges/', { planIdentifier: s.plans.lifetime, chargePeriod: 'ONE_TIME', customerId });
    expectStatus(charge, 201);
  });
});

describe('a payment whose first answer from Stripe was lost', () => {
  it('the hosted checkout stays processing while Stripe is away, then the recovery task sends the same request and records it once', async () => {
    const { s, server } = standIn;
    const created = await s.call('POST', '/checkout/', { planIdentifier: s.plans.lifetime, chargePeriod: 'ONE_TIME', successUrl: 'https://shop.example/thanks' });
    expectStatus(created, 201);
    const url = created.body.checkoutUrl as string;
    const session = async () => (await s.call('GET', `/checkout/sessions/${created.body.checkoutSessionId}/`)).body.status as string;
    const csrf = csrfOf((await getPage(url)).text);
    stand.loseNextAnswers(3);
    const form = { csrf_token: csrf, action: 'pay', email: 'lost@example.com', name: 'Lost', country: 'US', stripe_payment_method: 'pm_card_visa_lostanswer' };
    expect((await postForm(url, form)).status).toBeGreaterThanOrEqual(400);
    expect(await session()).toBe('processing');

    // Stripe still away: the session is not opened again for a second payment.
    stand.failNext(20);
    await recoverPayments(server.database.db, systemClock, 60_000, 0);
    stand.failNext(0);
    expect(await session()).toBe('processing');

    const { failures } = await recoverPayments(server.database.db, systemClock, 60_000, 0);
    expect(failures).toEqual([]);
    expect(await session()).toBe('success');
    const charged = [...stand.intents.values()].filter((i) => i.payment_method === 'pm_card_visa_lostanswer');
    expect(charged.map((i) => [i.status, i.off_session])).toEqual([['succeeded', false]]);
  });
});

/** A charge of a new customer's card whose PaymentIntent key Stripe refuses (after carrying out a first request, or not). */
async function chargeWithRefusedKey(paymentMethod: string, afterCreating: boolean) {
  const { s } = standIn;
  const customerId = await s.customer();
  expectStatus(await s.call('POST', '/payment-methods/stripe/', { customerId, stripePaymentMethod: paymentMethod }), 201);
  stand.refuseNextKey({ afterCreating });
  const charge = await s.call('POST', '/charges/', { planIdentifier: s.plans.lifetime, chargePeriod: 'ONE_TIME', customerId });
  return { customerId, charge };
}

describe("Stripe's idempotency_error", () => {
  it('is answered with its own code, not 503, and the payment fails at once rather than waiting', async () => {
    const { customerId, charge } = await chargeWithRefusedKey('pm_card_visa_refusedkey', false);
    expectStatus(charge, 400);
    expect(charge.body.code).toBe('provider_idempotency_error');
    const pk = await customerPkOf(standIn, customerId);
    expect((await intentsOf(standIn, pk)).map((i) => [i.status, i.failure_code])).toEqual([['failed', 'provider_idempotency_error']]);
  });

  it('finds the PaymentIntent the first request made under the key, and records the purchase it paid for', async () => {
    const { customerId, charge } = await chargeWithRefusedKey('pm_card_visa_madebefore', true);
    expectStatus(charge, 201);
    const pk = await customerPkOf(standIn, customerId);
    expect((await intentsOf(standIn, pk)).map((i) => i.status)).toEqual(['succeeded']);
    expect([...stand.intents.values()].filter((i) => i.payment_method === 'pm_card_visa_madebefore')).toHaveLength(1);
  });

  it('refused while saving a card: 409 with its own code, not 503', async () => {
    const { s } = standIn;
    const customerId = await s.customer();
    stand.refuseNextKey({ afterCreating: false });
    const saved = await s.call('POST', '/payment-methods/stripe/', { customerId, stripePaymentMethod: 'pm_card_visa_refusedsave' });
    expectStatus(saved, 409);
    expect(saved.body.code).toBe('payment_provider_idempotency_error');
  });
});
