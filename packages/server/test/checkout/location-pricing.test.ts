/**
 * Location pricing at checkout (decision 0036): a promotion's percentage for the buyer's
 * country is priced into the hosted page, charged, and kept for renewals. The buyer is
 * located by a server key's ipAddress, else by the page's caller (X-Forwarded-For here,
 * with BILLOW_TRUST_PROXY); the strict billing-country check; the better of a promotion
 * and a discount code; a customAmount gets no promotion.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CARDS } from '../commerce-support.js';
import { uniqueId } from '../harness.js';
import { csrfOf, openCheckoutWorld, payWith, type CheckoutWorld, type PageResponse } from './support.js';

const IP = { IN: '49.44.0.1', DE: '85.214.0.1', US: '8.8.8.8' } as const;
let w: CheckoutWorld;
let promotionId: string;

beforeAll(async () => {
  w = await openCheckoutWorld({ env: { BILLOW_TRUST_PROXY: 'true' } });
  const made = await w.s.call('POST', '/promotion-rules/', {
    name: 'PPP',
    productId: w.s.product.id,
    countryOverrides: [{ countryCode: 'IN', percentage: 40 }],
    couponCode: 'PPP40',
  });
  expect(made.status, made.text).toBe(201);
  promotionId = made.body.id;
});
afterAll(() => w.server.close());

/** The page as a browser in a country asks for it (or sends its form). */
async function fromCountry(url: string, from: keyof typeof IP | null, form?: Record<string, string>): Promise<PageResponse> {
  const headers: Record<string, string> = from ? { 'x-forwarded-for': IP[from] } : {};
  const res = await fetch(url, {
    method: form ? 'POST' : 'GET',
    redirect: 'manual',
    headers: form ? { ...headers, 'content-type': 'application/x-www-form-urlencoded' } : headers,
    ...(form ? { body: new URLSearchParams(form).toString() } : {}),
  });
  return { status: res.status, text: await res.text(), headers: res.headers };
}

async function buy(url: string, from: keyof typeof IP | null, country: string) {
  const page = await fromCountry(url, from);
  const done = await fromCountry(url, from, payWith(csrfOf(page.text), CARDS.ok, { country }));
  expect(done.status, done.text).toBe(303);
}

const detailOf = async (id: string) => (await w.s.call('GET', `/checkout/sessions/${id}/`)).body;

