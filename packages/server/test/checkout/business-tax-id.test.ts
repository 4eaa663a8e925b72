/**
 * The hosted checkout's "I'm buying as a business" field (issue 27, item 5; decision 0066):
 * a malformed tax id is refused beside its field, escaped, with nothing charged; a French
 * business buying from a German seller pays no VAT (reverse charge), shown before paying and
 * recorded on the invoice; the id is kept on the customer. Then the same in Chromium.
 */
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/lib/clock.js';
import { CARDS } from '../commerce-support.js';
import { uniqueId } from '../harness.js';
import { fillAndPay, launchChromium, openPage, shot, skipBrowserTests, startSeller, textBecomes } from './browser-support.js';
import { csrfOf, getPage, openCheckoutWorld, payWith, postForm, type CheckoutWorld } from './support.js';

const clock = new ManualClock(new Date('2026-11-20T10:00:00Z'));
let w: CheckoutWorld;

beforeAll(async () => {
  w = await openCheckoutWorld({ clock });
  const profile = await w.s.call('PATCH', '/seller-profile/', { legalName: 'Acme GmbH', taxRegistrations: [{ country: 'DE', taxId: 'DE136695976' }] });
  if (profile.status !== 200) throw new Error(`profile: ${profile.status} ${profile.text}`);
});
afterAll(() => w?.server.close());

async function invoiceOf(sessionId: string) {
  const session = (await w.s.call('GET', `/checkout/sessions/${sessionId}/`)).body;
  expect(session.status).toBe('success');
  return { session, invoice: (await w.s.call('GET', `/invoices/${session.order.invoiceId}/`)).body };
}

describe('the business tax id on the hosted checkout', () => {
  it('refuses a malformed id beside its field, escaped, and charges nothing', async () => {
    const { id, url } = await w.session();
    const csrf = csrfOf((await getPage(url)).text);
    const bad = await postForm(url, payWith(csrf, CARDS.ok, { country: 'FR', business: 'yes', tax_id: 'FR40303265046<b>' }));
    expect(bad.status).toBe(422);
    expect(bad.text).toMatch(/<input id="tax-id" name="tax_id"[^>]* aria-invalid="true" aria-describedby="tax_id-error">/);
    expect(bad.text).toContain('<p class="hint" id="tax_id-error">&quot;FR40303265046&lt;b&gt;&quot; is not a valid tax ID of France. Check it');
    expect(bad.text).toContain('<a href="#tax-id">');
    expect(bad.text).not.toContain('<b>');
    const empty = await postForm(url, payWith(csrf, CARDS.ok, { country: 'FR', business: 'yes', tax_id: '' }));
    expect(empty.status).toBe(422);
    expect(empty.text).toContain('Enter your business tax ID');
    expect((await w.s.call('GET', `/checkout/sessions/${id}/`)).body.status).toBe('open');
  });

  it('shows the reverse charge before paying, charges a French business no VAT and keeps its id', async () => {
    const customerId = uniqueId('fr-business');
    const { id, url } = await w.session({ customerId });
    const csrf = csrfOf((await getPage(url)).text);
    const consumer = await postForm(url, { csrf_token: csrf, action: 'update', plan: w.s.plans.basic, period: 'MONTHLY', country: 'FR' });
    expect(consumer.text).toContain('Tax 20 % (France)');
    const business = await postForm(url, { csrf_token: csrf, action: 'update', plan: w.s.plans.basic, period: 'MONTHLY', country: 'FR', business: 'yes', tax_id: 'FR 40 303 265 045' });
    expect(business.text).toContain('reverse charge');
    expect(business.text).toContain('Pay $10.00');
    expect(business.text).toMatch(/<input type="checkbox" id="business" name="business" value="yes" data-reprice checked>/);
    const done = await postForm(url, payWith(csrf, CARDS.ok, { country: 'FR', business: 'yes', tax_id: 'FR 40 303 265 045' }));
    expect(done.status, done.text).toBe(303);
    const { invoice } = await invoiceOf(id);
    expect(invoice).toMatchObject({ taxRate: '0', taxCountry: 'FR', taxReason: 'reverse_charge', buyerTaxId: { value: 'FR40303265045' }, amountTotal: '10.00' });
    expect((await w.s.call('GET', `/customers/${customerId}/`)).body.taxIds).toMatchObject([{ type: 'eu_vat', value: 'FR40303265045', country: 'FR' }]);
    // Its next checkout shows the id in the field, ticked.
    const again = await getPage((await w.session({ customerId })).url);
    expect(again.text).toContain('value="FR40303265045"');
  });

  it('charges a German business German VAT: its own country is no reverse charge', async () => {
    const { id, url } = await w.session();
    const csrf = csrfOf((await getPage(url)).text);
    const done = await postForm(url, payWith(csrf, CARDS.ok, { country: 'DE', business: 'yes', tax_id: 'DE100000008' }));
    expect(done.status, done.text).toBe(303);
    const { invoice } = await invoiceOf(id);
    expect(invoice).toMatchObject({ taxRate: '19', taxCountry: 'DE', taxReason: 'standard', buyerTaxId: { value: 'DE100000008' }, amountTotal: '11.90' });
  });
});

describe.skipIf(skipBrowserTests)('the business tax id in chromium', () => {
  let browser: Browser;
  let seller: { url: string; close: () => void };
  beforeAll(async () => {
    browser = await launchChromium();
    seller = await startSeller();
  });
  afterAll(async () => {
    await browser?.close();
    seller?.close();
  });

  it('shows the field when ticked, refuses a bad id, re-prices with a valid one and pays it', async () => {
    const { id, url } = await w.session({ successUrl: `${seller.url}/thanks` });
    const { page, problems, close } = await openPage(browser);
    await page.goto(url);
    await page.selectOption('#country', 'FR');
    await textBecomes(page, '#summary', 'Tax 20 % (France)');
    expect(await page.isVisible('#tax-id')).toBe(false);
    await page.check('#business');
    expect(await page.isVisible('#tax-id')).toBe(true);
    await page.fill('#tax-id', 'FR40303265046');
    await fillAndPay(page, CARDS.ok, { email: 'compta@exemple.fr' });
    await textBecomes(page, '#tax_id-error', 'is not a valid tax ID of France');
    expect(await page.getAttribute('#tax-id', 'aria-invalid')).toBe('true');
    await shot(page, 'business-01-invalid-tax-id');
    await page.fill('#tax-id', 'FR40303265045');
    await page.locator('#tax-id').blur();
    await textBecomes(page, '#summary', 'reverse charge');
    await shot(page, 'business-02-reverse-charge');
    await fillAndPay(page, CARDS.ok);
    await page.waitForURL(`${seller.url}/thanks?checkout_session_id=${id}`);
    const { invoice } = await invoiceOf(id);
    expect(invoice).toMatchObject({ taxReason: 'reverse_charge', buyerTaxId: { value: 'FR40303265045' }, amountTax: '0.00' });
    expect(problems).toEqual([]);
    await close();
  });
});
