import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recoverPayments } from '../../src/job-handlers/recover-payments.js';
import { ManualClock } from '../../src/lib/clock.js';
import { CARDS, shop } from '../commerce-support.js';
import { uniqueId } from '../harness.js';
import { officialClient } from '../official-client-support.js';
import { csrfOf, eventTypes, getPage, openCheckoutWorld, payWith, postForm, type CheckoutWorld } from './support.js';

// The hosted page over plain HTTP, as a browser without JavaScript uses it (ARCHITECTURE.md §10).

const clock = new ManualClock(new Date('2026-11-20T10:00:00Z'));
let w: CheckoutWorld;

beforeAll(async () => {
  w = await openCheckoutWorld({ clock });
});
afterAll(() => w?.server.close());

const ordersOf = async (customerId: string) => {
  const res = await w.s.call('GET', `/orders/?customer_id=${customerId}`);
  return res.body.count as number;
};

describe('the hosted checkout page', () => {
  it('renders the product, price and form under a strict Content-Security-Policy', async () => {
    const { url } = await w.session({ defaultBillingCountry: 'DE' });
    const page = await getPage(url);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    const csp = page.headers.get('content-security-policy')!;
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toContain('unsafe-inline');
    expect(csp).toContain("frame-ancestors 'none'");
    expect(page.headers.get('x-frame-options')).toBe('DENY');
    expect(page.text).not.toMatch(/<script>[^<]/);
    expect(page.text).toContain('Sandbox: no real money moves');
    expect(page.text).toMatch(/<option value="DE" selected>Germany<\/option>/);
    // Basic is $10 a month; Germany's 19 % VAT is added (the plan's price is tax-exclusive).
    expect(page.text).toContain('$11.90');
    expect(page.text).toContain('name="card_number"');
    expect(csrfOf(page.text)).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });

  it('escapes seller text: a product named <script> renders as text', async () => {
    const evil = '<script>alert(1)</script>';
    const product = await w.s.call('POST', '/catalog/products/', { name: evil, taxCode: 'saas', description: '"><img src=x onerror=alert(2)>' });
    expect(product.status, product.text).toBe(201);
    const { plan } = await w.entitledPlan({ productId: product.body.id, name: uniqueId('Evil <b>plan</b>') });
    const { url } = await w.session({ planIdentifier: plan });
    const page = await getPage(url);
    expect(page.status, page.text).toBe(200);
    expect(page.text).not.toContain(evil);
    expect(page.text).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(page.text).not.toContain('<img src=x');
  });

  it('says how long a discount lasts: every payment, the first three, or this one only', async () => {
    const cases = [
      [{}, '<td>Discount</td>'],
      [{ durationInCycles: 3 }, '<td>Discount (on the first 3 payments)</td>'],
      [{ duration: 'ONCE' }, '<td>Discount (this payment only)</td>'],
    ] as const;
    for (const [terms, label] of cases) {
      const code = uniqueId('LASTS').toUpperCase().replace(/[^A-Z0-9]/g, '').slice(0, 20);
      const made = await w.s.call('POST', '/discounts/', { name: 'Ten off', code, discountType: 'PERCENTAGE', percentOff: 10, ...terms });
      expect(made.status, made.text).toBe(201);
      const { url } = await w.session({ discountCode: code });
      const page = await getPage(url);
      expect(page.text, JSON.stringify(terms)).toContain(`${label}<td class="amount">−$1.00</td>`);
    }
  });

  it('takes a discount code: the order is discounted, the code counted once, and a code used up is refused', async () => {
    const code = uniqueId('QUARTER').toUpperCase().replace(/[^A-Z0-9]/g, '').slice(0, 20);
    const made = await w.s.call('POST', '/discounts/', { name: 'A quarter off', code, discountType: 'PERCENTAGE', percentOff: 25, maxRedemptions: 1 });
    expect(made.status, made.text).toBe(201);
    const customerId = uniqueId('discounted');
    const { id, url } = await w.session({ customerId, discountCode: code.toLowerCase() });
    const page = await getPage(url);
    // Basic is $10 a month: a quarter off is $2.50, and France's 20 % VAT applies to the $7.50 left.
    const done = await postForm(url, payWith(csrfOf(page.text), CARDS.ok, { country: 'FR' }));
    expect(done.status, done.text).toBe(303);
    const detail = (await w.s.call('GET', `/checkout/sessions/${id}/`)).body;
    expect(detail.order).toMatchObject({ status: 'COMPLETE', amountDiscount: '2.50', amountTax: '1.50', amountTotal: '9.00' });
    expect((await w.s.call('GET', `/discounts/${made.body.id}/`)).body).toMatchObject({ timesRedeemed: 1, status: 'EXPIRED' });
    const again = await w.s.call('POST', '/checkout/', { planIdentifier: w.s.plans.basic, chargePeriod: 'MONTHLY', successUrl: 'https://shop.example/thanks', discountCode: code });
    expect(again.status, again.text).toBe(400);
    expect(again.body.detail).toMatch(/^discountCode: /);
  });

  it('sells a subscription with 4242: customer, card, purchase, events in order, redirect with the session id; the entitlement follows', async () => {
    const customerId = uniqueId('page-buyer');
    const entitled = await w.entitledPlan();
    const { id, url } = await w.session({ customerId, planIdentifier: entitled.plan, metadata: { order_ref: 'R-9' } });
    const csrf = csrfOf((await getPage(url)).text);
    const done = await postForm(url, payWith(csrf, CARDS.ok, { country: 'FR' }));
    expect(done.status, done.text).toBe(303);
    expect(done.headers.get('location')).toBe(`https://shop.example/thanks?from=billow&checkout_session_id=${id}`);

    const detail = (await w.s.call('GET', `/checkout/sessions/${id}/`)).body;
    expect(detail.status).toBe('success');
    expect(detail.order).toMatchObject({ status: 'COMPLETE', amountTotal: '12.00', amountTax: '2.00', saleCurrency: 'USD' });
    expect(detail.order.invoiceId).toMatch(/^INV-/);
    expect(detail.subscription).toMatchObject({ status: 'active', billingType: 'SUBSCRIPTION' });
    expect(detail.paymentMethod).toEqual({ paymentMethodType: 'card', paymentMethodName: 'visa', last4: '4242' });
    const codes = (await w.s.call('GET', `/checkout/sessions/${id}/events/`)).body.results.map((e: { code: string }) => e.code);
    expect(codes).toEqual(['checkout_session.payment_succeeded', 'checkout_session.payment_attempted', 'checkout_session.details_updated', 'checkout_session.created']);

    const customer = (await w.s.call('GET', `/customers/${customerId}/`)).body;
    expect(customer).toMatchObject({ email: 'buyer@example.com', name: 'Ada Buyer', billingAddress: { country: 'FR' } });
    const types = await eventTypes(w.server, w.org.organizationId);
    const completed = types.indexOf('checkout.completed');
    expect(completed).toBeGreaterThan(types.indexOf('customer.created'));
    expect(types.indexOf('subscription.created')).toBeGreaterThan(completed);
    const event = await w.server.database.db.selectFrom('events').select('payload').where('type', '=', 'checkout.completed').orderBy('seq', 'desc').executeTakeFirstOrThrow();
    expect(event.payload).toMatchObject({ data: { object: { id, object: 'checkout_session', status: 'success', amount: '12.00', amount_units: 1200, currency: 'USD', metadata: { order_ref: 'R-9' }, customer: { customer_id: customerId } } } });

    // No card number anywhere in the database: only brand, last four and expiry.
    const methods = await w.server.database.db.selectFrom('payment_methods').selectAll().where('id', '=', Number((await w.s.call('GET', `/payment-methods/?customer_id=${customerId}`)).body.results[0].id)).execute();
    expect(methods[0]).toMatchObject({ brand: 'visa', last4: '4242', exp_month: 12, exp_year: 2035 });

    const kelviq = officialClient(w.server, w.org.sandbox.serverKey);
    expect(await kelviq.entitlements.getEntitlement({ customerId, featureId: entitled.feature })).toMatchObject({ featureId: entitled.feature, hasAccess: true });
    const subs = await w.s.call('GET', `/subscriptions/?customer_id=${customerId}`);
    expect(subs.body.count).toBe(1);

    // The same form again (a double click, a replay): no second charge, the same redirect.
    const again = await postForm(url, payWith(csrf, CARDS.ok));
    expect(again.status).toBe(303);
    expect(await ordersOf(customerId)).toBe(1);
    // The page of a completed session says so.
    const closed = await getPage(url);
    expect(closed.status).toBe(410);
    expect(closed.text).toContain('This checkout is complete');
  });

  it('charges once when the same form arrives five times at once', async () => {
    const customerId = uniqueId('double-click');
    const { id, url } = await w.session({ customerId });
    const csrf = csrfOf((await getPage(url)).text);
    const answers = await Promise.all(Array.from({ length: 5 }, () => postForm(url, payWith(csrf, CARDS.ok))));
    for (const a of answers) {
      expect([303, 422]).toContain(a.status);
      if (a.status === 422) expect(a.text).toContain('already being processed');
    }
    expect(answers.some((a) => a.status === 303)).toBe(true);
    expect(await ordersOf(customerId)).toBe(1);
    expect((await w.s.call('GET', `/checkout/sessions/${id}/`)).body.status).toBe('success');
    expect((await postForm(url, payWith(csrf, CARDS.ok))).status).toBe(303);
  });

  it('shows a decline clearly, keeps the session open, then succeeds with another card', async () => {
    const customerId = uniqueId('declined');
    const { id, url } = await w.session({ customerId });
    const csrf = csrfOf((await getPage(url)).text);
    const declined = await postForm(url, payWith(csrf, CARDS.declined));
    expect(declined.status).toBe(422);
    expect(declined.text).toContain('The card was declined');
    expect(declined.text).not.toContain('4000 0000 0000 0002');
    expect((await w.s.call('GET', `/checkout/sessions/${id}/`)).body.status).toBe('open');
    const ok = await postForm(url, payWith(csrf, CARDS.ok));
    expect(ok.status, ok.text).toBe(303);
    expect(await ordersOf(customerId)).toBe(1);
    const codes = (await w.s.call('GET', `/checkout/sessions/${id}/events/`)).body.results.map((e: { code: string }) => e.code);
    expect(codes).toContain('checkout_session.payment_failed');
    expect(codes[0]).toBe('checkout_session.payment_succeeded');
  });

  it('asks for authentication with 4000 0025 0000 3155: approved pays once, failed leaves the session open', async () => {
    const customerId = uniqueId('auth');
    const { id, url } = await w.session({ customerId });
    const csrf = csrfOf((await getPage(url)).text);
    const asked = await postForm(url, payWith(csrf, CARDS.authentication));
    expect(asked.status).toBe(200);
    expect(asked.text).toContain('Confirm your payment');
    expect((await w.s.call('GET', `/checkout/sessions/${id}/`)).body.status).toBe('processing');
    // The form sent again while authentication waits asks again, and charges nothing.
    expect((await postForm(url, payWith(csrf, CARDS.authentication))).text).toContain('Confirm your payment');
    const failed = await postForm(url, { csrf_token: csrf, action: 'authenticate_fail' });
    expect(failed.status).toBe(422);
    expect(failed.text).toContain('authentication of the card was not completed');
    expect((await w.s.call('GET', `/checkout/sessions/${id}/`)).body.status).toBe('open');
    expect(await ordersOf(customerId)).toBe(0);

    await postForm(url, payWith(csrf, CARDS.authentication));
    const approved = await postForm(url, { csrf_token: csrf, action: 'authenticate_approve' });
    expect(approved.status, approved.text).toBe(303);
    expect(approved.headers.get('location')).toContain(`checkout_session_id=${id}`);
    expect((await postForm(url, { csrf_token: csrf, action: 'authenticate_approve' })).status).toBe(303);
    expect(await ordersOf(customerId)).toBe(1);
    expect((await w.s.call('GET', `/checkout/sessions/${id}/`)).body.status).toBe('success');
  });

  it('gives up an authentication the buyer never answers: after its window the recovery task fails it and the session reopens', async () => {
    const customerId = uniqueId('abandoned');
    const { id, url } = await w.session({ customerId });
    const csrf = csrfOf((await getPage(url)).text);
    expect((await postForm(url, payWith(csrf, CARDS.authentication))).text).toContain('Confirm your payment');
    const recover = () => recoverPayments(w.server.database.db, clock, 60_000, 60_000);
    clock.advance(5 * 60_000);
    await recover();
    expect((await w.s.call('GET', `/checkout/sessions/${id}/`)).body.status).toBe('processing');
    clock.advance(12 * 60_000);
    await recover();
    expect((await w.s.call('GET', `/checkout/sessions/${id}/`)).body.status).toBe('open');
    expect(await ordersOf(customerId)).toBe(0);
    // Approving now is too late: the page says the authentication was not completed; a new attempt can pay.
    const late = await postForm(url, { csrf_token: csrf, action: 'authenticate_approve' });
    expect(late.status).toBe(200);
    const paid = await postForm(url, payWith(csrf, CARDS.ok));
    expect(paid.status).toBe(303);
    expect(await ordersOf(customerId)).toBe(1);
  });

  it('sells priced-meter quantities: the page shows them, the buyer changes them, the purchase bills them', async () => {
    const customerId = uniqueId('seats');
    const seats = w.s.seats.identifier as string;
    const { id, url } = await w.session({ customerId, planIdentifier: w.s.plans.seats, features: [{ identifier: seats, quantity: 4 }] });
    const page = (await getPage(url)).text;
    expect(page).toMatch(new RegExp(`name="qty_${seats}"[^>]* value="4"`));
    expect(page).toMatch(/id="total">\$17\.00</); // $5 base + 4 × $3
    const csrf = csrfOf(page);
    const six = await postForm(url, { csrf_token: csrf, action: 'update', plan: w.s.plans.seats, period: 'MONTHLY', country: 'US', [`qty_${seats}`]: '6' });
    expect(six.text).toMatch(/id="total">\$23\.00</);
    const paid = await postForm(url, payWith(csrf, CARDS.ok, { plan: w.s.plans.seats, period: 'MONTHLY', [`qty_${seats}`]: '6' }));
    expect(paid.status, paid.text).toBe(303);
    expect((await w.s.call('GET', `/checkout/sessions/${id}/`)).body.order.amountTotal).toBe('23.00');
  });

  it('offers a discount field when discounts are enabled; every code is refused until the discounts module exists', async () => {
    const { id, url } = await w.session();
    const page = (await getPage(url)).text;
    expect(page).toContain('id="discount-code"');
    const refused = await postForm(url, { csrf_token: csrfOf(page), action: 'discount', discount_code: 'SAVE10', plan: w.s.plans.basic, period: 'MONTHLY', country: 'US' });
    expect(refused.status).toBe(422);
    expect(refused.text).toContain('The code &quot;SAVE10&quot; cannot be applied');
    expect((await w.s.call('GET', `/checkout/sessions/${id}/`)).body.discountCode).toBeNull();
    const none = await w.session({ discountsEnabled: false });
    expect((await getPage(none.url)).text).not.toContain('id="discount-code"');
  });

  it('prices customAmount with its tax behaviour: INCLUSIVE holds the tax, EXCLUSIVE adds it', async () => {
    const custom = { customAmount: 100, currencyCode: 'USD', defaultBillingCountry: 'DE' };
    const inclusive = await w.session({ ...custom, taxBehavior: 'INCLUSIVE' });
    const inPage = (await getPage(inclusive.url)).text;
    expect(inPage).toContain('Includes 19 %');
    expect(inPage).toMatch(/id="total">\$100\.00</);
    const exclusive = await w.session({ ...custom, taxBehavior: 'EXCLUSIVE', customerId: uniqueId('custom') });
    const exPage = (await getPage(exclusive.url)).text;
    expect(exPage).toMatch(/id="total">\$119\.00</);
    const paid = await postForm(exclusive.url, payWith(csrfOf(exPage), CARDS.ok, { country: 'DE' }));
    expect(paid.status, paid.text).toBe(303);
    expect((await w.s.call('GET', `/checkout/sessions/${exclusive.id}/`)).body.order).toMatchObject({ amountSubtotal: '100.00', amountTax: '19.00', amountTotal: '119.00' });
  });

  it('says first, in production without a payment provider, that the page cannot take payments', async () => {
    const live = await shop(w.server, w.org.production.serverKey, '');
    const create = (planIdentifier: string) =>
      w.server.request('POST', '/api/v1/checkout/', {
        key: w.org.production.serverKey,
        body: { planIdentifier, chargePeriod: 'MONTHLY', successUrl: 'https://shop.example/ok', plansEnabled: [live.plans.basic] },
      });
    // A paid session is not made at all (production-purchases.test.ts); a free one, whose page offers a paid plan too, is.
    expect((await create(live.plans.basic)).status).toBe(428);
    const res = await create(live.plans.free);
    expect(res.status, res.text).toBe(201);
    expect(res.body.checkoutUrl).toBe(`${w.server.url}/checkout/${res.body.checkoutSessionId}/`);
    const page = await getPage(res.body.checkoutUrl);
    expect(page.status).toBe(200);
    const notice = page.text.indexOf('No payment provider is configured');
    expect(notice).toBeGreaterThan(0);
    // Above the form, before the buyer is asked for anything.
    expect(notice).toBeLessThan(page.text.indexOf('id="checkout-form"'));
    expect(notice).toBeLessThan(page.text.indexOf('id="email"'));
    expect(page.text).not.toContain('name="card_number"');
    expect(page.text).not.toContain('id="pay"');
    expect(page.text).not.toContain('Sandbox:');
  });

  it('refuses a form without the CSRF token, and bad card input, without charging', async () => {
    const { id, url } = await w.session();
    const forged = await postForm(url, payWith('forged', CARDS.ok));
    expect(forged.status).toBe(403);
    expect(forged.text).toContain('This form has expired');
    const csrf = csrfOf((await getPage(url)).text);
    const typo = await postForm(url, payWith(csrf, '4242 4242 4242 4241'));
    expect(typo.status).toBe(422);
    expect(typo.text).toContain('This card number is not valid. Check the digits and try again.');
    expect(typo.text).not.toMatch(/Luhn|cardNumber|expMonth|expYear/);
    expect(typo.text).toMatch(/id="card-number"[^>]* aria-invalid="true"/);
    expect(typo.text).toContain('<a href="#card-number">');
    const email = await postForm(url, payWith(csrf, CARDS.ok, { email: 'not-an-email' }));
    expect(email.status).toBe(422);
    expect(email.text).toContain('valid email');
    expect((await w.s.call('GET', `/checkout/sessions/${id}/`)).body.status).toBe('open');
  });

  it('takes an expiry typed as 0930, 09/30, 9/30, 09 / 2030 or 09-30, and explains an expired card or a short CVC at its own field', async () => {
    for (const expiry of ['0930', '09/30', '9/30', '09 / 2030', '09-30', '092030']) {
      const { id, url } = await w.session();
      const csrf = csrfOf((await getPage(url)).text);
      const paid = await postForm(url, payWith(csrf, CARDS.ok, { expiry }));
      expect(paid.status, `${expiry}: ${paid.text.slice(0, 300)}`).toBe(303);
      expect((await w.s.call('GET', `/checkout/sessions/${id}/`)).body.status, expiry).toBe('success');
    }
    const { url } = await w.session();
    const csrf = csrfOf((await getPage(url)).text);
    const expired = await postForm(url, payWith(csrf, CARDS.ok, { expiry: '01 / 20' }));
    expect(expired.status).toBe(422);
    expect(expired.text).toContain('This card has expired. Check the expiry date, or use another card.');
    expect(expired.text).toMatch(/id="expiry"[^>]* aria-invalid="true"/);
    expect(expired.text).not.toMatch(/expMonth|expYear/);
    const shortCvc = await postForm(url, payWith(csrf, CARDS.ok, { cvc: '12' }));
    expect(shortCvc.status).toBe(422);
    expect(shortCvc.text).toContain('Enter the 3-digit security code of the card.');
    expect(shortCvc.text).toMatch(/id="cvc"[^>]* aria-invalid="true"/);
    for (const bad of ['13/30', '0', '09/3', 'ab/cd']) {
      const refused = await postForm(url, payWith(csrf, CARDS.ok, { expiry: bad }));
      expect(refused.status, bad).toBe(422);
      expect(refused.text, bad).toContain('Enter the expiry date as MM / YY');
    }
  });

  it('keeps a locked email: the field is disabled and the customer keeps theirs', async () => {
    const customerId = await w.s.customer();
    const { url } = await w.session({ customerId, lockEmail: true });
    const page = await getPage(url);
    expect(page.text).toMatch(/id="email"[^>]*value="[^"]*@example\.com"[^>]* disabled/);
    const done = await postForm(url, payWith(csrfOf(page.text), CARDS.ok, { email: 'attacker@example.com' }));
    expect(done.status).toBe(303);
    expect((await w.s.call('GET', `/customers/${customerId}/`)).body.email).toBe(`${customerId}@example.com`);
  });

  it('re-prices without JavaScript ("Update price") and answers clear pages for expired and unknown sessions', async () => {
    const { url } = await w.session({ plansEnabled: w.s.plans.pro });
    const csrf = csrfOf((await getPage(url)).text);
    const repriced = await postForm(url, { csrf_token: csrf, action: 'update', plan: w.s.plans.pro, period: 'YEARLY', country: 'US' });
    expect(repriced.status).toBe(200);
    expect(repriced.text).toContain('$200.00');

    const expiring = await w.session();
    clock.advance(24 * 3600_000 + 1000);
    const expired = await getPage(expiring.url);
    expect(expired.status).toBe(410);
    expect(expired.text).toContain('This checkout has expired');
    const missing = await getPage(`${w.server.url}/sandbox/checkout/cs_${'x'.repeat(48)}/`);
    expect(missing.status).toBe(404);
    expect(missing.text).toContain('Checkout not found');
    // A sandbox session is not found under the production prefix.
    expect((await getPage(expiring.url.replace('/sandbox/', '/'))).status).toBe(404);
  });
});

