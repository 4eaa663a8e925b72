/**
 * The checkout's other pages in the buyer's language (issue 28, items 3 and 4; decisions
 * 0068, 0072), through HTTP: the order summary as a storefront (what the plan includes,
 * the tax country by name), the pay-link and plan-change pages, the confirmation page with
 * its invoice, closed and unknown links, card problems in the buyer's words and the
 * expiry as people type it. Each in at least two languages; no wire code reaches the page.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { catalogClient } from '../catalog-support.js';
import { CARDS } from '../commerce-support.js';
import { uniqueId } from '../harness.js';
import { pdfText } from '../pdf-text.js';
import { expectStatus, pastDueInvoice, premiumPlan, subscriberPaying } from './pay-links-support.js';
import { getIn, langOf, postIn, textOf, WIRE_WORDS } from './page-text.js';
import { csrfOf, openCheckoutWorld, payWith, type CheckoutWorld } from './support.js';

let w: CheckoutWorld;
const call = (method: string, path: string, body?: unknown) => w.s.call(method, path, body);

beforeAll(async () => {
  w = await openCheckoutWorld();
  expectStatus(await call('PATCH', '/seller-profile/', { legalName: 'Acme Software GmbH', termsUrl: 'https://acme.example/terms' }), 200);
});
afterAll(() => w.server.close());

/** A $10 monthly plan granting SSO, 1,000 API calls a month and unlimited projects. */
async function storefrontPlan(): Promise<string> {
  const catalog = catalogClient(w.server, w.org.sandbox.serverKey, '/sandbox');
  const sso = await catalog.feature({ name: 'Single sign-on', featureType: 'BOOLEAN' });
  const calls = await catalog.feature({ name: 'API calls', featureType: 'METER', featureDetails: { featureSubType: 'PRE_AGGREGATED_USAGE', units: { singular: 'call', plural: 'calls' } } });
  const projects = await catalog.feature({ name: 'Projects', featureType: 'CUSTOMIZABLE' });
  const hidden = await catalog.feature({ name: 'Not granted', featureType: 'BOOLEAN' });
  const plan = await catalog.plan(w.s.product.id, { name: uniqueId('Growth') });
  const granted = await catalog.call('POST', `/catalog/plans/${plan.identifier}/features/`, {
    planEntitlements: [
      { feature: sso.id, details: { value: true } },
      { feature: calls.id, details: { value: 1000, reset: 'EVERY_MONTH' } },
      { feature: projects.id, details: { hasUnlimitedUsage: true } },
      { feature: hidden.id, details: { value: false } },
    ],
  });
  expectStatus(granted, 201);
  await catalog.prices(plan.identifier, [{ priceType: 'PAID', currency: 'USD', chargeCatalogPrice: [{ charges: [{ chargePeriod: 'MONTHLY', priceData: { amount: 10 } }] }] }]);
  await catalog.publish(plan.identifier);
  return plan.identifier as string;
}

describe('the order summary as a storefront', () => {
  it("says what the plan includes and names the tax country, in English and in German, with one money format", async () => {
    const plan = await storefrontPlan();
    const { url } = await w.session({ planIdentifier: plan, chargePeriod: 'MONTHLY' });
    const english = await getIn(`${url}?country=DE`, 'en-US');
    const en = textOf(english.text);
    expect(en).toContain("What's included Single sign-on API calls: 1,000 per month Projects: unlimited");
    expect(en).toContain('Tax 19 % (Germany) $1.90');
    expect(en).not.toContain('Not granted');

    const german = await getIn(`${url}?country=DE`, 'de-DE');
    expect(langOf(german.text)).toBe('de');
    const de = textOf(german.text);
    expect(de).toContain('Im Tarif enthalten Single sign-on API calls: 1.000 pro Monat Projects: unbegrenzt');
    expect(de).toContain('Steuer 19 % (Deutschland) 1,90 $');
    expect(de).toContain('Ihnen werden jeden Monat 11,90 $ berechnet, bis Sie kündigen.');
    // One money format on the page: no amount written the English way.
    expect(de).not.toMatch(/\$\d/);
    for (const text of [en, de]) expect(text).not.toMatch(WIRE_WORDS);
  });

  it('names the tax country in Japanese and French', async () => {
    const { url } = await w.session();
    expect(textOf((await getIn(`${url}?country=FR`, 'fr')).text)).toContain('Taxe 20 % (France)');
    expect(textOf((await getIn(`${url}?country=DE`, 'ja')).text)).toContain('税 19 %（ドイツ）');
  });
});

