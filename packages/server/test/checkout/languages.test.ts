/**
 * The hosted checkout in the buyer's language (issue 28, item 3; decision 0068): the
 * customer's locale first, else the browser's Accept-Language, else the seller's default
 * language, else English; words from the catalogues, money through Intl in that language.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { uniqueId } from '../harness.js';
import { csrfOf, openCheckoutWorld, payWith, type CheckoutWorld } from './support.js';
import { langOf, textOf } from './page-text.js';

let w: CheckoutWorld;

beforeAll(async () => {
  w = await openCheckoutWorld();
});
afterAll(() => w.server.close());

async function pageIn(url: string, acceptLanguage?: string): Promise<string> {
  const res = await fetch(url, { headers: acceptLanguage ? { 'accept-language': acceptLanguage } : {} });
  expect(res.status).toBe(200);
  return res.text();
}

const setProfile = async (body: Record<string, unknown>) => {
  const res = await w.s.call('PATCH', '/seller-profile/', body);
  if (res.status !== 200) throw new Error(`profile: ${res.status} ${res.text}`);
};

describe('the hosted checkout in the buyer’s language', () => {
  beforeAll(() => setProfile({ legalName: 'Acme Software GmbH', termsUrl: 'https://acme.example/terms', supportUrl: 'https://acme.example/help' }));

  it('is English without Accept-Language (and for en-US)', async () => {
    const { url } = await w.session();
    for (const header of [undefined, 'en-US,en;q=0.9']) {
      const page = await pageIn(url, header);
      expect(langOf(page)).toBe('en');
      const text = textOf(page);
      expect(text).toContain('Your details');
      expect(text).toContain("You'll be charged $10.00 every month until you cancel.");
      expect(text).toContain('Sold by Acme Software GmbH');
      expect(text).toContain('Pay $10.00');
    }
  });

  it('is German for a browser asking for de-DE: words, money, the recurring sentence, the footer', async () => {
    const { url } = await w.session({ planIdentifier: w.s.plans.basic, chargePeriod: 'MONTHLY' });
    const page = await pageIn(url, 'de-DE,de;q=0.9,en;q=0.8');
    expect(langOf(page)).toBe('de');
    const text = textOf(page);
    expect(text).toContain('Ihre Angaben');
    expect(text).toContain('Land der Rechnungsadresse');
    expect(text).toContain('Ihnen werden jeden Monat 10,00 $ berechnet, bis Sie kündigen.');
    expect(text).toContain('10,00 $ bezahlen');
    expect(text).toContain('Gesamt (monatlich)');
    expect(text).toContain('Verkauft von Acme Software GmbH');
    expect(text).toContain('Verkaufsbedingungen');
    expect(text).toContain('Hilfe');
    // Country names in German, no English words and no wire code left.
    expect(page).toContain('<option value="DE">Deutschland</option>');
    for (const english of ['Your details', 'Sold by', 'every month', '$10.00', 'Terms of sale']) expect(text).not.toContain(english);
    expect(text).not.toMatch(/\bMONTHLY\b/);
  });

  it("follows the customer's locale over the browser's (ja), set and cleared through the API", async () => {
    const customerId = uniqueId('ja-buyer');
    const created = await w.s.call('POST', '/customers/', { customerId, email: `${customerId}@example.com`, locale: 'ja-jp' });
    expect(created.status).toBe(201);
    expect(created.body.locale).toBe('ja-JP');
    const { url } = await w.session({ customerId });
    const page = await pageIn(url, 'de-DE,de;q=0.9');
    expect(langOf(page)).toBe('ja');
    const text = textOf(page);
    expect(text).toContain('お客様情報');
    expect(text).toContain('解約するまで毎月$10.00が請求されます。');
    expect(text).toContain('販売者：Acme Software GmbH');

    const cleared = await w.s.call('PATCH', `/customers/${customerId}/`, { locale: null });
    expect(cleared.status).toBe(200);
    expect(cleared.body).not.toHaveProperty('locale');
    expect(langOf(await pageIn(url, 'de-DE'))).toBe('de');
  });

  it('answers no locale for customers without one, and refuses a tag that is not one (changing nothing)', async () => {
    const customerId = uniqueId('plain');
    const created = await w.s.call('POST', '/customers/', { customerId });
    expect(created.status).toBe(201);
    expect(created.body).not.toHaveProperty('locale');
    for (const locale of ['not a tag', 'x', 'en_US', 'de-']) {
      const refused = await w.s.call('PATCH', `/customers/${customerId}/`, { locale });
      expect(refused.status).toBe(400);
      expect(refused.body.detail).toBeTruthy();
    }
    const set = await w.s.call('PATCH', `/customers/${customerId}/`, { locale: 'fr-CA' });
    expect(set.body.locale).toBe('fr-CA');
    const read = await w.s.call('GET', `/customers/${customerId}/`);
    expect(read.body.locale).toBe('fr-CA');
  });

  it("falls back to the seller's default language, then English, when the browser names none of ours", async () => {
    const { url } = await w.session();
    await setProfile({ defaultLanguage: 'fr' });
    try {
      for (const header of [undefined, 'zz', '*']) {
        const page = await pageIn(url, header);
        expect(langOf(page)).toBe('fr');
        expect(textOf(page)).toContain('Vos coordonnées');
      }
      expect(langOf(await pageIn(url, 'es-MX,es;q=0.9'))).toBe('es');
      expect(textOf(await pageIn(url, 'es-MX'))).toContain('Se le cobrarán 10,00 US$ cada mes hasta que cancele.');
    } finally {
      await setProfile({ defaultLanguage: 'en' });
    }
    expect(langOf(await pageIn(url, 'zz'))).toBe('en');
  });

  it("remembers the language the buyer's browser asked for on a new customer, never over one already set", async () => {
    const pay = async (customerId: string, acceptLanguage: string) => {
      const { url } = await w.session({ customerId });
      const page = await pageIn(url, acceptLanguage);
      const res = await fetch(url, {
        method: 'POST',
        redirect: 'manual',
        headers: { 'content-type': 'application/x-www-form-urlencoded', 'accept-language': acceptLanguage },
        body: new URLSearchParams(payWith(csrfOf(page), '4242424242424242')).toString(),
      });
      expect(res.status).toBe(303);
      return (await w.s.call('GET', `/customers/${customerId}/`)).body;
    };
    expect((await pay(uniqueId('fr-buyer'), 'fr-FR,fr;q=0.9')).locale).toBe('fr');
    const known = uniqueId('known');
    expect((await w.s.call('POST', '/customers/', { customerId: known, locale: 'ja' })).status).toBe(201);
    expect((await pay(known, 'de-DE')).locale).toBe('ja');
    expect(await pay(uniqueId('no-preference'), 'zz')).not.toHaveProperty('locale');
  });

  it("says a problem with the buyer's input in their language", async () => {
    const { url } = await w.session();
    const page = await pageIn(url, 'de');
    const res = await fetch(url, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'accept-language': 'de' },
      body: new URLSearchParams(payWith(csrfOf(page), '4242424242424242', { email: 'not-an-email' })).toString(),
    });
    expect(res.status).toBe(422);
    const text = textOf(await res.text());
    expect(text).toContain('Geben Sie eine gültige E-Mail-Adresse ein, etwa sie@example.com.');
    expect(text).not.toContain('Enter a valid email address');
  });
});