describe('buy links', () => {
  const buy = (query: string) => fetch(`${w.server.url}/sandbox/buy/${w.s.product.id}/?plan_identifier=${w.s.plans.basic}&charge_period=MONTHLY&${query}`, { redirect: 'manual' });

  it('GET /buy/{productId}/ creates a session and redirects (303) to its page', async () => {
    const res = await buy('');
    expect(res.status).toBe(303);
    const location = res.headers.get('location')!;
    expect(location).toMatch(new RegExp(`^${w.server.url}/sandbox/checkout/cs_[A-Za-z0-9]{48}/$`));
    const page = await getPage(location);
    expect(page.status).toBe(200);
    const unknown = await fetch(`${w.server.url}/sandbox/buy/00000000-0000-4000-8000-000000000000/?charge_period=MONTHLY`, { redirect: 'manual' });
    expect(unknown.status).toBe(404);
    const badPeriod = await fetch(`${w.server.url}/sandbox/buy/${w.s.product.id}/?plan_identifier=${w.s.plans.basic}&charge_period=WEEKLY`, { redirect: 'manual' });
    expect(badPeriod.status).toBe(400);
    expect(await badPeriod.text()).toContain('WEEKLY');
  });

  it("returns the buyer only to the product's site: a foreign success_url or cancel_url is refused (decision 0054)", async () => {
    const settings = `/catalog/products/${w.s.product.id}/settings/`;
    const unset = await buy('success_url=https://shop.example/ok');
    expect(unset.status).toBe(400);
    expect(await unset.text()).toContain('productUrl');
    expect((await w.s.call('PATCH', settings, { productUrl: 'https://www.shop.example/pricing' })).status).toBe(200);
    for (const query of ['success_url=https://evil.example/phish', 'cancel_url=https://evil.example/', 'success_url=https://shop.example.evil.example/', 'success_url=//evil.example/']) {
      const refused = await buy(query);
      expect(refused.status, query).toBe(400);
      expect(await refused.text()).toContain('This buy link is not valid');
    }
    const res = await buy('success_url=https://app.shop.example/welcome&cancel_url=https://shop.example/pricing');
    expect(res.status).toBe(303);
    const url = res.headers.get('location')!;
    const page = await getPage(url);
    expect(page.text).toContain('https://shop.example/pricing');
    const done = await postForm(url, payWith(csrfOf(page.text), CARDS.ok));
    expect(done.status).toBe(303);
    expect(done.headers.get('location')).toMatch(/^https:\/\/app\.shop\.example\/welcome/);
  });
});

