/**
 * The pay-link page, the confirmation page and the customer portal rendered by Chromium in
 * two languages each (issue 28, items 3 and 4): the customer's locale, or the browser's own.
 * Screenshots in test-artifacts/checkout/languages-*.png and test-artifacts/portal/languages-*.png
 * (Japanese glyphs come from the Japanese font .ci/run installs).
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { screenshotsIn } from '../browser.js';
import { CARDS } from '../commerce-support.js';
import { uniqueId } from '../harness.js';
import { openPortalWorld, type PortalWorld } from '../portal/support.js';
import { launchChromium, openPage, shot, skipBrowserTests, textBecomes } from './browser-support.js';
import { expectStatus, pastDueInvoice } from './pay-links-support.js';
import { WIRE_WORDS } from './page-text.js';

let w: PortalWorld;
let browser: Browser;
const portalShot = screenshotsIn('portal');

/** An element's text with Intl's no-break spaces read as spaces. */
const textAt = async (page: Page, selector: string) => (await page.textContent(selector))?.replace(/\s/g, ' ').trim();
const bodyText = async (page: Page) => (await page.innerText('main')).replace(/\s/g, ' ');

async function payCard(page: Page, card: string, expiry: string): Promise<void> {
  await page.fill('#card-number', card);
  await page.fill('#expiry', expiry);
  await page.fill('#cvc', '123');
  await page.click('#pay');
}

describe.skipIf(skipBrowserTests)('hosted pages in two languages, in chromium', () => {
  beforeAll(async () => {
    browser = await launchChromium();
    w = await openPortalWorld();
    const profile = await w.s.call('PATCH', '/seller-profile/', { legalName: 'Acme Software GmbH', termsUrl: 'https://acme.example/terms', supportEmail: 'help@acme.example' });
    expectStatus(profile, 200);
  });
  afterAll(async () => {
    await browser?.close();
    await w?.server.close();
  });

  it("shows an unpaid invoice's page in the customer's language (German) over the browser's, and its paid page", async () => {
    const { customerId, invoice } = await pastDueInvoice(w);
    expectStatus(await w.s.call('PATCH', `/customers/${customerId}/`, { locale: 'de' }), 200);
    const { page, problems, close } = await openPage(browser, undefined, { locale: 'en-US' });
    await page.goto(invoice.paymentLink);
    expect(await page.getAttribute('html', 'lang')).toBe('de');
    expect(await textAt(page, 'h1')).toBe('Rechnung bezahlen');
    expect(await textAt(page, '#due-line')).toBe(`Rechnung ${invoice.number}`);
    expect(await textAt(page, '#pay')).toBe('10,00 $ bezahlen');
    await shot(page, 'languages-03-pay-link-de');
    // On a phone: nothing wider than the screen.
    await page.setViewportSize({ width: 375, height: 740 });
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    await shot(page, 'languages-03-pay-link-de-375px');
    await page.setViewportSize({ width: 1000, height: 900 });
    await payCard(page, CARDS.ok, '0935');
    await textBecomes(page, 'h1', 'Diese Zahlung ist abgeschlossen');
    await shot(page, 'languages-04-pay-link-paid-de');
    expect(await bodyText(page)).not.toMatch(WIRE_WORDS);
    expect(problems).toEqual([]);
    await close();
  });

  it("shows the invoice's page in Japanese for a browser set to ja-JP", async () => {
    const { invoice } = await pastDueInvoice(w);
    const { page, problems, close } = await openPage(browser, undefined, { locale: 'ja-JP' });
    await page.goto(invoice.paymentLink);
    expect(await page.getAttribute('html', 'lang')).toBe('ja');
    expect(await textAt(page, 'h1')).toBe('請求書のお支払い');
    expect(await textAt(page, '#pay')).toBe('$10.00を支払う');
    await shot(page, 'languages-05-pay-link-ja');
    expect(await bodyText(page)).not.toMatch(WIRE_WORDS);
    expect(problems).toEqual([]);
    await close();
  });

  it('lands a buy link without a success URL on the confirmation, in French (the browser) and English', async () => {
    for (const [locale, title, paidLine, name] of [
      ['fr-FR', 'Merci pour votre achat', 'Nous avons bien reçu votre paiement de 10,00 $US.', 'languages-06-confirmation-fr'],
      ['en-GB', 'Thank you for your purchase', 'We received your payment of $10.00.', 'languages-07-confirmation-en'],
    ] as const) {
      const { page, problems, close } = await openPage(browser, undefined, { locale });
      await page.goto(`${w.server.url}/sandbox/buy/${w.s.product.id}/?plan_identifier=${w.s.plans.basic}&charge_period=MONTHLY`);
      const email = `${uniqueId('buyer')}@example.com`;
      await page.fill('#email', email);
      await page.selectOption('#country', 'US');
      await payCard(page, CARDS.ok, '09 / 2035');
      await textBecomes(page, 'h1', title);
      expect(await textAt(page, '#paid-amount')).toBe(paidLine);
      expect(await textAt(page, '#receipt-to')).toContain(email);
      expect(await page.getAttribute('#invoice-link', 'href')).toMatch(/\/checkout\/cs_\w+\/invoice\.pdf$/);
      await shot(page, name);
      expect(await bodyText(page)).not.toMatch(WIRE_WORDS);
      expect(problems).toEqual([]);
      await close();
    }
  });

  it("shows the portal in the customer's language (German) and in the browser's (Spanish)", async () => {
    const german = await w.customer();
    expectStatus(await w.s.call('PATCH', `/customers/${german}/`, { locale: 'de-DE' }), 200);
    await w.subscribe(german, w.s.plans.basic);
    const spanish = await w.customer();
    await w.subscribe(spanish, w.s.plans.pro, 'YEARLY');
    for (const [customerId, locale, lang, heading, name] of [
      [german, 'en-US', 'de', 'Kundenportal', 'languages-01-de'],
      [spanish, 'es-ES', 'es', 'Portal de facturación', 'languages-02-es'],
    ] as const) {
      const { page, problems, close } = await openPage(browser, undefined, { locale });
      await page.goto(await w.portalLink(customerId));
      expect(await page.getAttribute('html', 'lang')).toBe(lang);
      expect(await textAt(page, 'h1')).toBe(heading);
      await portalShot(page, name);
      expect(await bodyText(page)).not.toMatch(WIRE_WORDS);
      expect(problems).toEqual([]);
      await close();
    }
  });
});
