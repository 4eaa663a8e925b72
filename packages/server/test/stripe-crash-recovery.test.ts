/**
 * The real server, with Stripe (the local stand-in of its API) as production's provider,
 * is killed (SIGKILL) after Stripe charged and before the purchase was recorded; started
 * again on the same database, the recovery task asks Stripe under the same key and
 * records the purchase exactly once: one PaymentIntent, one order.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  DATABASE_KIND,
  api,
  assertBuilt,
  killServers,
  makeWorkspace,
  migratedTemplate,
  printedCredentials,
  startServer,
  type Workspace,
} from '../../cli/test/support.js';
import { csrfOf, getPage, postForm } from './checkout/support.js';
import { localstripeBackend, standInBackend, type StripeBackend } from './stripe/backends.js';
import { StripeStandIn } from './stripe/stand-in.js';
import { LIVE_KEY, WEBHOOK_SECRET } from './stripe/support.js';

let template: Workspace | null;
let stand: StripeStandIn;
const workspaces: Workspace[] = [];
const backends: StripeBackend[] = [];
beforeAll(async () => {
  assertBuilt();
  template = await migratedTemplate();
  stand = await new StripeStandIn().start();
  const local = await localstripeBackend();
  backends.push(await standInBackend(), ...(local ? [local] : []));
}, 180_000);
afterAll(async () => {
  await template?.cleanup();
  await stand?.close();
  await Promise.all(backends.map((backend) => backend.close()));
});
afterEach(async () => {
  await killServers();
  await Promise.all(workspaces.splice(0).map((w) => w.cleanup()));
});

type Call = (method: string, path: string, body?: unknown, headers?: Record<string, string>) => Promise<{ status: number; body: any }>;

async function start(w: Workspace, env: Record<string, string>, stripeUrl = stand.url) {
  const server = await startServer({ ...w, env: { ...w.env, BILLOW_STRIPE_API_URL: stripeUrl, ...env } });
  const key = printedCredentials(server.stdout()).production.serverKey;
  const call: Call = (method, path, body, headers) => api(`${server.url}/api/v1${path}`, method, { key, body, headers });
  return { server, call };
}

async function ok(call: Call, method: string, path: string, body: unknown) {
  const res = await call(method, path, body);
  if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

describe(`a server killed after Stripe charged, on ${DATABASE_KIND}`, () => {
  it('is reconciled by the recovery task after a restart: one PaymentIntent, one order', async () => {
    const w = await makeWorkspace({ emptyDatabase: true, copyOf: template });
    workspaces.push(w);
    const short = { BILLOW_PAYMENT_RECOVERY_AFTER_MS: '200', BILLOW_JOB_LEASE_MS: '1000', BILLOW_IDEMPOTENCY_LEASE_MS: '100' };
    const first = await start(w, { ...short, BILLOW_FAILPOINTS: 'payment.after-provider' });
    await ok(first.call, 'PUT', '/payment-provider/', { provider: 'stripe', stripeSecretKey: LIVE_KEY, stripeWebhookSecret: WEBHOOK_SECRET });
    const product = await ok(first.call, 'POST', '/catalog/products/', { name: 'Live', identifier: 'live', taxCode: 'saas' });
    await ok(first.call, 'POST', '/catalog/plans/', { name: 'Lifetime', product: product.id, identifier: 'lifetime' });
    const charges = [{ chargePeriod: 'ONE_TIME', priceData: { amount: 49 } }];
    await ok(first.call, 'POST', '/catalog/plans/lifetime/prices/bulk/', { prices: [{ priceType: 'PAID', currency: 'USD', chargeCatalogPrice: [{ charges }] }] });
    await ok(first.call, 'POST', '/catalog/plans/lifetime/publish/', {});
    await ok(first.call, 'POST', '/customers/', { customerId: 'ada', email: 'ada@example.com' });
    await ok(first.call, 'POST', '/payment-methods/stripe/', { customerId: 'ada', stripePaymentMethod: 'pm_card_visa_crash' });

    await expect(first.call('POST', '/charges/', { planIdentifier: 'lifetime', chargePeriod: 'ONE_TIME', customerId: 'ada' })).rejects.toThrow();
    expect(await first.server.exited).toEqual({ code: null, signal: 'SIGKILL' });
    const charged = [...stand.intents.values()].filter((i) => i.payment_method === 'pm_card_visa_crash');
    expect(charged.map((i) => i.status)).toEqual(['succeeded']);

    const second = await start(w, short);
    const orders = async () => (await second.call('GET', '/orders/?customer_id=ada')).body.results.length as number;
    await expect.poll(orders, { timeout: 15_000, interval: 100 }).toBe(1);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(await orders()).toBe(1);
    expect([...stand.intents.values()].filter((i) => i.payment_method === 'pm_card_visa_crash')).toHaveLength(1);
    const transactions = (await second.call('GET', '/transaction/?customer_id=ada')).body.results;
    expect(transactions.map((t: { transactionType: string }) => t.transactionType)).toEqual(['CHARGE']);
  });
});

/**
 * The hosted checkout pays on session; the recovery task must send that same request
 * again (decision 0050). It once sent it off session, which Stripe refuses under the same
 * key: the intent stayed processing, the session opened again for a second payment, and
 * the buyer was charged with no order.
 */