describe('a session made without a server key names a customer (decision 0054)', () => {
  const paymentMethodsOf = async (customerId: string) => (await w.s.call('GET', `/payment-methods/?customer_id=${customerId}`)).body.results as { id: string }[];

  async function strangerPays(url: string, ada: string): Promise<void> {
    const page = await getPage(url);
    expect(page.status, page.text).toBe(200);
    expect(page.text).not.toContain(`${ada}@example.com`);
    const done = await postForm(url, payWith(csrfOf(page.text), CARDS.ok, { email: 'stranger@example.com', name: 'Stranger' }));
    expect(done.status, done.text).toBe(303);
  }

  async function expectAdaUntouched(ada: string, sessionId: string): Promise<void> {
    const customer = (await w.s.call('GET', `/customers/${ada}/`)).body;
    expect(customer).toMatchObject({ email: `${ada}@example.com`, name: 'Buyer' });
    expect(await ordersOf(ada)).toBe(0);
    expect((await paymentMethodsOf(ada)).length).toBe(1);
    const session = (await w.s.call('GET', `/checkout/sessions/${sessionId}/`)).body;
    expect(session.status).toBe('success');
    const buyer = session.customer.customerId as string;
    expect(buyer).not.toBe(ada);
    expect((await w.s.call('GET', `/customers/${buyer}/`)).body.email).toBe('stranger@example.com');
    expect(await ordersOf(buyer)).toBe(1);
  }

  it('through a buy link: the page shows nothing of the named customer, and the payment lands on a new one', async () => {
    const ada = await w.s.customer();
    await w.s.card(ada);
    const res = await fetch(`${w.server.url}/sandbox/buy/${w.s.product.id}/?plan_identifier=${w.s.plans.basic}&charge_period=MONTHLY&customer_id=${ada}&lock_email=1`, { redirect: 'manual' });
    expect(res.status).toBe(303);
    const url = res.headers.get('location')!;
    await strangerPays(url, ada);
    await expectAdaUntouched(ada, /cs_[A-Za-z0-9]+/.exec(url)![0]);
  });

  it('with the client key: the same; a new customer id is still created under the id given', async () => {
    const ada = await w.s.customer();
    await w.s.card(ada);
    const made = await w.create({ planIdentifier: w.s.plans.basic, chargePeriod: 'MONTHLY', successUrl: 'https://shop.example/ok', customerId: ada }, w.org.sandbox.clientKey);
    expect(made.status, made.text).toBe(201);
    await strangerPays(made.body.checkoutUrl, ada);
    await expectAdaUntouched(ada, made.body.checkoutSessionId);

    const fresh = uniqueId('fresh');
    const other = await w.create({ planIdentifier: w.s.plans.basic, chargePeriod: 'MONTHLY', successUrl: 'https://shop.example/ok', customerId: fresh }, w.org.sandbox.clientKey);
    await strangerPays(other.body.checkoutUrl, fresh);
    expect((await w.s.call('GET', `/checkout/sessions/${other.body.checkoutSessionId}/`)).body.customer.customerId).toBe(fresh);
    expect(await ordersOf(fresh)).toBe(1);
  });

  it('with the server key: the named customer is shown and charged, as before', async () => {
    const ada = await w.s.customer();
    const { id, url } = await w.session({ customerId: ada });
    const page = await getPage(url);
    expect(page.text).toContain(`${ada}@example.com`);
    expect((await postForm(url, payWith(csrfOf(page.text), CARDS.ok, { email: `${ada}@example.com` }))).status).toBe(303);
    expect((await w.s.call('GET', `/checkout/sessions/${id}/`)).body.customer.customerId).toBe(ada);
    expect(await ordersOf(ada)).toBe(1);
  });
});
