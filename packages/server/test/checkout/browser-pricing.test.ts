import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/lib/clock.js';
import { CARDS } from '../commerce-support.js';
import { uniqueId } from '../harness.js';
import { fillAndPay, launchChromium, openPage, shot, skipBrowserTests, startSeller, textBecomes } from './browser-support.js';
import { openCheckoutWorld, type CheckoutWorld } from './support.js';

// Prices on the hosted page in chromium: a discount code applied in place (and without
// JavaScript, by posting back), and customAmount with its tax behaviour; each paid, and
// the invoice checked against what the page showed. One browser for the file.

const clock = new ManualClock(new Date('2026-11-20T10:00:00Z'));
const VIEWPORT = { width: 900, height: 900 };
let w: CheckoutWorld;
let browser: Browser;
let seller: { url: string; close: () => void };

const codeOf = (prefix: string) => uniqueId(prefix).toUpperCase().replace(/[^A-Z0-9]/g, '').slice(0, 20);

async function quarterOff(): Promise<{ id: string; code: string }> {
  const code = codeOf('QUARTER');
  const made = await w.s.call('POST', '/discounts/', { name: 'A quarter off', code, discountType: 'PERCENTAGE', percentOff: 25 });
  expect(made.status, made.text).toBe(201);
  return { id: made.body.id as string, code };
}

/** Counts the main frame's navigations from now on (a reload, a form posted back). */
function navigationsOf(page: Page): () => number {
  let count = 0;
  page.on('framenavigated', (frame) => {
    if (frame === page.mainFrame()) count += 1;
  });
  return () => count;
}

/** The session's order and its invoice, once paid. */
async function paidInvoice(sessionId: string) {
  const detail = (await w.s.call('GET', `/checkout/sessions/${sessionId}/`)).body;
  expect(detail.status).toBe('success');
  const invoice = (await w.s.call('GET', `/invoices/${detail.order.invoiceId}/`)).body;
  return { detail, invoice };
}

