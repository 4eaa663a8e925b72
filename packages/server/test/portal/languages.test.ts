/**
 * The customer portal, its sign-in and the sign-in email in the customer's language (issue
 * 28, item 3; decisions 0068, 0072), through HTTP: the customer's locale first, else the
 * browser's Accept-Language, else English; money and dates through Intl; card problems and
 * notices in the customer's words; no wire code or enum on the page.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getIn, langOf, postIn, textOf, WIRE_WORDS } from '../checkout/page-text.js';
import { createCustomer, FormBrowser, inbox, slugOf, uniqueEmail } from '../portal-sign-in/support.js';
import { asVisited, CARDS, formFields, openPortalWorld, type PortalWorld } from './support.js';

let w: PortalWorld;

beforeAll(async () => {
  w = await openPortalWorld();
});
afterAll(() => w?.server.close());

/** The portal page of a link as a browser set to `acceptLanguage` sees it (the token traded for the cookie). */
async function portalIn(link: string, acceptLanguage?: string) {
  const { url, headers } = asVisited(link);
  return { ...(await getIn(url, acceptLanguage, headers)), url, headers };
}

describe('the portal in the customer’s language', () => {
  it("is German for a customer whose locale is de, whatever the browser says: words, money, dates, statuses", async () => {
    const customerId = await w.customer();
    expect((await w.s.call('PATCH', `/customers/${customerId}/`, { locale: 'de' })).status).toBe(200);
    await w.subscribe(customerId, w.s.plans.basic);
    const page = await portalIn(await w.portalLink(customerId), 'fr-FR');
    expect(page.status).toBe(200);
    expect(langOf(page.text)).toBe('de');
    const text = textOf(page.text);
    expect(text).toContain('Kundenportal');
    expect(text).toContain('Abonnements');
    expect(text).toContain('aktiv');
    expect(text).toContain('Preis 10,00 $ · Monatlich');
    expect(text).toMatch(/Aktueller Zeitraum \d\d\.\d\d\.\d{4} bis \d\d\.\d\d\.\d{4}/);
    expect(text).toMatch(/Rechnungen INV-\S+ bezahlt Ausgestellt \d\d\.\d\d\.\d{4} Gesamt 10,00 \$ PDF herunterladen/);
    expect(text).toContain('Zahlungsmethoden');
    expect(text).toContain('Zum Ende des Zeitraums kündigen');
    expect(text).not.toMatch(WIRE_WORDS);
    expect(text).not.toContain('Billing portal');
  });

  it("follows the browser (French) for a customer without a locale, and English without Accept-Language", async () => {
    const customerId = await w.customer();
    await w.subscribe(customerId, w.s.plans.basic, 'YEARLY');
    const link = await w.portalLink(customerId);
    const french = await portalIn(link, 'fr-CA,fr;q=0.9');
    expect(langOf(french.text)).toBe('fr');
    const fr = textOf(french.text);
    expect(fr).toContain('Espace client');
    expect(fr).toContain('Prix 100,00 $US · Annuel');
    expect(fr).toContain('Résilier l’abonnement');
    expect(fr).not.toMatch(WIRE_WORDS);
    const english = textOf((await portalIn(link)).text);
    expect(english).toContain('Billing portal');
    expect(english).toContain('Price $100.00 · Yearly');
    expect(english).toMatch(/Current period \d{1,2} \w{3} \d{4} to \d{1,2} \w{3} \d{4}/);
    expect(english).not.toMatch(WIRE_WORDS);
  });

  it('says a mistyped card in the customer’s words (no "Luhn"), takes 09 / 2035 as an expiry, and says what was done', async () => {
    const customerId = await w.customer({ card: null });
    expect((await w.s.call('PATCH', `/customers/${customerId}/`, { locale: 'es' })).status).toBe(200);
    const page = await portalIn(await w.portalLink(customerId));
    const fields = formFields(page.text, 'add_card');
    const refused = await postIn(page.url.split('?')[0]!, { ...fields, card_number: '4242 4242 4242 4241', expiry: '09 / 2035', cvc: '123' }, undefined, page.headers);
    expect(refused.status).toBe(400);
    const text = textOf(refused.text);
    expect(text).toContain('Este número de tarjeta no es válido.');
    expect(text).not.toMatch(WIRE_WORDS);

    const again = await getIn(page.url, undefined, page.headers);
    const saved = await postIn(page.url.split('?')[0]!, { ...formFields(again.text, 'add_card'), card_number: CARDS.ok, expiry: '09 / 2035', cvc: '123' }, undefined, page.headers);
    expect(saved.status).toBe(303);
    const done = textOf((await getIn(new URL(saved.headers.get('location')!, w.server.url).toString(), undefined, page.headers)).text);
    expect(done).toContain('Su tarjeta se ha guardado.');
    expect(done).toContain('VISA terminada en 4242, caduca 09/2035');
  });

  it('says a refused tax id in the customer’s words, the country by name (German)', async () => {
    const customerId = await w.customer();
    expect((await w.s.call('PATCH', `/customers/${customerId}/`, { locale: 'de' })).status).toBe(200);
    const page = await portalIn(await w.portalLink(customerId));
    const fields = { ...formFields(page.text, 'billing'), line1: '2 Rue X', city: 'Paris', country: 'FR', tax_id: 'FR40303265046' };
    const refused = await postIn(page.url.split('?')[0]!, fields, undefined, page.headers);
    expect(refused.status).toBe(400);
    const text = textOf(refused.text);
    expect(text).toContain('Ihre Rechnungsangaben wurden nicht gespeichert: „FR40303265046“ ist keine gültige Steuernummer für Frankreich.');
    expect(text).not.toContain('tax id');
  });

  it('answers a missing or expired link in the browser’s language (Japanese, English)', async () => {
    const slug = await slugOf(w.server, w.org.organizationId);
    const ja = await getIn(`${w.server.url}/sandbox/portal/${slug}/`, 'ja');
    expect(ja.status).toBe(401);
    expect(langOf(ja.text)).toBe('ja');
    expect(textOf(ja.text)).toContain('このページにはリンクが必要です');
    expect(textOf(ja.text)).toContain('メールアドレスでサインイン');
    expect(textOf((await getIn(`${w.server.url}/sandbox/portal/${slug}/`, 'en')).text)).toContain('This page needs a link');
  });
});