describe('promotions at checkout', () => {
  it("prices, charges and renews at the promoted price for a server key's ipAddress in a covered country", async () => {
    const { id, url } = await w.session({ ipAddress: IP.IN });
    const page = await fromCountry(url, null);
    expect(page.text).toContain('Promotional price for India (40 % off)');
    expect(page.text).toContain('−$4.00');
    await buy(url, null, 'IN');
    const detail = await detailOf(id);
    expect(detail.order).toMatchObject({ amountSubtotal: '10.00', amountDiscount: '4.00' });
    const upcoming = (await w.s.call('GET', `/subscriptions/${detail.subscription.id}/upcoming-invoice/`)).body;
    expect(upcoming).toMatchObject({ amountSubtotal: '10.00', amountDiscount: '4.00' });
  });

  it('gives nothing to a buyer located elsewhere, or whose billing country is not the located one (strict match)', async () => {
    const us = await w.session({ ipAddress: IP.US });
    expect((await fromCountry(us.url, null)).text).not.toContain('Promotional price');
    const mismatch = await w.session({ ipAddress: IP.IN });
    expect((await fromCountry(`${mismatch.url}?country=DE`, null)).text).not.toContain('Promotional price');
    await buy(mismatch.url, null, 'DE');
    expect((await detailOf(mismatch.id)).order).toMatchObject({ amountDiscount: '0.00' });
  });

  it('with the strict billing-country check off, the located country alone decides', async () => {
    const off = await w.s.call('PATCH', `/promotion-rules/${promotionId}/`, { security: { billingCountry: false } });
    expect(off.status, off.text).toBe(200);
    expect(off.body.security).toMatchObject({ billingCountry: false, crawler: true });
    try {
      const { id, url } = await w.session({ ipAddress: IP.IN });
      await buy(url, null, 'DE');
      expect((await detailOf(id)).order).toMatchObject({ amountSubtotal: '10.00', amountDiscount: '4.00' });
    } finally {
      await w.s.call('PATCH', `/promotion-rules/${promotionId}/`, { security: { billingCountry: true } });
    }
  });

  it("locates a client key's buyer by the page's request, not by the ipAddress the browser claimed", async () => {
    const claimed = await w.create({ planIdentifier: w.s.plans.basic, chargePeriod: 'MONTHLY', successUrl: 'https://shop.example/t', ipAddress: IP.IN }, w.org.sandbox.clientKey);
    expect(claimed.status, claimed.text).toBe(201);
    const url = claimed.body.checkoutUrl as string;
    expect((await fromCountry(url, 'US')).text).not.toContain('Promotional price');
    expect((await fromCountry(`${url}?country=IN`, 'IN')).text).toContain('Promotional price for India (40 % off)');
    await buy(url, 'IN', 'IN');
    expect((await detailOf(claimed.body.checkoutSessionId)).order).toMatchObject({ amountDiscount: '4.00' });
  });

  it('applies the better of a discount code and the promotion, never both; the code is redeemed only when it wins', async () => {
    const code = async (percentOff: number) => {
      const made = await w.s.call('POST', '/discounts/', { name: `${percentOff} off`, code: uniqueId('C').replace(/[^A-Za-z0-9]/g, '').slice(0, 30), discountType: 'PERCENTAGE', percentOff });
      expect(made.status, made.text).toBe(201);
      return made.body as { id: string; code: string };
    };
    const half = await code(50);
    const winner = await w.session({ ipAddress: IP.IN, discountCode: half.code });
    await buy(winner.url, null, 'IN');
    expect((await detailOf(winner.id)).order).toMatchObject({ amountDiscount: '5.00' });
    expect((await w.s.call('GET', `/discounts/${half.id}/`)).body.timesRedeemed).toBe(1);

    const tenth = await code(10);
    const loser = await w.session({ ipAddress: IP.IN, discountCode: tenth.code });
    const loserPage = (await fromCountry(loser.url, null)).text;
    expect(loserPage).toContain('Promotional price for India (40 % off)');
    expect(loserPage).toContain('applies, as the better discount: discounts do not add up');
    await buy(loser.url, null, 'IN');
    expect((await detailOf(loser.id)).order).toMatchObject({ amountDiscount: '4.00' });
    expect((await w.s.call('GET', `/discounts/${tenth.id}/`)).body.timesRedeemed).toBe(0);
  });

  it("accepts the promotion's coupon code (it gives nothing beyond the location's promotion); other unknown codes are still refused", async () => {
    const india = await w.session({ ipAddress: IP.IN, discountCode: 'ppp40' });
    await buy(india.url, null, 'IN');
    expect((await detailOf(india.id)).order).toMatchObject({ amountDiscount: '4.00' });
    const us = await w.session({ ipAddress: IP.US, discountCode: 'PPP40' });
    const page = await fromCountry(us.url, null);
    expect(page.text).not.toContain('Promotional price');
    const applied = await fromCountry(us.url, null, { csrf_token: csrfOf(page.text), action: 'discount', discount_code: 'PPP40', plan: w.s.plans.basic, period: 'MONTHLY', country: 'US' });
    expect(applied.status, applied.text).toBe(200);
    expect(applied.text).not.toContain('cannot be applied');
    // Outside the promotion's countries the code is not said to be applied: the buyer is told it takes nothing off.
    expect(applied.text).toContain('Code &quot;PPP40&quot; takes nothing off here');
    expect(applied.text).not.toContain('applied.');
    await buy(us.url, null, 'US');
    expect((await detailOf(us.id)).order).toMatchObject({ amountDiscount: '0.00' });
    const unknown = await w.create({ planIdentifier: w.s.plans.basic, chargePeriod: 'MONTHLY', successUrl: 'https://shop.example/t', discountCode: 'PPP41' });
    expect(unknown.status, unknown.text).toBe(400);
  });

  it('gives no promotion to a customAmount, nor after the promotion is disabled', async () => {
    const custom = await w.session({ ipAddress: IP.IN, customAmount: 25, taxBehavior: 'EXCLUSIVE', currencyCode: 'USD' });
    await buy(custom.url, null, 'IN');
    expect((await detailOf(custom.id)).order).toMatchObject({ amountSubtotal: '25.00', amountDiscount: '0.00' });
    expect((await w.s.call('PATCH', `/promotion-rules/${promotionId}/`, { enabled: false })).status).toBe(200);
    try {
      const { url } = await w.session({ ipAddress: IP.IN });
      expect((await fromCountry(url, null)).text).not.toContain('Promotional price');
    } finally {
      await w.s.call('PATCH', `/promotion-rules/${promotionId}/`, { enabled: true });
    }
  });
});

describe('per-country prices (the plan\'s price in the local currency)', () => {
  const lifetime = { planIdentifier: '', chargePeriod: 'ONE_TIME', successUrl: 'https://shop.example/t' };
  const currencyOf = async (id: string) => (await detailOf(id)).currency;

  it("prices a server key's buyer located in Germany in EUR when the plan has a EUR price; else as before", async () => {
    const de = await w.session({ ...lifetime, planIdentifier: w.s.plans.lifetime, ipAddress: IP.DE });
    expect(await currencyOf(de.id)).toBe('EUR');
    expect((await fromCountry(de.url, null)).text).toContain('45.00');
    const basic = await w.session({ ipAddress: IP.DE });
    expect(await currencyOf(basic.id)).toBe('USD');
    const asked = await w.session({ ...lifetime, planIdentifier: w.s.plans.lifetime, ipAddress: IP.DE, currencyCode: 'USD' });
    expect(await currencyOf(asked.id)).toBe('USD');
  });

  it("locates a client key's buyer by the creating request, not by the ipAddress it claims", async () => {
    const create = (from: keyof typeof IP) =>
      w.server.request('POST', '/sandbox/api/v1/checkout/', {
        key: w.org.sandbox.clientKey,
        body: { ...lifetime, planIdentifier: w.s.plans.lifetime, ipAddress: IP.DE },
        headers: { 'x-forwarded-for': IP[from] },
      });
    const fromUs = await create('US');
    expect(fromUs.status, fromUs.text).toBe(201);
    expect(await currencyOf(fromUs.body.checkoutSessionId)).toBe('USD');
    const fromDe = await create('DE');
    expect(await currencyOf(fromDe.body.checkoutSessionId)).toBe('EUR');
  });
});
