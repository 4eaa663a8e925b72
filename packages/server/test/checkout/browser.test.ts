import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/lib/clock.js';
import { CARDS } from '../commerce-support.js';
import { uniqueId } from '../harness.js';
import { officialClient } from '../official-client-support.js';
import { fillAndPay, launchChromium, openPage as openPageIn, shot, skipBrowserTests, startSeller, textBecomes } from './browser-support.js';
import { openCheckoutWorld, type CheckoutWorld } from './support.js';

const clock = new ManualClock(new Date('2026-11-20T10:00:00Z'));
let w: CheckoutWorld;
let browser: Browser;
let seller: { url: string; close: () => void };
let sellerUrl: string;
const openPage = (viewport?: { width: number; height: number }) => openPageIn(browser, viewport);

describe.skipIf(skipBrowserTests)('the hosted checkout in chromium', () => {
  beforeAll(async () => {
    browser = await launchChromium();
    w = await openCheckoutWorld({ clock });
    seller = await startSeller();
    sellerUrl = seller.url;
  });
  afterAll(async () => {
    await browser?.close();
    seller?.close();
    await w?.server.close();
  });

  it('buys a subscription with 4242; the official client then sees the entitlement', async () => {
    const customerId = uniqueId('browser-buyer');
    const entitled = await w.entitledPlan();
    const { id, url } = await w.session({ customerId, planIdentifier: entitled.plan, successUrl: `${sellerUrl}/thanks?ref=1` });
    const { page, problems, close } = await openPage();
    const response = await page.goto(url);
    expect(response!.status()).toBe(200);
    expect(response!.headers()['content-security-policy']).toContain("default-src 'self'");
    expect(await page.locator('h1').count()).toBe(1);
    await shot(page, '01-open');
    await fillAndPay(page, CARDS.ok, { email: 'ada@example.com', country: 'US' });
    await page.waitForURL(`${sellerUrl}/thanks?ref=1&checkout_session_id=${id}`);
    expect(await page.textContent('h1')).toBe('Thank you for your order');
    await shot(page, '02-success-redirect');
    const kelviq = officialClient(w.server, w.org.sandbox.serverKey);
    expect(await kelviq.entitlements.getEntitlement({ customerId, featureId: entitled.feature })).toMatchObject({ hasAccess: true });
    expect(problems).toEqual([]);
    await close();
  });

  it('shows a decline, keeps the session open, and then succeeds with another card', async () => {
    const { id, url } = await w.session({ successUrl: `${sellerUrl}/thanks` });
    const { page, problems, close } = await openPage();
    await page.goto(url);
    await fillAndPay(page, CARDS.declined, { email: 'decline@example.com', country: 'US' });
    await textBecomes(page, '#form-problem', 'The card was declined');
    await shot(page, '03-declined');
    expect((await w.s.call('GET', `/checkout/sessions/${id}/`)).body.status).toBe('open');
    // The email stays filled; the card fields are empty again (a card number is never sent back).
    expect(await page.inputValue('#email')).toBe('decline@example.com');
    expect(await page.inputValue('#card-number')).toBe('');
    await fillAndPay(page, CARDS.ok);
    await page.waitForURL(new RegExp(`checkout_session_id=${id}$`));
    expect((await w.s.call('GET', `/checkout/sessions/${id}/`)).body.status).toBe('success');
    expect(problems).toEqual([]);
    await close();
  });

  it('asks for authentication with 4000 0025 0000 3155; failing it keeps the session open, approving it pays', async () => {
    const { id, url } = await w.session({ successUrl: `${sellerUrl}/thanks` });
    const { page, problems, close } = await openPage();
    await page.goto(url);
    await fillAndPay(page, CARDS.authentication, { email: 'auth@example.com', country: 'US' });
    await textBecomes(page, 'h1', 'Confirm your payment');
    await shot(page, '08-authentication');
    await page.click('#fail');
    await textBecomes(page, '#form-problem', 'authentication of the card was not completed');
    expect((await w.s.call('GET', `/checkout/sessions/${id}/`)).body.status).toBe('open');
    await fillAndPay(page, CARDS.authentication);
    await textBecomes(page, 'h1', 'Confirm your payment');
    await page.click('#approve');
    await page.waitForURL(new RegExp(`checkout_session_id=${id}$`));
    expect((await w.s.call('GET', `/checkout/sessions/${id}/`)).body.status).toBe('success');
    expect(problems).toEqual([]);
    await close();
  });

  it('locks the email field when lockEmail is set, and prefills defaultBillingCountry with its tax', async () => {
    const customerId = await w.s.customer();
    const { url } = await w.session({ customerId, lockEmail: true, defaultBillingCountry: 'DE', successUrl: `${sellerUrl}/thanks` });
    const { page, close } = await openPage();
    await page.goto(url);
    expect(await page.isDisabled('#email')).toBe(true);
    expect(await page.inputValue('#email')).toBe(`${customerId}@example.com`);
    expect(await page.inputValue('#country')).toBe('DE');
    await textBecomes(page, '#total', '$11.90');
    await shot(page, '04-locked-email-germany');
    // With JavaScript, a change of country re-prices at once, in place.
    await page.selectOption('#country', 'US');
    await textBecomes(page, '#total', '$10.00');
    // Enter in the discount field applies the code (its own form, answered in place); it never pays.
    await page.fill('#discount-code', 'WELCOME');
    await page.press('#discount-code', 'Enter');
    await textBecomes(page, '#discount-message', 'cannot be applied');
    await fillAndPay(page, CARDS.ok);
    await page.waitForURL(/checkout_session_id=/);
    expect((await w.s.call('GET', `/customers/${customerId}/`)).body.email).toBe(`${customerId}@example.com`);
    await close();
  });

  it('charges a returning customer with a German address in the United States when they choose it: page, invoice and records agree', async () => {
    const customerId = await w.s.customer({ billingAddress: { line1: 'Hauptstraße 1', city: 'Berlin', country: 'DE' } });
    const { id, url } = await w.session({ customerId, successUrl: `${sellerUrl}/thanks` });
    const { page, problems, close } = await openPage();
    await page.goto(url);
    expect(await page.inputValue('#country')).toBe('DE');
    await textBecomes(page, '#summary', 'Tax 19 % (Germany)');
    await page.selectOption('#country', 'US');
    await textBecomes(page, '#total', '$10.00');
    expect(await page.textContent('#summary')).not.toContain('(Germany)');
    expect(await page.textContent('#pay')).toBe('Pay $10.00');
    await shot(page, '05-returning-customer-united-states');
    await fillAndPay(page, CARDS.ok);
    await page.waitForURL(new RegExp(`checkout_session_id=${id}$`));
    const session = (await w.s.call('GET', `/checkout/sessions/${id}/`)).body;
    expect(session.billingAddress).toEqual({ country: 'US' });
    const order = (await w.s.call('GET', `/orders/${session.order.id}/`)).body;
    expect(order.billingAddress).toMatchObject({ country: 'US' });
    const invoice = (await w.s.call('GET', `/invoices/${session.order.invoiceId}/`)).body;
    expect(invoice).toMatchObject({ status: 'PAID', taxCountry: 'US', amountTax: '0.00', amountTotal: '10.00' });
    expect((await w.s.call('GET', `/customers/${customerId}/`)).body.billingAddress).toMatchObject({ country: 'US' });
    expect(problems).toEqual([]);
    await close();
  });

  it('lets a keyboard user browse the country list with the arrow keys: re-priced in place, no reload, focus kept', async () => {
    const { url } = await w.session({ defaultBillingCountry: 'DE', successUrl: `${sellerUrl}/thanks` });
    const { page, problems, close } = await openPage();
    await page.goto(url);
    await textBecomes(page, '#total', '$11.90');
    await page.fill('#email', 'keyboard@example.com');
    // A mark on the document that a navigation would wipe.
    await page.evaluate(() => ((window as unknown as { unchanged: boolean }).unchanged = true));
    await page.focus('#country');
    // Germany, then Ghana, Gibraltar and Greece (24 % VAT on the $10 plan).
    for (let i = 0; i < 3; i++) await page.keyboard.press('ArrowDown');
    await textBecomes(page, '#total', '$12.40');
    expect(await page.inputValue('#country')).toBe('GR');
    expect(await page.evaluate(() => (window as unknown as { unchanged?: boolean }).unchanged)).toBe(true);
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('country');
    expect(await page.inputValue('#email')).toBe('keyboard@example.com');
    await page.keyboard.press('ArrowUp');
    await textBecomes(page, '#total', '$10.00');
    expect(await page.inputValue('#country')).toBe('GI');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('country');
    await shot(page, '06-country-by-keyboard');
    expect(problems).toEqual([]);
    await close();
  });

  it('is usable at 375 px: nothing overflows sideways and every control is reachable', async () => {
    const { url } = await w.session({ plansEnabled: w.s.plans.pro, defaultBillingCountry: 'FR', successUrl: `${sellerUrl}/thanks` });
    const { page, problems, close } = await openPage({ width: 375, height: 740 });
    await page.goto(url);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    const payBox = await page.locator('#pay').boundingBox();
    expect(payBox!.width).toBeGreaterThan(300);
    expect(payBox!.height).toBeGreaterThanOrEqual(44);
    // Every form control has a label.
    const unlabelled = await page.evaluate(() =>
      [...document.querySelectorAll('input:not([type=hidden]), select')].filter((el) => !(el as HTMLInputElement).labels?.length).map((el) => el.id),
    );
    expect(unlabelled).toEqual([]);
    await page.selectOption('#plan', w.s.plans.pro);
    await textBecomes(page, '#total', '$24.00');
    await shot(page, '05-phone-375px');
    // Keyboard only: Tab reaches the pay button.
    await page.focus('#cvc');
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('pay');
    expect(problems).toEqual([]);
    await close();
  });

  it('renders a product named with HTML as text, and runs no script of it', async () => {
    const evil = '<img src=x onerror=alert(1)><script>alert(2)</script>';
    const product = await w.s.call('POST', '/catalog/products/', { name: evil, taxCode: 'saas' });
    const { plan } = await w.entitledPlan({ productId: product.body.id, name: '<b>Bold</b> plan' });
    const { url } = await w.session({ planIdentifier: plan });
    const { page, problems, close } = await openPage();
    await page.goto(url);
    expect(await page.textContent('#product-name')).toBe(evil);
    expect(await page.locator('#product-name img, #product-name script').count()).toBe(0);
    await shot(page, '06-html-name-as-text');
    expect(problems.filter((p) => p.startsWith('dialog'))).toEqual([]);
    await close();
  });

  it('shows a clear page for an expired session and for an unknown one', async () => {
    const { url } = await w.session();
    const { page, close } = await openPage();
    clock.advance(24 * 3600_000 + 1000);
    const expired = await page.goto(url);
    expect(expired!.status()).toBe(410);
    await textBecomes(page, 'h1', 'This checkout has expired');
    await shot(page, '07-expired');
    const missing = await page.goto(`${w.server.url}/sandbox/checkout/cs_${'A'.repeat(48)}/`);
    expect(missing!.status()).toBe(404);
    await textBecomes(page, 'h1', 'Checkout not found');
    await close();
  });
});
