/**
 * The dashboard in the person's language (issue 29, decision 0108), in Chromium with axe: an
 * English browser gets English; a member chooses German on the Settings page, the choice is kept
 * on their account (the API says so) and survives a reload; then Home, Customers, a customer,
 * Subscriptions, a subscription, Orders and invoices, the payments tab, an order, Analytics, Catalog, Selling, Developers and the seller profile speak German
 * (money and dates as German writes them), with no English words of the page left and no wire code.
 * A German browser of someone who never chose gets German from the start, sign-in included.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, openPage, screenshotsIn, skipBrowserTests } from './browser.js';
import { shop, type Shop } from './commerce-support.js';
import { checkPage, menu, press, signIn } from './dashboard-support.js';
import { startTestServer, type TestOrg, type TestServer } from './harness.js';

let server: TestServer;
let browser: Browser;
let org: TestOrg;
let s: Shop;
let customerId: string;
let orderId: string;
let subscriptionId: string;

beforeAll(async () => {
  if (skipBrowserTests) return;
  server = await startTestServer();
  org = await server.createOrg('Sprachen GmbH');
  s = await shop(server, org.sandbox.serverKey, '/sandbox');
  customerId = await s.customer({ name: 'Pat Payer' });
  await s.card(customerId);
  const sold = await s.call('POST', '/subscriptions/create/', { planIdentifier: s.plans.basic, chargePeriod: 'MONTHLY', customerId });
  expect(sold.status, sold.text).toBe(201);
  subscriptionId = (await s.call('GET', `/subscriptions/?customer_id=${customerId}`)).body.results[0].id;
  orderId = (await s.call('GET', `/orders/?customer_id=${customerId}`)).body.results[0].id;
  expect((await s.call('POST', '/refunds/', { orderId, amountUnits: 300 })).status).toBe(200);
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

/** English words of these pages that a German page must not show (whole words, in what a person reads). */
const ENGLISH = ['Customers', 'Subscriptions', 'Sign out', 'Orders', 'Monthly', 'Active', 'Payments', 'Refund', 'Refunded', 'Amount', 'Total', 'Customer', 'Settings', 'Period', 'Paid', 'Succeeded', 'Loading'];
const WIRE = /\b(MONTHLY|YEARLY|ONE_TIME|PAST_DUE|PARTIAL_REFUND|REQUESTED_BY_CUSTOMER|past_due|trialing|[a-z]+\.(created|updated|paid|completed|refunded))\b/;

async function readable(page: Page): Promise<string> {
  await page.waitForLoadState('networkidle');
  await page.waitForFunction(() => !document.querySelector('.loading'), undefined, { timeout: 10_000 });
  // Intl puts narrow and no-break spaces in money and dates ("7,00 $"): read as spaces.
  return (await page.evaluate(() => document.body.innerText)).replace(/[\u00a0\u202f]/g, ' ');
}

/** The page speaks German: the words given appear, none of the English ones, no wire code; axe and a screenshot. */
async function german(page: Page, name: string, expected: string[], options: { docs?: boolean } = {}): Promise<string> {
  await expect.poll(async () => { const text = await readable(page); return expected.filter((word) => !text.includes(word)); }, { timeout: 10_000 }).toEqual([]);
  const text = await readable(page);
  expect(ENGLISH.filter((word) => new RegExp(`(^|[^\\p{L}])${word}($|[^\\p{L}])`, 'u').test(text)), `${name}: English left`).toEqual([]);
  // A link is a link (a buy link carries charge_period=MONTHLY): the words around it are what a person reads.
  expect(text.replace(/https?:\/\/\S+/g, ''), `${name}: a wire code`).not.toMatch(WIRE);
  expect(await page.evaluate(() => document.documentElement.lang)).toBe('de');
  await checkPage(page, name, options);
  return text;
}

/** The captions (or first headers) of the tables that do not fit their card and scroll sideways. */
function overflowingTables(page: Page): Promise<string[]> {
  return page.evaluate(() =>
    [...document.querySelectorAll('.table-wrap')]
      .filter((wrap) => wrap.scrollWidth > wrap.clientWidth + 1)
      .map((wrap) => wrap.querySelector('caption, th')?.textContent ?? '(a table)'),
  );
}