describe('card problems in the buyer’s words, and the expiry as people type it', () => {
  it('accepts 0930, 09/30 and 09 / 2030, and says a mistyped number without "Luhn" or field names', async () => {
    for (const expiry of ['0935', '09/35', '09 / 2035']) {
      const { url } = await w.session();
      const page = await getIn(url, 'de');
      const paid = await postIn(url, payWith(csrfOf(page.text), CARDS.ok, { expiry }), 'de');
      expect(paid.status, `${expiry}: ${textOf(paid.text).slice(0, 300)}`).toBe(303);
    }
    const { url } = await w.session();
    const page = await getIn(url, 'de');
    for (const [card, expiry, words] of [
      ['4242 4242 4242 4241', '12 / 35', 'Diese Kartennummer ist ungültig.'],
      [CARDS.ok, '13 / 35', 'Geben Sie das Ablaufdatum als MM / JJ ein'],
      [CARDS.ok, '01 / 20', 'Diese Karte ist abgelaufen.'],
    ] as const) {
      const refused = await postIn(url, payWith(csrfOf(page.text), card, { expiry }), 'de');
      expect(refused.status).toBe(422);
      const text = textOf(refused.text);
      expect(text).toContain(words);
      expect(text).not.toMatch(WIRE_WORDS);
    }
  });
});

describe('the business tax id’s problems in the buyer’s words', () => {
  it('says a missing or invalid tax id in German and Spanish, the country by name', async () => {
    const { url } = await w.session();
    for (const [lang, missing, invalid] of [
      ['de', 'Geben Sie die Steuernummer Ihres Unternehmens ein', '„FR40303265046“ ist keine gültige Steuernummer in Frankreich.'],
      ['es', 'Introduzca el número fiscal de su empresa', '«FR40303265046» no es un número fiscal válido de Francia.'],
    ] as const) {
      const page = await getIn(url, lang);
      const empty = await postIn(url, payWith(csrfOf(page.text), CARDS.ok, { country: 'FR', business: 'yes', tax_id: '' }), lang);
      expect(empty.status).toBe(422);
      expect(textOf(empty.text)).toContain(missing);
      const wrong = await postIn(url, payWith(csrfOf(page.text), CARDS.ok, { country: 'FR', business: 'yes', tax_id: 'FR40303265046' }), lang);
      expect(wrong.status).toBe(422);
      expect(textOf(wrong.text)).toContain(invalid);
      expect(textOf(wrong.text)).not.toMatch(/tax ID|tax_id/);
    }
  });
});

describe('the pay-link and plan-change pages', () => {
  it("shows an unpaid invoice in the customer's locale (German), then in the browser's (French), remembers the language it was paid in, and its paid page likewise", async () => {
    const { customerId, invoice } = await pastDueInvoice(w);
    expectStatus(await call('PATCH', `/customers/${customerId}/`, { locale: 'de-DE' }), 200);
    const sessionUrl = (await getIn(invoice.paymentLink)).headers.get('location')!;
    const german = await getIn(sessionUrl, 'fr-FR');
    expect(langOf(german.text)).toBe('de');
    const de = textOf(german.text);
    expect(de).toContain('Rechnung bezahlen');
    expect(de).toContain(`Rechnung ${invoice.number} 10,00 $ Jetzt fällig 10,00 $`);
    expect(de).toContain('10,00 $ bezahlen');
    expect(de).toContain('Verkauft von Acme Software GmbH');

    expectStatus(await call('PATCH', `/customers/${customerId}/`, { locale: null }), 200);
    const french = await getIn(sessionUrl, 'fr-FR');
    expect(langOf(french.text)).toBe('fr');
    const fr = textOf(french.text);
    expect(fr).toContain('Payer votre facture');
    expect(fr).toContain('Payer 10,00 $US');

    const declined = await postIn(sessionUrl, { csrf_token: csrfOf(french.text), action: 'pay', card_number: CARDS.declined, expiry: '12/35', cvc: '123' }, 'fr-FR');
    expect(declined.status).toBe(422);
    expect(textOf(declined.text)).toContain('La carte a été refusée.');
    const paid = await postIn(sessionUrl, { csrf_token: csrfOf(declined.text), action: 'pay', card_number: CARDS.ok, expiry: '1235', cvc: '123' }, 'fr-FR');
    expect(paid.status).toBe(303);
    // The customer had no language: the one they paid in is remembered, and now wins over the browser's.
    const customer = await call('GET', `/customers/${customerId}/`);
    expect(customer.body.locale).toBe('fr');
    const done = await getIn(invoice.paymentLink, 'es-ES');
    expect(done.status).toBe(200);
    expect(textOf(done.text)).toContain('Ce paiement est terminé');
    expectStatus(await call('PATCH', `/customers/${customerId}/`, { locale: null }), 200);
    const spanish = await getIn(invoice.paymentLink, 'es-ES');
    expect(textOf(spanish.text)).toContain('Este pago está completado');
    expect(textOf((await getIn(invoice.paymentLink, 'en')).text)).toContain('This payment is complete');
    for (const page of [de, fr, textOf(done.text), textOf(spanish.text)]) expect(page).not.toMatch(WIRE_WORDS);
  });

  it('says a plan change with the period in words, never its code (English and Japanese)', async () => {
    const { subscriptionId } = await subscriberPaying(w, CARDS.declined);
    const premium = await premiumPlan(w);
    const res = await call('POST', `/subscriptions/${subscriptionId}/update/`, { planIdentifier: premium.plan, chargePeriod: 'MONTHLY', paymentBehavior: 'activate_on_payment' });
    expectStatus(res, 200);
    const planName = (await call('GET', `/catalog/plans/${premium.plan}/`)).body.name as string;
    const en = textOf((await getIn(res.body.checkoutUrl, 'en')).text);
    expect(en).toContain(`Confirm your plan change`);
    expect(en).toMatch(new RegExp(`Change to ${planName}, billed monthly \\$\\d+\\.\\d\\d Due now`));
    const ja = await getIn(res.body.checkoutUrl, 'ja-JP');
    expect(langOf(ja.text)).toBe('ja');
    expect(textOf(ja.text)).toContain(`${planName}への変更（毎月請求）`);
    for (const page of [en, textOf(ja.text)]) expect(page).not.toMatch(WIRE_WORDS);
  });
});

