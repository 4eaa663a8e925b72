import Stripe from 'stripe';
import type { Clock } from '../../src/lib/clock.js';
import { shop } from '../commerce-support.js';
import { uniqueId, type TestOrg, type TestServer } from '../harness.js';
import { startIsolatedServer } from '../isolated-server.js';
import { StripeStandIn } from './stand-in.js';

export const LIVE_KEY = 'sk_live_51BillowTestAccountKey0000000000';
export const TEST_KEY = 'sk_test_51BillowTestAccountKey0000000000';
export const WEBHOOK_SECRET = 'whsec_billowtestsigningsecret000000000';

/** A Billow server whose Stripe is the local stand-in, with an organization and a shop in `prefix`. */
export async function stripeShop(prefix: '' | '/sandbox' = '', options: { env?: Record<string, string>; clock?: Clock } = {}) {
  const stand = await new StripeStandIn().start();
  // Other files' servers know no stand-in: they would try Stripe itself for this file's due jobs.
  const server = await startIsolatedServer('stripe', { env: { BILLOW_STRIPE_API_URL: stand.url, ...options.env }, ...(options.clock ? { clock: options.clock } : {}) });
  const org = await server.createOrg();
  const key = prefix === '' ? org.production.serverKey : org.sandbox.serverKey;
  const s = await shop(server, key, prefix);
  return { stand, server, org, s, key };
}

export async function configureStripe(s: Awaited<ReturnType<typeof shop>>, secretKey = LIVE_KEY) {
  const res = await s.call('PUT', '/payment-provider/', { provider: 'stripe', stripeSecretKey: secretKey, stripeWebhookSecret: WEBHOOK_SECRET });
  if (res.status !== 200) throw new Error(`configure: ${res.status} ${res.text}`);
  return res.body;
}

/** Saves a Stripe card (pm_… of the stand-in) for a customer, as the checkout's Payment Element would. */
export async function stripeCard(s: Awaited<ReturnType<typeof shop>>, customerId: string, kind = 'visa') {
  const res = await s.call('POST', '/payment-methods/stripe/', { customerId, stripePaymentMethod: `pm_card_${kind}_${uniqueId('m').replace(/[^A-Za-z0-9]/g, '')}` });
  if (res.status !== 201) throw new Error(`stripe card: ${res.status} ${res.text}`);
  return res.body;
}

/** Delivers a Stripe event to the environment's webhook URL, signed with the library's own test helper. */
export async function deliver(server: TestServer, environmentId: string, event: { id?: string; type: string; object: unknown }, secret = WEBHOOK_SECRET) {
  const payload = JSON.stringify({
    id: event.id ?? `evt_${uniqueId('e').replace(/[^A-Za-z0-9]/g, '')}`,
    object: 'event',
    type: event.type,
    api_version: '2026-01-01',
    created: Math.floor(Date.now() / 1000),
    livemode: false,
    data: { object: event.object },
  });
  const header = Stripe.webhooks.generateTestHeaderString({ payload, secret });
  return server.request('POST', `/providers/stripe/webhook/${environmentId}`, {
    key: null,
    rawBody: payload,
    headers: { 'content-type': 'application/json', 'stripe-signature': header },
  });
}

export async function environmentIdOf(server: TestServer, org: TestOrg, kind: 'sandbox' | 'production'): Promise<string> {
  const row = await server.database.db
    .selectFrom('environments')
    .select('id')
    .where('organization_id', '=', org.organizationId)
    .where('kind', '=', kind)
    .executeTakeFirstOrThrow();
  return row.id;
}