const pageWiderThanScreen = (page: Page): Promise<boolean> =>
  page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth + 1);

describe.skipIf(skipBrowserTests)("the dashboard in the person's language", () => {
  it('is English for an English browser; a German choice is kept on the account, survives a reload, and every page speaks it', async () => {
    const { page, problems, close } = await signIn(server, browser, org.organizationId, 'owner');
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('en');
    await page.getByRole('navigation', { name: 'Dashboard' }).getByRole('link', { name: 'Customers', exact: true }).waitFor();

    await menu(page, 'Settings');
    await page.getByLabel('Language', { exact: true }).selectOption('de');
    await press(page, 'Save the language');
    await page.getByRole('navigation', { name: 'Dashboard' }).getByRole('link', { name: 'Kunden', exact: true }).waitFor();
    await german(page, 'german-settings', ['Einstellungen', 'Ihre Sprache', 'Ihr Konto', 'Wo Sie angemeldet sind', 'Abmelden'], { docs: false });
    expect(await page.getByLabel('Sprache', { exact: true }).inputValue()).toBe('de');

    await page.reload();
    await page.getByRole('navigation', { name: 'Dashboard' }).getByRole('link', { name: 'Kunden', exact: true }).waitFor();
    // The page's lang is set by an effect that runs after the words are drawn.
    await expect.poll(() => page.evaluate(() => document.documentElement.lang)).toBe('de');

    await menu(page, 'Übersicht');
    const home = await german(page, 'german-home', ['Übersicht', 'Aktive Abonnements', 'Umsatz diesen Monat (netto)', 'Neueste Bestellungen', 'Teilweise erstattet'], { docs: false });
    expect(home).toContain('10,00 $');

    await menu(page, 'Kunden');
    await german(page, 'german-customers', ['Kunden', 'Nach E-Mail, Name oder Kunden-ID suchen', 'Kunden hinzufügen', 'Neueste zuerst'], { docs: false });

    await page.goto(`${server.url}/dashboard/customers/${encodeURIComponent(customerId)}`);
    const customer = await german(page, 'german-customer', ['Abonnements dieses Kunden', 'Monatlich', 'Aktiv', 'Verlauf', 'Zahlungsmittel', 'Bestellung aufgegeben']);
    expect(customer).toMatch(/\d{1,2}\.\s?\d{1,2}\.\s?\d{4}|\d{1,2}\. \p{L}+\.? \d{4}/u);

    await menu(page, 'Abonnements');
    await german(page, 'german-subscriptions', ['Abonnements', 'Jeder Status', 'Filtern', 'Zeitraum endet', 'Monatlich'], { docs: false });
    await page.goto(`${server.url}/dashboard/subscriptions/${encodeURIComponent(subscriptionId)}`);
    await german(page, 'german-subscription', ['Alle Abonnements', 'Nächste Verlängerung', 'Tarif wechseln', 'Abonnement kündigen', 'Zum Ende des Zeitraums'], { docs: false });

    await menu(page, 'Bestellungen & Rechnungen');
    await german(page, 'german-orders', ['Bestellungen und Rechnungen', 'Zuletzt bezahlte zuerst', 'Teilweise erstattet'], { docs: false });
    await page.goto(`${server.url}/dashboard/orders?tab=payments`);
    await german(page, 'german-payments', ['Zahlungen und Erstattungen', 'Zahlung', 'Erstattung', 'Erfolgreich', 'Gebühr'], { docs: false });
    await page.goto(`${server.url}/dashboard/orders/${encodeURIComponent(orderId)}`);
    const order = await german(page, 'german-order', ['Zu erstattender Betrag', 'Bis zu 7,00 $ können noch erstattet werden.', 'Zahlung abgeschlossen'], { docs: false });
    expect(order).toContain('Bestellung');

    await menu(page, 'Analysen');
    await german(page, 'german-analytics', ['Analysen', 'Einnahmen und Mahnwesen', 'Aktive Abonnements, dieser Monat'], { docs: false });
    // German's long words wrap in the headers: at 1280 px no table of Analytics scrolls sideways.
    expect(await overflowingTables(page)).toEqual([]);
    // And on a phone, German pages fit the screen's width (their tables become lists of labelled rows).
    await page.setViewportSize({ width: 375, height: 800 });
    expect(await pageWiderThanScreen(page)).toBe(false);
    await screenshotsIn('dashboard-languages')(page, 'german-analytics-375');
    await page.goto(`${server.url}/dashboard/customers/${encodeURIComponent(customerId)}`);
    await page.getByText('Abonnements dieses Kunden').waitFor();
    expect(await pageWiderThanScreen(page)).toBe(false);
    await screenshotsIn('dashboard-languages')(page, 'german-customer-375');
    await page.setViewportSize({ width: 1280, height: 900 });
    await menu(page, 'Katalog');
    await german(page, 'german-catalog', ['Katalog', 'Produkte', 'Funktionen', 'Tarife', 'Neues Produkt', 'Software als Dienst'], { docs: false });
    await menu(page, 'Verkauf');
    await german(page, 'german-selling', ['Kauflink erstellen', 'Kaufvorgänge', 'Rabatte', 'Aktionen nach Land'], { docs: false });
    await menu(page, 'Entwickler');
    await german(page, 'german-developers', ['API-Schlüssel', 'Webhook-Endpunkte', 'Webhook-Zustellungen', 'Testuhren', 'Zahlungsanbieter'], { docs: false });

    await page.goto(`${server.url}/dashboard/settings/profile`);
    await german(page, 'german-seller-profile', ['Verkäuferprofil', 'Rechnungsvorschau', 'Steuerregistrierungen', 'Sprache der Dokumente', 'Profil speichern'], { docs: false });

    await page.goto(`${server.url}/dashboard/orders/${encodeURIComponent(orderId)}`);
    await page.getByLabel(/^Zu erstattender Betrag/).waitFor();
    // The API refuses in place; a refusal the dashboard has no words for is the server's own detail, as it is.
    await page.getByLabel(/^Zu erstattender Betrag/).fill('99');
    await press(page, 'Erstatten');
    await expect.poll(async () => (await page.getByRole('alert').allTextContents()).join(' ')).toMatch(/\S/);

    const session = await page.evaluate(async () => (await fetch('/dashboard/api/session')).json());
    expect(session.user.language).toBe('de');
    expect(problems).toEqual([]);
    await close();
  });

  it('follows a German browser until the person chooses, from the sign-in page on; English stays the default elsewhere', async () => {
    const german = await openPage(browser, { width: 1280, height: 900 }, { locale: 'de-DE' });
    await german.page.goto(`${server.url}/dashboard/sign-in`);
    await german.page.getByRole('heading', { name: 'Anmelden' }).waitFor();
    await expect.poll(() => german.page.evaluate(() => document.documentElement.lang)).toBe('de');
    await german.page.getByRole('link', { name: 'Passwort vergessen?' }).waitFor();
    await german.close();

    const french = await openPage(browser, { width: 1280, height: 900 }, { locale: 'fr-FR' });
    await french.page.goto(`${server.url}/dashboard/sign-in`);
    await french.page.getByRole('heading', { name: 'Connexion' }).waitFor();
    await french.close();

    const other = await openPage(browser, { width: 1280, height: 900 }, { locale: 'pt-BR' });
    await other.page.goto(`${server.url}/dashboard/sign-in`);
    await other.page.getByRole('heading', { name: 'Sign in' }).waitFor();
    expect(await other.page.evaluate(() => document.documentElement.lang)).toBe('en');
    await other.close();

    // A Japanese browser, no choice made: the signed-in pages in Japanese, yen and dates as Japan writes them.
    const japanese = await signIn(server, browser, org.organizationId, 'viewer', 1280, 'ja-JP');
    await japanese.page.getByRole('navigation', { name: 'ダッシュボード' }).getByRole('link', { name: '顧客', exact: true }).waitFor();
    await expect.poll(() => japanese.page.evaluate(() => document.documentElement.lang)).toBe('ja');
    await japanese.close();
  });
});