describe('signing in, in the customer’s language', () => {
  it('shows the sign-in pages in the browser’s language (French) and writes the code email in the customer’s locale (German)', async () => {
    const slug = await slugOf(w.server, w.org.organizationId);
    const signIn = `/sandbox/portal/${slug}/sign-in`;
    const email = uniqueEmail();
    const customerId = await createCustomer(w.server, w.org.sandbox.serverKey, 'sandbox', { email });
    expect((await w.s.call('PATCH', `/customers/${customerId}/`, { locale: 'de-AT' })).status).toBe(200);
    const browser = new FormBrowser(w.server.url, { 'accept-language': 'fr' });
    const first = await browser.get(signIn);
    expect(langOf(first.text)).toBe('fr');
    expect(textOf(first.text)).toContain('Saisissez l’adresse e-mail utilisée pour votre achat. Nous y enverrons un code à 6 chiffres.');
    const invalid = await browser.submit(signIn, { email: 'not-an-email' });
    expect(invalid.status).toBe(422);
    expect(textOf(invalid.text)).toContain('Saisissez une adresse e-mail, comme nom@example.com.');
    const asked = await browser.submit(signIn, { email });
    expect(asked.status).toBe(303);
    const codePage = textOf((await browser.get(asked.location!)).text);
    expect(codePage).toContain(`Si ${email} appartient à un compte client`);
    const wrong = await browser.submit(asked.location!, { code: '000000' });
    expect(textOf(wrong.text)).toMatch(/Ce code n’est pas le bon : \d essais? restants?\./);

    const message = (await inbox(w.server, w.org)).messages.find((m) => m.to === email)!;
    expect(message.subject).toMatch(/^Ihr Anmeldecode für /);
    expect(message.text).toMatch(/Er läuft in \d+ Minuten ab und gilt nur einmal./);
    expect(message.text).not.toContain('Your code');
  });

  it('writes the code email in the page’s language (Spanish) for a customer without a locale', async () => {
    const slug = await slugOf(w.server, w.org.organizationId);
    const email = uniqueEmail();
    await createCustomer(w.server, w.org.sandbox.serverKey, 'sandbox', { email });
    const browser = new FormBrowser(w.server.url, { 'accept-language': 'es-ES' });
    expect((await browser.submit(`/sandbox/portal/${slug}/sign-in`, { email })).status).toBe(303);
    const message = (await inbox(w.server, w.org)).messages.find((m) => m.to === email)!;
    expect(message.subject).toMatch(/^Su código de acceso para /);
    expect(message.text).toContain('solo sirve una vez');
  });
});