describe(`a server killed after Stripe charged a hosted checkout, on ${DATABASE_KIND}`, () => {
  for (const name of ['stand-in', 'localstripe'] as const) {
    it(`records the order once after a restart (${name})`, async (context) => {
      const backend = backends.find((b) => b.name === name);
      if (!backend) return context.skip();
      const w = await makeWorkspace({ emptyDatabase: true, copyOf: template });
      workspaces.push(w);
      const short = { BILLOW_PAYMENT_RECOVERY_AFTER_MS: '200', BILLOW_JOB_LEASE_MS: '1000', BILLOW_IDEMPOTENCY_LEASE_MS: '100' };
      const first = await start(w, { ...short, BILLOW_FAILPOINTS: 'payment.after-provider' }, backend.url);
      await ok(first.call, 'PUT', '/payment-provider/', { provider: 'stripe', stripeSecretKey: LIVE_KEY, stripeWebhookSecret: WEBHOOK_SECRET, stripePublishableKey: 'pk_live_51BillowCrash' });
      const product = await ok(first.call, 'POST', '/catalog/products/', { name: 'Live', identifier: 'live', taxCode: 'saas' });
      await ok(first.call, 'POST', '/catalog/plans/', { name: 'Lifetime', product: product.id, identifier: 'lifetime' });
      const charges = [{ chargePeriod: 'ONE_TIME', priceData: { amount: 49 } }];
      await ok(first.call, 'POST', '/catalog/plans/lifetime/prices/bulk/', { prices: [{ priceType: 'PAID', currency: 'USD', chargeCatalogPrice: [{ charges }] }] });
      await ok(first.call, 'POST', '/catalog/plans/lifetime/publish/', {});
      const session = await ok(first.call, 'POST', '/checkout/', { planIdentifier: 'lifetime', chargePeriod: 'ONE_TIME', successUrl: 'https://shop.example/thanks' });
      const card = await backend.card();
      const csrf = csrfOf((await getPage(session.checkoutUrl)).text);
      const form = { csrf_token: csrf, action: 'pay', email: 'ada@example.com', name: 'Ada', country: 'US', stripe_payment_method: card };
      await expect(postForm(session.checkoutUrl, form)).rejects.toThrow();
      expect(await first.server.exited).toEqual({ code: null, signal: 'SIGKILL' });
      const paid = async () => (await backend.paymentIntents()).filter((i) => i.payment_method === card);
      expect((await paid()).map((i) => i.status)).toEqual(['succeeded']);

      const second = await start(w, short, backend.url);
      const status = async () => (await second.call('GET', `/checkout/sessions/${session.checkoutSessionId}/`)).body.status as string;
      await expect.poll(status, { timeout: 15_000, interval: 100 }).toBe('success');
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect((await second.call('GET', '/orders/')).body.results).toHaveLength(1);
      expect(await paid()).toHaveLength(1);
    });
  }
});
