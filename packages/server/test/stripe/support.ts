import { randomBytes } from 'node:crypto';
import pg from 'pg';
import Stripe from 'stripe';
import { connectDatabase, type DatabaseHandle } from '../../src/db/connect.js';
import { migrate } from '../../src/db/migrate.js';
import { shop } from '../commerce-support.js';
import { startTestServer, uniqueId, type TestOrg, type TestServer } from '../harness.js';
import { StripeStandIn } from './stand-in.js';

export const LIVE_KEY = 'sk_live_51BillowTestAccountKey0000000000';
export const TEST_KEY = 'sk_test_51BillowTestAccountKey0000000000';
export const WEBHOOK_SECRET = 'whsec_billowtestsigningsecret000000000';

async function asAdmin(url: string, statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

/**
 * On PostgreSQL, a database of its own: other test files' servers share DATABASE_URL and run
 * any due job or stale payment they find, and they know no Stripe stand-in (they would try
 * Stripe itself). Dropped when the server closes. On PGlite every server has its own already.
 */
async function ownDatabase(): Promise<{ database: DatabaseHandle; drop: () => Promise<void> } | null> {
  const url = process.env.DATABASE_URL;
  if (!url) return null;
  const name = `billow_stripe_${randomBytes(6).toString('hex')}`;
  await asAdmin(url, `CREATE DATABASE ${name}`);
  const target = new URL(url);
  target.pathname = `/${name}`;
  const database = await connectDatabase({ databaseUrl: target.href, dataDir: null, poolSize: 5 });
  await migrate(database.db);
  return {
    database,
    drop: async () => {
      await database.close();
      await asAdmin(url, `DROP DATABASE IF EXISTS ${name}`);
    },
  };
}

/** A Billow server whose Stripe is the local stand-in, with an organization and a shop in `prefix`. */
export async function stripeShop(prefix: '' | '/sandbox' = '', options: { env?: Record<string, string> } = {}) {
  const stand = await new StripeStandIn().start();
  const own = await ownDatabase();
  const server = await startTestServer({ env: { BILLOW_STRIPE_API_URL: stand.url, ...options.env }, ...(own ? { database: own.database } : {}) });
  if (own) {
    const close = server.close.bind(server);
    server.close = async () => {
      await close();
      await own.drop();
    };
  }
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
