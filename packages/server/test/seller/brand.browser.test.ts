/**
 * The seller on hosted pages in Chromium (issue 27, item 2): the checkout, an invoice's
 * payment page and the portal carry the seller profile's logo, name, links and brand colour, at desktop and phone widths,
 * with the colour made accessible (WCAG AA: 4.5:1 for the white text of buttons, and for
 * links on white) and no policy violation. Screenshots go to test-artifacts/seller/.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, openPage, screenshotsIn, skipBrowserTests } from '../browser.js';
import { contrastRatio } from '../../src/lib/contrast.js';
import { openPortalWorld, type PortalWorld } from '../portal/support.js';
import { pastDueInvoice } from '../checkout/pay-links-support.js';
import { pngOf, uploadedImage } from './images.js';

const shot = screenshotsIn('seller');
let w: PortalWorld;
let browser: Browser;

const PROFILE = {
  displayName: 'Acme Cloud',
  legalName: 'Acme Software GmbH',
  websiteUrl: 'https://acme.example',
  supportEmail: 'help@acme.example',
  termsUrl: 'https://acme.example/terms',
  refundPolicyUrl: 'https://acme.example/refunds',
  privacyUrl: 'https://acme.example/privacy',
  // A light sky blue: white text on it would fail AA, so the pages darken it.
  brandColor: '#7DD3FC',
};

/** "rgb(r, g, b)" as #RRGGBB. */
const hexOf = (css: string) =>
  `#${(css.match(/\d+/g) ?? []).slice(0, 3).map((n) => Number(n).toString(16).padStart(2, '0')).join('')}`.toUpperCase();

/** The logo is shown, loaded (the page's policy let it in), and no larger than the header allows. */
async function expectLogo(page: Page) {
  const logo = await page.$eval('.seller-logo', (img) => {
    const image = img as HTMLImageElement;
    const box = image.getBoundingClientRect();
    return { loaded: image.complete && image.naturalWidth === 180, height: Math.round(box.height), width: Math.round(box.width) };
  });
  expect(logo).toEqual({ loaded: true, height: 40, width: 120 });
}

async function colours(page: Page, selector: string) {
  return page.$eval(selector, (element) => {
    const style = getComputedStyle(element);
    return { color: style.color, background: style.backgroundColor };
  });
}

describe.skipIf(skipBrowserTests)('the seller on hosted pages, in chromium', () => {
  beforeAll(async () => {
    w = await openPortalWorld();
    const logoImageKey = await uploadedImage(w.s.call, pngOf(180, 60, [12, 74, 110]));
    const res = await w.s.call('PATCH', '/seller-profile/', { ...PROFILE, logoImageKey });
    expect(res.status, res.text).toBe(200);
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await w?.server.close();
  });

  for (const [label, viewport] of [
    ['1280', { width: 1280, height: 1000 }],
    ['375', { width: 375, height: 900 }],
  ] as const) {
    it(`shows the checkout under the seller's name and colour, accessible, at ${label} px`, async () => {
      const created = await w.s.call('POST', '/checkout/', { planIdentifier: w.s.plans.basic, chargePeriod: 'MONTHLY', successUrl: 'https://acme.example/thanks' });
      expect(created.status, created.text).toBe(201);
      const { page, problems, close } = await openPage(browser, viewport);
      expect((await page.goto(created.body.checkoutUrl))!.status()).toBe(200);
      expect(await page.textContent('.seller-name')).toBe('Acme Cloud');
      await expectLogo(page);
      expect(await page.textContent('.seller-footer')).toContain('Sold by Acme Software GmbH');
      expect(await page.textContent('#recurring')).toBe("You'll be charged $10.00 every month until you cancel.");
      const pay = await colours(page, '#pay');
      expect(hexOf(pay.background)).not.toBe('#1D4ED8');
      expect(contrastRatio(hexOf(pay.color), hexOf(pay.background))).toBeGreaterThanOrEqual(4.5);
      const link = await colours(page, '.seller-footer a');
      expect(contrastRatio(hexOf(link.color), '#FFFFFF')).toBeGreaterThanOrEqual(4.5);
      await shot(page, `checkout-${label}`);
      expect(problems).toEqual([]);
      await close();
    });
  }

  for (const [label, viewport] of [
    ['1280', { width: 1280, height: 1000 }],
    ['375', { width: 375, height: 900 }],
  ] as const) {
    it(`shows the portal with the seller's logo, name, a way back to their site, their terms and colour, at ${label} px`, async () => {
      const customerId = await w.customer();
      await w.subscribe(customerId, w.s.plans.basic);
      const { page, problems, close } = await openPage(browser, viewport);
      expect((await page.goto(await w.portalLink(customerId)))!.status()).toBe(200);
      expect(await page.title()).toBe('Billing portal · Acme Cloud');
      await expectLogo(page);
      expect(await page.getAttribute('#back-to-seller', 'href')).toBe('https://acme.example');
      expect(await page.textContent('.seller-footer')).toContain('Terms of sale');
      const link = await colours(page, '#back-to-seller');
      expect(contrastRatio(hexOf(link.color), '#FFFFFF')).toBeGreaterThanOrEqual(4.5);
      await shot(page, `portal-${label}`);
      expect(problems).toEqual([]);
      await close();
    });
  }

  it("shows an unpaid invoice's payment page under the seller's logo, name, colour and terms", async () => {
    const { invoice } = await pastDueInvoice(w);
    const { page, problems, close } = await openPage(browser, { width: 375, height: 900 });
    expect((await page.goto(invoice.paymentLink))!.status()).toBe(200);
    await expectLogo(page);
    expect(await page.textContent('.seller-name')).toBe('Acme Cloud');
    expect(await page.textContent('.seller-footer')).toContain('Refund policy');
    // The invoice by the number its PDF and the portal show.
    expect(invoice.number).toMatch(/^INV-\d{4}-\d{6}$/);
    expect(await page.textContent('table')).toContain(`Invoice ${invoice.number}`);
    const pay = await colours(page, '#pay');
    expect(contrastRatio(hexOf(pay.color), hexOf(pay.background))).toBeGreaterThanOrEqual(4.5);
    await shot(page, 'pay-link-375');
    expect(problems).toEqual([]);
    await close();
  });
});
