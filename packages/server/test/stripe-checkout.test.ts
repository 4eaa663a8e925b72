/**
 * The hosted checkout where payments go to Stripe (decision 0039): the page mounts
 * Stripe's Payment Element and never shows a card field, its policy allows exactly
 * Stripe.js, the posted PaymentMethod is charged on session, and a card that asks for
 * 3-D Secure completes when Stripe's webhook says so. Stripe.js itself cannot load here
 * (no network): the browser test checks the page Billow serves around it.
 */
import { launchChromium, screenshotsIn, skipBrowserTests } from './browser.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { uniqueId, type TestOrg, type TestServer } from './harness.js';
import type { Shop } from './commerce-support.js';
import { csrfOf, getPage, postForm } from './checkout/support.js';
import type { StripeStandIn } from './stripe/stand-in.js';
import { deliver, environmentIdOf, LIVE_KEY, stripeShop, WEBHOOK_SECRET } from './stripe/support.js';

const PUBLISHABLE_KEY = 'pk_live_51BillowTestAccountKey0000000000';

let stand: StripeStandIn;
let server: TestServer;
let org: TestOrg;
let s: Shop;
let environmentId: string;

beforeAll(async () => {
  ({ stand, server, org, s } = await stripeShop(''));
  environmentId = await environmentIdOf(server, org, 'production');
  const res = await s.call('PUT', '/payment-provider/', { provider: 'stripe', stripeSecretKey: LIVE_KEY, stripeWebhookSecret: WEBHOOK_SECRET, stripePublishableKey: PUBLISHABLE_KEY });
  if (res.status !== 200) throw new Error(res.text);
});
afterAll(async () => {
  await server?.close();
  await stand?.close();
});

async function session(): Promise<{ id: string; url: string }> {
  const res = await s.call('POST', '/checkout/', { planIdentifier: s.plans.lifetime, chargePeriod: 'ONE_TIME', successUrl: 'https://shop.example/thanks' });
  if (res.status !== 201) throw new Error(`session: ${res.status} ${res.text}`);
  return { id: res.body.checkoutSessionId, url: res.body.checkoutUrl };
}

const pay = (csrf: string, paymentMethod: string) => ({
  csrf_token: csrf,
  action: 'pay',
  email: `${uniqueId('buyer')}@example.com`,
  name: 'Ada Buyer',
  country: 'US',
  stripe_payment_method: paymentMethod,
});

async function sessionRow(id: string) {
  return server.database.db.selectFrom('checkout_sessions').select(['status', 'customer_id']).where('id', '=', id).executeTakeFirstOrThrow();
}

async function ordersOfCustomer(customerPk: string) {
  return server.database.db.selectFrom('orders').select('id').where('customer_id', '=', customerPk).execute();
}