describe('the confirmation page (no successUrl) and the pages of closed and unknown links', () => {
  it('lands a buy link without success_url on a confirmation in the buyer’s language, with the amount, the receipt address and the invoice PDF', async () => {
    const link = await getIn(`${w.server.url}/sandbox/buy/${w.s.product.id}/?plan_identifier=${w.s.plans.basic}&charge_period=MONTHLY`);
    expect(link.status, link.text.slice(0, 300)).toBe(303);
    const url = new URL(link.headers.get('location')!, w.server.url).toString();
    const page = await getIn(url, 'de-DE');
    const email = `${uniqueId('kaeufer')}@example.com`;
    const paid = await postIn(url, payWith(csrfOf(page.text), CARDS.ok, { email, country: 'US' }), 'de-DE');
    expect(paid.status).toBe(303);
    const landing = new URL(paid.headers.get('location')!, url).toString();
    expect(landing.startsWith(url)).toBe(true);

    const german = await getIn(landing, 'de-DE');
    expect(german.status).toBe(200);
    const de = textOf(german.text);
    expect(de).toContain('Vielen Dank für Ihren Kauf');
    expect(de).toContain('Wir haben Ihre Zahlung über 10,00 $ erhalten.');
    expect(de).toContain(`Eine Quittung ist unterwegs an ${email}.`);
    expect(de).toMatch(/Rechnung INV-\S+ herunterladen \(PDF\)/);
    expect(de).not.toMatch(WIRE_WORDS);
    // The buyer's language was remembered: the page is German for any browser now.
    expect(langOf((await getIn(landing, 'en-US')).text)).toBe('de');

    const href = /id="invoice-link" href="([^"]+)"/.exec(german.text)![1]!;
    const pdf = await fetch(new URL(href, w.server.url));
    expect(pdf.status).toBe(200);
    expect(pdf.headers.get('content-type')).toBe('application/pdf');
    const words = pdfText(Buffer.from(await pdf.arrayBuffer()));
    expect(words).toContain('RECHNUNG');
    expect(words).toContain('Rechnungsnummer');
  });

  it('answers an unknown checkout link and a completed one in the browser’s language (Spanish, English)', async () => {
    const missing = await getIn(`${w.server.url}/sandbox/checkout/cs_${'x'.repeat(30)}/`, 'es');
    expect(missing.status).toBe(404);
    expect(langOf(missing.text)).toBe('es');
    expect(textOf(missing.text)).toContain('Página de pago no encontrada');
    expect(textOf((await getIn(`${w.server.url}/sandbox/checkout/cs_${'x'.repeat(30)}/`, 'en')).text)).toContain('Checkout not found');
    expect((await getIn(`${w.server.url}/sandbox/checkout/cs_${'x'.repeat(30)}/invoice.pdf`)).status).toBe(404);

    const { url } = await w.session();
    const page = await getIn(url);
    expect((await postIn(url, payWith(csrfOf(page.text), CARDS.ok))).status).toBe(303);
    const done = await getIn(url, 'es-MX');
    expect(done.status).toBe(410);
    const es = textOf(done.text);
    expect(es).toContain('Esta compra está completada');
    expect(es).toContain('Hemos recibido su pago de 10,00 US$.');
    expect(es).toContain('Le enviamos un recibo a buyer@example.com.');
    expect(es).toContain('Continuar a');
  });
});
