/**
 * The portal's "add a card" form and an invoice's pay-link page where cards go to Stripe
 * (decision 0039): both mount Stripe's Payment Element (never a card field), allow
 * exactly Stripe's sources in their policy, and act on the PaymentMethod id the page
 * posts through the same services as the API and the checkout. A sandbox in Stripe's
 * test mode with a publishable key, so that test clocks can make an invoice past_due.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, screenshotsIn, skipBrowserTests } from './browser.js';
import { uniqueId, type TestOrg, type TestServer } from './harness.js';
import type { Shop } from './commerce-support.js';
import { csrfOf, getPage, postForm } from './checkout/support.js';
import { officialClient } from './official-client-support.js';
import { formFields, portalGet, portalPost } from './portal/support.js';
import type { StripeStandIn } from './stripe/stand-in.js';
import { stripeCard, stripeShop, TEST_KEY, WEBHOOK_SECRET } from './stripe/support.js';

const PUBLISHABLE_KEY = 'pk_test_51BillowTestAccountKey0000000000';
const shot = screenshotsIn('portal');

let stand: StripeStandIn;
let server: TestServer;
let org: TestOrg;
let s: Shop;

beforeAll(async () => {
  ({ stand, server, org, s } = await stripeShop('/sandbox'));
  const res = await s.call('PUT', '/payment-provider/', { provider: 'stripe', stripeSecretKey: TEST_KEY, stripeWebhookSecret: WEBHOOK_SECRET, stripePublishableKey: PUBLISHABLE_KEY });
  if (res.status !== 200) throw new Error(res.text);
});
afterAll(async () => {
  await server?.close();
  await stand?.close();
});

function expectStatus(res: { status: number; text: string }, status: number) {
  if (res.status !== status) throw new Error(`${status} expected: ${res.status} ${res.text}`);
}

const pmId = (kind = 'visa') => `pm_card_${kind}_${uniqueId('m').replace(/[^A-Za-z0-9]/g, '')}`;

function expectStripeElementOnly(page: { text: string; headers: Headers }) {
  expect(page.text).toContain(`data-stripe-publishable-key="${PUBLISHABLE_KEY}"`);
  expect(page.text).toContain('<script src="https://js.stripe.com/v3/"></script>');
  expect(page.text).not.toMatch(/name="(card_number|cvc|expiry)"/);
  const csp = page.headers.get('content-security-policy')!;
  expect(csp).toContain("script-src 'self' https://js.stripe.com;");
  expect(csp).toContain('frame-src https://js.stripe.com https://hooks.stripe.com;');
}

async function methodsOf(customerId: string) {
  const res = await s.call('GET', `/payment-methods/?customer_id=${customerId}`);
  expectStatus(res, 200);
  return res.body.results as Array<{ id: number; isDefault: boolean; methodData: Record<string, unknown> }>;
}

async function portalLink(customerId: string): Promise<string> {
  const session = await officialClient(server, org.sandbox.serverKey).portal.createSession({ customerId });
  return `${session.customerPortalUrl}?token=${session.token}`;
}

describe("the portal's add-card form with Stripe", () => {
  it("mounts Stripe's element, saves the posted PaymentMethod on the customer, and makes another card the default", async () => {
    const customerId = await s.customer();
    const link = await portalLink(customerId);
    const page = await portalGet(link);
    expect(page.status).toBe(200);
    expectStripeElementOnly(page);
    expect(page.text).toContain('data-submit="add_card"');
    const script = /src="(\/sandbox\/portal\/assets\/stripe-element\.[0-9a-f]+\.js)"/.exec(page.text)![1]!;
    expect((await getPage(`${server.url}${script}`)).text).toContain('createPaymentMethod');

    // A typed card is not a card here: refused, nothing saved.
    const typed = await portalPost(link, { ...formFields(page.text, 'add_card'), card_number: '4242424242424242', expiry: '12 / 35', cvc: '123' });
    expect(typed.status).toBe(400);
    expect(typed.text).toContain('Enter your card in the card field');
    expect(await methodsOf(customerId)).toHaveLength(0);

    const first = await portalPost(link, { ...formFields(page.text, 'add_card'), stripe_payment_method: pmId('visa') });
    expectStatus(first, 303);
    const second = await portalGet(`${link}&${new URL(first.headers.get('location')!, server.url).search.slice(1)}`);
    expect(second.text).toContain('Your card was saved.');
    expectStatus(await portalPost(link, { ...formFields(second.text, 'add_card'), stripe_payment_method: pmId('mastercard') }), 303);
    const saved = await methodsOf(customerId);
    expect(saved.map((m) => [m.methodData.last4, m.isDefault]).sort()).toEqual([['4242', true], ['4444', false]]);

    const mastercard = saved.find((m) => m.methodData.last4 === '4444')!;
    const third = await portalGet(link);
    expectStatus(await portalPost(link, { ...formFields(third.text, 'add_card'), action: 'make_default', method: String(mastercard.id) }), 303);
    expect((await methodsOf(customerId)).find((m) => m.isDefault)?.methodData.last4).toBe('4444');
  });
});

describe('a past_due invoice paid on its pay link with Stripe', () => {
  it('mounts the element and charges the posted PaymentMethod once: the invoice is paid, the subscription active', async () => {
    const clock = await s.call('POST', '/test-clocks/', { name: uniqueId('clock'), frozenTime: '2027-03-01T00:00:00Z' });
    expectStatus(clock, 201);
    const customerId = await s.customer({ testClockId: clock.body.id });
    const declining = await stripeCard(s, customerId);
    const sub = await s.call('POST', '/subscriptions/create/', { planIdentifier: s.plans.basic, chargePeriod: 'MONTHLY', customerId });
    expectStatus(sub, 201);
    const ref = (await server.database.db.selectFrom('payment_methods').select('provider_ref').where('id', '=', declining.id).executeTakeFirstOrThrow()).provider_ref;
    stand.setOutcome(/\/(pm_[^/]+)$/.exec(ref)![1]!, 'insufficient_funds');
    expectStatus(await s.call('POST', `/test-clocks/${clock.body.id}/advance/`, { frozenTime: '2027-04-01T00:30:00Z' }), 200);
    for (let tries = 0; tries < 300 && (await s.call('GET', `/test-clocks/${clock.body.id}/`)).body.status !== 'ready'; tries++) {
      if ((await server.runJobs()) === 0) await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect((await s.call('GET', `/subscriptions/${sub.body.id}/`)).body.status).toBe('past_due');
    const invoice = (await s.call('GET', `/invoices/?customer_id=${customerId}&status=PAYMENT_FAILED`)).body.results[0];

    const opened = await getPage(invoice.paymentLink);
    expectStatus(opened, 303);
    const sessionUrl = opened.headers.get('location')!;
    const page = await getPage(sessionUrl);
    expect(page.status).toBe(200);
    expect(page.text).toContain('Pay your invoice');
    expectStripeElementOnly(page);

    const typed = await postForm(sessionUrl, { csrf_token: csrfOf(page.text), action: 'pay', card_number: '4242424242424242', expiry: '12 / 35', cvc: '123' });
    expect(typed.status).toBe(422);
    expect((await s.call('GET', `/invoices/${invoice.id}/`)).body.status).toBe('PAYMENT_FAILED');

    const fresh = pmId('visa');
    const paid = await postForm(sessionUrl, { csrf_token: csrfOf(page.text), action: 'pay', stripe_payment_method: fresh });
    expectStatus(paid, 303);
    expect((await s.call('GET', `/invoices/${invoice.id}/`)).body.status).toBe('PAID');
    expect((await s.call('GET', `/subscriptions/${sub.body.id}/`)).body.status).toBe('active');
    const charges = [...stand.intents.values()].filter((i) => i.payment_method === fresh);
    expect(charges.map((i) => i.status)).toEqual(['succeeded']);
    // The same form again charges nothing more.
    await postForm(sessionUrl, { csrf_token: csrfOf(page.text), action: 'pay', stripe_payment_method: fresh });
    expect([...stand.intents.values()].filter((i) => i.payment_method === fresh)).toHaveLength(1);
  });
});

describe.skipIf(skipBrowserTests)("the portal's add-card form with Stripe in chromium", () => {
  it('shows the Stripe mount point and no card field; nothing but this server and Stripe.js is asked for', async () => {
    const link = await portalLink(await s.customer());
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
      expect((await page.goto(link))!.status()).toBe(200);
      await page.locator('#payment-methods summary').click();
      expect(await page.locator('#payment-element').getAttribute('data-stripe-publishable-key')).toBe(PUBLISHABLE_KEY);
      expect(await page.locator('input[name="card_number"], input[autocomplete^="cc-"]').count()).toBe(0);
      expect(await page.locator('#save-card').isVisible()).toBe(true);
      expect(outside).toEqual(['https://js.stripe.com']);
      await shot(page, 'stripe-add-card');
    } finally {
      await browser.close();
    }
  });
});