describe.skipIf(skipBrowserTests)('prices on the hosted checkout in chromium', () => {
  beforeAll(async () => {
    browser = await launchChromium();
    w = await openCheckoutWorld({ clock });
    seller = await startSeller();
  });
  afterAll(async () => {
    await browser?.close();
    seller?.close();
    await w?.server.close();
  });

  it('applies a discount code without a reload, removes and re-applies it by keyboard, and charges the discounted price', async () => {
    const discount = await quarterOff();
    const { id, url } = await w.session({ defaultBillingCountry: 'DE', successUrl: `${seller.url}/thanks` });
    const { page, problems, close } = await openPage(browser, VIEWPORT);
    await page.goto(url);
    await textBecomes(page, '#total', '$11.90');
    const navigations = navigationsOf(page);
    await page.evaluate(() => Object.assign(window, { billowMarker: 'still this document' }));

    await page.fill('#discount-code', discount.code);
    const [answer] = await Promise.all([page.waitForResponse((r) => r.url().endsWith('/discount/')), page.click('#apply-discount')]);
    expect(answer.status()).toBe(200);
    // Basic is $10 a month: a quarter off leaves $7.50, and Germany's 19 % VAT is added to it.
    await textBecomes(page, '#discount-message', `Code "${discount.code}" applied: $2.50 off.`);
    await textBecomes(page, '#summary', 'Discount−$2.50');
    await textBecomes(page, '#summary', '$1.43');
    await textBecomes(page, '#total', '$8.93');
    expect(await page.textContent('#pay')).toBe('Pay $8.93');
    expect(await page.getAttribute('#discount-message', 'aria-live')).toBe('polite');
    expect(await page.isVisible('#remove-discount')).toBe(true);
    await shot(page, '10-discount-applied');
    // At 375 px the field and both buttons still fit: nothing overflows sideways.
    await page.setViewportSize({ width: 375, height: 740 });
    expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBeLessThanOrEqual(0);
    expect((await page.locator('#remove-discount').boundingBox())!.height).toBeGreaterThanOrEqual(44);
    await shot(page, '10-discount-applied-375px');
    await page.setViewportSize(VIEWPORT);

    // Remove, by keyboard: focus goes back to the field, then Enter applies the code again.
    await page.focus('#remove-discount');
    await page.keyboard.press('Enter');
    await textBecomes(page, '#discount-message', 'The discount code was removed.');
    await textBecomes(page, '#total', '$11.90');
    expect(await page.isVisible('#remove-discount')).toBe(false);
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('discount-code');
    expect((await w.s.call('GET', `/checkout/sessions/${id}/`)).body.discountCode).toBeNull();
    await shot(page, '10-discount-removed');
    await page.keyboard.type(discount.code);
    await page.keyboard.press('Enter');
    await textBecomes(page, '#total', '$8.93');

    expect(navigations()).toBe(0);
    expect(await page.evaluate(() => (window as unknown as { billowMarker?: string }).billowMarker)).toBe('still this document');

    await fillAndPay(page, CARDS.ok, { email: 'discounted@example.com' });
    await page.waitForURL(new RegExp(`checkout_session_id=${id}$`));
    const { detail, invoice } = await paidInvoice(id);
    expect(detail.discountCode).toBe(discount.code);
    expect(invoice).toMatchObject({ status: 'PAID', amountSubtotal: '10.00', amountDiscount: '2.50', amountTax: '1.43', amountTotal: '8.93' });
    expect((await w.s.call('GET', `/discounts/${discount.id}/`)).body.timesRedeemed).toBe(1);
    expect(problems).toEqual([]);
    await close();
  });

  it('says in place why a code is refused, and keeps the price; when the request fails, the form is posted back', async () => {
    const discount = await quarterOff();
    const { id, url } = await w.session({ defaultBillingCountry: 'DE', successUrl: `${seller.url}/thanks` });
    const { page, problems, close } = await openPage(browser, VIEWPORT);
    await page.goto(url);
    const navigations = navigationsOf(page);
    await page.fill('#discount-code', 'NOSUCHCODE');
    await page.press('#discount-code', 'Enter');
    await textBecomes(page, '#discount-message', 'The code "NOSUCHCODE" cannot be applied: there is no such code.');
    expect(await page.getAttribute('#discount-code', 'aria-invalid')).toBe('true');
    expect(await page.getAttribute('#discount-message', 'class')).toContain('error');
    expect(await page.textContent('#total')).toBe('$11.90');
    expect(navigations()).toBe(0);
    await shot(page, '11-discount-refused');
    expect((await w.s.call('GET', `/checkout/sessions/${id}/`)).body.discountCode).toBeNull();
    // The quote cannot be reached (a network failure): the script falls back to posting the form.
    await page.route('**/discount/', (route) => route.abort());
    await page.fill('#discount-code', discount.code);
    await Promise.all([page.waitForNavigation({ waitUntil: 'load' }), page.click('#apply-discount')]);
    expect(navigations()).toBe(1);
    await textBecomes(page, '#total', '$8.93');
    expect((await w.s.call('GET', `/checkout/sessions/${id}/`)).body.discountCode).toBe(discount.code);
    expect(problems).toEqual([]);
    await close();
  });

  it('without JavaScript, applies the code by posting the form back, keeps the email and name typed, and charges the discounted price', async () => {
    const discount = await quarterOff();
    const { id, url } = await w.session({ defaultBillingCountry: 'DE', successUrl: `${seller.url}/thanks` });
    const { page, problems, close } = await openPage(browser, VIEWPORT, { javaScriptEnabled: false });
    await page.goto(url);
    expect(await page.isVisible('#update-price')).toBe(true);
    await page.fill('#email', 'nojs@example.com');
    await page.fill('#name', 'Nora Script');
    await page.fill('#discount-code', discount.code);
    await Promise.all([page.waitForNavigation({ waitUntil: 'load' }), page.click('#apply-discount')]);
    await textBecomes(page, '#discount-message', `Code "${discount.code}" applied: $2.50 off.`);
    await textBecomes(page, '#total', '$8.93');
    expect(await page.textContent('#pay')).toBe('Pay $8.93');
    expect(await page.inputValue('#email')).toBe('nojs@example.com');
    expect(await page.inputValue('#name')).toBe('Nora Script');
    await shot(page, '12-discount-without-javascript');
    await fillAndPay(page, CARDS.ok);
    await page.waitForURL(new RegExp(`checkout_session_id=${id}$`));
    const { invoice } = await paidInvoice(id);
    expect(invoice).toMatchObject({ amountDiscount: '2.50', amountTax: '1.43', amountTotal: '8.93' });
    expect(problems).toEqual([]);
    await close();
  });

  it('without JavaScript, Enter in the discount field applies the code instead of paying, and "Remove" keeps what was typed too', async () => {
    const discount = await quarterOff();
    const { id, url } = await w.session({ defaultBillingCountry: 'DE', successUrl: `${seller.url}/thanks` });
    const { page, problems, close } = await openPage(browser, VIEWPORT, { javaScriptEnabled: false });
    await page.goto(url);
    await page.fill('#email', 'enter@example.com');
    await page.fill('#name', 'Ena Keys');
    await page.fill('#discount-code', discount.code);
    await Promise.all([page.waitForNavigation({ waitUntil: 'load' }), page.press('#discount-code', 'Enter')]);
    await textBecomes(page, '#discount-message', `Code "${discount.code}" applied: $2.50 off.`);
    await textBecomes(page, '#total', '$8.93');
    expect((await w.s.call('GET', `/checkout/sessions/${id}/`)).body).toMatchObject({ status: 'open', discountCode: discount.code });
    expect(await page.inputValue('#email')).toBe('enter@example.com');
    await Promise.all([page.waitForNavigation({ waitUntil: 'load' }), page.click('#remove-discount')]);
    await textBecomes(page, '#total', '$11.90');
    expect(await page.isVisible('#remove-discount')).toBe(false);
    expect(await page.inputValue('#email')).toBe('enter@example.com');
    expect(await page.inputValue('#name')).toBe('Ena Keys');
    expect((await w.s.call('GET', `/checkout/sessions/${id}/`)).body.discountCode).toBeNull();
    expect(problems).toEqual([]);
    await close();
  });

  it('shows customAmount with INCLUSIVE and EXCLUSIVE tax as the invoice then bills it', async () => {
    const custom = { customAmount: 100, currencyCode: 'USD', defaultBillingCountry: 'DE', successUrl: `${seller.url}/thanks` };
    const expected = {
      INCLUSIVE: { rows: ['Includes 19 % tax (Germany)$15.97', 'Price before tax$84.03'], total: '$100.00', invoice: { amountSubtotal: '100.00', amountTax: '15.97', amountTotal: '100.00', taxBehavior: 'INCLUSIVE' } },
      EXCLUSIVE: { rows: ['Tax 19 % (Germany)$19.00'], total: '$119.00', invoice: { amountSubtotal: '100.00', amountTax: '19.00', amountTotal: '119.00', taxBehavior: 'EXCLUSIVE' } },
    };
    for (const [taxBehavior, want] of Object.entries(expected)) {
      const { id, url } = await w.session({ ...custom, taxBehavior, customerId: uniqueId(`custom-${taxBehavior.toLowerCase()}`) });
      const { page, problems, close } = await openPage(browser, VIEWPORT);
      await page.goto(url);
      await textBecomes(page, '#total', want.total);
      const rows = await page.locator('#summary tr').allTextContents();
      // The plan's line is the custom amount as given; then the tax as the behaviour says, and the total. The period is named as the buyer reads it, never its wire code (issue 28).
      expect(rows[0]).toMatch(/ \(Monthly\)\$100\.00$/);
      expect(rows.slice(1), rows.join(' | ')).toEqual([...want.rows, `Total (monthly)${want.total}`]);
      expect(await page.textContent('#pay')).toBe(`Pay ${want.total}`);
      await shot(page, `13-custom-amount-${taxBehavior.toLowerCase()}`);
      await fillAndPay(page, CARDS.ok, { email: 'custom@example.com' });
      await page.waitForURL(new RegExp(`checkout_session_id=${id}$`));
      const { invoice } = await paidInvoice(id);
      expect(invoice).toMatchObject({ status: 'PAID', taxRate: '19', taxCountry: 'DE', ...want.invoice });
      expect(problems).toEqual([]);
      await close();
    }
  });
});
