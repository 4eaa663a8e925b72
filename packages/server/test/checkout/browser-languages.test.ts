/**
 * The hosted checkout rendered by Chromium in two languages (issue 28, item 3): the
 * browser's own language (German) and a customer's locale (French), with screenshots in
 * test-artifacts/checkout/. (Japanese is checked through HTTP in languages.test.ts: the
 * test machines' Chromium has no CJK font, so its screenshot would show empty boxes.)
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { uniqueId } from '../harness.js';
import { launchChromium, openPage, shot, skipBrowserTests } from './browser-support.js';
import { openCheckoutWorld, type CheckoutWorld } from './support.js';

let w: CheckoutWorld;
let browser: Browser;

/** An element's text with Intl's no-break spaces ("10,00\u00a0$") read as spaces. */
const textAt = async (page: Page, selector: string) => (await page.textContent(selector))?.replace(/\s/g, ' ');

describe.skipIf(skipBrowserTests)('the hosted checkout in two languages, in chromium', () => {
  beforeAll(async () => {
    browser = await launchChromium();
    w = await openCheckoutWorld();
    const profile = await w.s.call('PATCH', '/seller-profile/', { legalName: 'Acme Software GmbH', termsUrl: 'https://acme.example/terms', privacyUrl: 'https://acme.example/privacy' });
    expect(profile.status).toBe(200);
  });
  afterAll(async () => {
    await browser?.close();
    await w?.server.close();
  });

  it('is German in a browser set to de-DE, money and the recurring sentence included', async () => {
    const { url } = await w.session();
    const { page, problems, close } = await openPage(browser, undefined, { locale: 'de-DE' });
    await page.goto(url);
    expect(await page.getAttribute('html', 'lang')).toBe('de');
    expect(await textAt(page, '#recurring')).toBe('Ihnen werden jeden Monat 10,00 $ berechnet, bis Sie kündigen.');
    expect(await textAt(page, '#pay')).toBe('10,00 $ bezahlen');
    // The page's script re-prices in place; what it puts back is German too.
    await page.selectOption('#country', 'DE');
    // Germany's tax line, which only the re-priced summary has ("Gesamt" was there before it).
    await page.waitForFunction(() => document.querySelector('#summary')?.textContent?.includes('Steuer 19 % (Deutschland)'));
    await shot(page, 'languages-01-de');
    expect(await page.textContent('.seller-footer')).toContain('Verkauft von Acme Software GmbH');
    expect(problems).toEqual([]);
    await close();
  });

  it("is French for a customer whose locale is fr-CA, whatever the browser's language", async () => {
    const customerId = uniqueId('fr-browser');
    expect((await w.s.call('POST', '/customers/', { customerId, email: `${customerId}@example.com`, locale: 'fr-CA' })).status).toBe(201);
    const { url } = await w.session({ customerId });
    const { page, problems, close } = await openPage(browser, undefined, { locale: 'en-US' });
    await page.goto(url);
    expect(await page.getAttribute('html', 'lang')).toBe('fr');
    expect(await textAt(page, '#recurring')).toBe('Vous serez débité de 10,00 $US chaque mois jusqu’à ce que vous résiliiez.');
    expect(await page.textContent('h2')).toBe('Vos coordonnées');
    await shot(page, 'languages-02-fr');
    expect(problems).toEqual([]);
    await close();
  });
});