describe('the production checkout with Stripe', () => {
  it("renders Stripe's mount point and Stripe.js, never a card field, with a policy that allows exactly Stripe", async () => {
    const { url } = await session();
    const page = await getPage(url);
    expect(page.status).toBe(200);
    expect(page.text).toContain(`<div id="payment-element" data-stripe-publishable-key="${PUBLISHABLE_KEY}" data-currency="usd"`);
    expect(page.text).toContain('<script src="https://js.stripe.com/v3/"></script>');
    expect(page.text).not.toMatch(/name="(card_number|cvc|expiry)"/);
    const csp = page.headers.get('content-security-policy')!;
    expect(csp).toContain("script-src 'self' https://js.stripe.com;");
    expect(csp).toContain("connect-src 'self' https://api.stripe.com;");
    expect(csp).toContain('frame-src https://js.stripe.com https://hooks.stripe.com;');
    expect(csp).not.toContain('unsafe-inline');
    const script = /src="(\/checkout\/assets\/stripe-element\.[0-9a-f]+\.js)"/.exec(page.text)![1]!;
    const asset = await getPage(`${server.url}${script}`);
    expect([asset.status, asset.headers.get('content-type')]).toEqual([200, 'text/javascript; charset=utf-8']);
    expect(asset.text).toContain('createPaymentMethod');
  });

  it('charges the posted PaymentMethod on session and completes the session once', async () => {
    const { id, url } = await session();
    const csrf = csrfOf((await getPage(url)).text);
    const res = await postForm(url, pay(csrf, 'pm_card_visa_checkout'));
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe(`https://shop.example/thanks?checkout_session_id=${id}`);
    const row = await sessionRow(id);
    expect(row.status).toBe('success');
    expect(await ordersOfCustomer(row.customer_id!)).toHaveLength(1);
    const charged = [...stand.intents.values()].filter((i) => i.payment_method === 'pm_card_visa_checkout');
    expect(charged.map((i) => [i.status, i.off_session, i.amount])).toEqual([['succeeded', false, 4900]]);
  });

  it('a PaymentMethod Stripe does not know is a problem on the page, and nothing is charged', async () => {
    const { id, url } = await session();
    const csrf = csrfOf((await getPage(url)).text);
    const res = await postForm(url, pay(csrf, 'pm_missing_card'));
    expect(res.status).toBe(422);
    expect(res.text).toContain('This card could not be used');
    expect(res.text).toContain('id="payment-element"');
    expect((await sessionRow(id)).status).toBe('open');
    const bad = await postForm(url, pay(csrf, '4242424242424242'));
    expect(bad.status).toBe(422);
  });

  it('3-D Secure: the page hands Stripe.js the client secret; the payment completes when Stripe\'s webhook arrives', async () => {
    const { id, url } = await session();
    const csrf = csrfOf((await getPage(url)).text);
    const res = await postForm(url, pay(csrf, 'pm_card_threeDSecure_checkout'));
    expect(res.status).toBe(200);
    const [waiting] = [...stand.intents.values()].filter((i) => i.payment_method === 'pm_card_threeDSecure_checkout');
    expect(waiting!.status).toBe('requires_action');
    expect(res.text).toContain(`data-client-secret="${waiting!.client_secret}"`);
    expect(res.text).toContain('https://js.stripe.com/v3/');
    expect((await sessionRow(id)).status).toBe('processing');

    // The buyer finishes with the bank in Stripe.js; Stripe tells Billow by webhook.
    const paid = stand.finish(waiting!.id, true);
    const delivered = await deliver(server, environmentId, { type: 'payment_intent.succeeded', object: paid });
    expect(delivered.status).toBe(200);
    const row = await sessionRow(id);
    expect(row.status).toBe('success');
    expect(await ordersOfCustomer(row.customer_id!)).toHaveLength(1);
    // The page's own confirmation, arriving after the webhook, changes nothing more.
    const after = await postForm(url, { csrf_token: csrf, action: 'authenticate_approve' });
    expect(after.status).toBe(303);
    expect(await ordersOfCustomer(row.customer_id!)).toHaveLength(1);
    expect([...stand.intents.values()].filter((i) => i.payment_method === 'pm_card_threeDSecure_checkout')).toHaveLength(1);
  });

  it('3-D Secure the buyer fails: recorded as authentication_failed, no order, the session open for another card', async () => {
    const { id, url } = await session();
    const csrf = csrfOf((await getPage(url)).text);
    expect((await postForm(url, pay(csrf, 'pm_card_threeDSecure_refused'))).status).toBe(200);
    const [waiting] = [...stand.intents.values()].filter((i) => i.payment_method === 'pm_card_threeDSecure_refused');
    const failed = stand.finish(waiting!.id, false);
    expect((await deliver(server, environmentId, { type: 'payment_intent.payment_failed', object: failed })).status).toBe(200);
    const intent = await server.database.db.selectFrom('payment_intents').select(['status', 'failure_code']).where('provider_key', '=', failed.metadata.billow_key!).executeTakeFirstOrThrow();
    expect(intent).toEqual({ status: 'failed', failure_code: 'authentication_failed' });
    const row = await sessionRow(id);
    expect(row.status).toBe('open');
    expect(await ordersOfCustomer(row.customer_id!)).toHaveLength(0);
  });

  it('the sandbox page keeps its test cards and its strict policy', async () => {
    const res = await server.request('POST', '/sandbox/api/v1/checkout/', {
      key: org.sandbox.serverKey,
      body: { planIdentifier: (await sandboxPlan()), chargePeriod: 'ONE_TIME', successUrl: 'https://shop.example/thanks' },
    });
    const page = await getPage(res.body.checkoutUrl);
    expect(page.text).toContain('name="card_number"');
    expect(page.text).not.toContain('js.stripe.com');
    expect(page.headers.get('content-security-policy')).toContain("script-src 'self';");
  });
});

async function sandboxPlan(): Promise<string> {
  const { shop } = await import('./commerce-support.js');
  return (await shop(server, org.sandbox.serverKey)).plans.lifetime;
}

const shot = screenshotsIn('checkout');

describe.skipIf(skipBrowserTests)('the production checkout with Stripe in chromium', () => {
  it('shows the Stripe mount point and no card field; nothing but this server is asked for', async () => {
    const { url } = await session();
    const browser = await launchChromium();
    try {
      const context = await browser.newContext({ viewport: { width: 1000, height: 900 } });
      const outside: string[] = [];
      // No request may leave the machine: js.stripe.com is refused here, as it cannot load on this network.
      await context.route('**/*', (route) => {
        const target = new URL(route.request().url());
        if (target.hostname === '127.0.0.1' || target.hostname === 'localhost') return route.continue();
        outside.push(target.origin);
        return route.abort();
      });
      const page = await context.newPage();
      const response = await page.goto(url);
      expect(response!.status()).toBe(200);
      expect(await page.locator('#payment-element').count()).toBe(1);
      expect(await page.locator('#payment-element').getAttribute('data-stripe-publishable-key')).toBe(PUBLISHABLE_KEY);
      expect(await page.locator('input[name="card_number"], input[autocomplete^="cc-"]').count()).toBe(0);
      expect(await page.locator('#pay').count()).toBe(1);
      expect(outside).toEqual(['https://js.stripe.com']);
      await shot(page, 'stripe-production');
    } finally {
      await browser.close();
    }
  });
});
