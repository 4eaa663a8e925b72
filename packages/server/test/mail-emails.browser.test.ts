/**
 * Every kind of buyer email in Chromium (issue 28; decisions 0067, 0075): a sandbox year on a
 * test clock writes each kind for a buyer who reads English and one who reads German; the
 * HTML each message has in the sandbox inbox API is rendered at 640 px and its visible text
 * checked (the heading and greeting of its language, the seller, nothing left of a
 * placeholder or a wire code). Screenshots go to test-artifacts/emails/; with
 * BILLOW_WRITE_DOCS=1 the English and German ones are also written to docs/images/emails/
 * for docs/emails.md.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CATALOGUES, type PageLanguage } from '../src/page-kit/i18n.js';
import { launchChromium, openPage, screenshotsIn, skipBrowserTests } from './browser.js';
import { catalogClient } from './catalog-support.js';
import { CARDS } from './commerce-support.js';
import { uniqueId, type TestServer } from './harness.js';
import { startIsolatedServer } from './isolated-server.js';

const PUBLIC = 'https://billing.acme.example';
const DOCS = fileURLToPath(new URL('../../../docs/images/emails/', import.meta.url));
const shot = screenshotsIn('emails');
/** The seller's logo: its name drawn by Chromium (a PNG of 320 × 96, shown 48 px high). */
let LOGO: Buffer;

async function drawnLogo(): Promise<Buffer> {
  const { page, close } = await openPage(browser, { width: 320, height: 96 });
  await page.setContent(
    '<body style="margin:0"><div id="logo" style="width:320px;height:96px;display:flex;align-items:center;gap:16px;font:bold 40px Helvetica,Arial,sans-serif;color:#0B5CAD">' +
      '<span style="width:72px;height:72px;border-radius:16px;background:#0B5CAD;color:#fff;display:flex;align-items:center;justify-content:center">A</span>Journal</div></body>',
  );
  const png = await page.locator('#logo').screenshot();
  await close();
  return png;
}

interface InboxMessage {
  to: string;
  subject: string;
  kind: string | null;
  html: string | null;
}

/** The catalogue's part of each kind (its heading is `mail.<part>.heading`). */
const KINDS: Record<string, string> = {
  receipt: 'receipt',
  refund: 'refund',
  payment_failed: 'paymentFailed',
  payment_retry_failed: 'paymentRetryFailed',
  cancelled_unpaid: 'cancelledUnpaid',
  subscription_cancelled: 'subscriptionCancelled',
  cancellation_scheduled: 'cancellationScheduled',
  subscription_ended: 'cancelled',
  trial_ending: 'trialEnding',
  upcoming_renewal: 'upcomingRenewal',
  card_expiring: 'cardExpiring',
};
const LANGUAGES: PageLanguage[] = ['en', 'de'];

let server: TestServer;
let browser: Browser;
let call: ReturnType<typeof catalogClient>['call'];
const byLanguage = new Map<PageLanguage, InboxMessage[]>();

function expectStatus(res: { status: number; text: string }, status: number) {
  if (res.status !== status) throw new Error(`${status} expected: ${res.status} ${res.text}`);
}

async function logo(): Promise<string> {
  const presigned = await call('POST', '/media/', { fileName: 'logo.png', fileType: 'image/png' });
  expectStatus(presigned, 200);
  const form = new FormData();
  for (const [name, value] of Object.entries(presigned.body.fields as Record<string, string>)) form.append(name, value);
  form.append('file', new Blob([new Uint8Array(LOGO)], { type: 'image/png' }), 'logo.png');
  const sent = await fetch(String(presigned.body.url).replace(PUBLIC, server.url), { method: 'POST', body: form });
  expect(sent.status).toBe(204);
  return presigned.body.fileKey as string;
}

/** The seller's catalogue: a yearly plan with a trial, a monthly plan, a one-time purchase. */
async function catalogue(api: ReturnType<typeof catalogClient>) {
  const product = await api.product('Acme Journal');
  const publish = async (name: string, chargePeriod: string, amount: number, extra: Record<string, unknown> = {}) => {
    const plan = await api.plan(product.id, { name, identifier: uniqueId(name.toLowerCase().replace(/\s+/g, '-')) });
    await api.prices(plan.identifier, [{ priceType: 'PAID', currency: 'USD', ...extra, chargeCatalogPrice: [{ charges: [{ chargePeriod, priceData: { amount } }] }] }]);
    await api.publish(plan.identifier);
    return plan.identifier as string;
  };
  return {
    yearly: await publish('Digital', 'YEARLY', 120, { freeTrial: true, trialPeriod: 14 }),
    monthly: await publish('Plus', 'MONTHLY', 12),
    print: await publish('Print', 'ONE_TIME', 49),
  };
}

async function customer(clockId: string, locale: PageLanguage): Promise<string> {
  const customerId = uniqueId(`reader-${locale}`);
  expectStatus(await call('POST', '/customers/', { customerId, email: `${customerId}@example.com`, name: 'Reader', testClockId: clockId, locale }), 201);
  return customerId;
}

async function card(customerId: string, number: string, expMonth: number, expYear: number) {
  const res = await call('POST', '/payment-methods/', { customerId, cardNumber: number, expMonth, expYear, cvc: '123' });
  expectStatus(res, 201);
  return res.body as { id: number };
}

async function advance(clockId: string, frozenTime: string): Promise<void> {
  expectStatus(await call('POST', `/test-clocks/${clockId}/advance/`, { frozenTime }), 200);
  let clock = await call('GET', `/test-clocks/${clockId}/`);
  for (let tries = 0; clock.body.status === 'advancing' && tries < 600; tries++) {
    if ((await server.runJobs()) === 0) await new Promise((resolve) => setTimeout(resolve, 100));
    clock = await call('GET', `/test-clocks/${clockId}/`);
  }
  expect(clock.body).toMatchObject({ status: 'ready', failure: null });
  await server.runJobs(['compose-mail']);
}

/** Each buyer of one language gets every kind: a trial through a declined renewal to its cancellation, a set end, an immediate cancellation, a refund. */
async function scenario(plans: Awaited<ReturnType<typeof catalogue>>) {
  const clock = await call('POST', '/test-clocks/', { name: 'A year of emails', frozenTime: '2027-01-01T09:00:00Z' });
  expectStatus(clock, 201);
  const clockId = clock.body.id as string;
  const yearly = new Map<PageLanguage, string>();
  for (const lang of LANGUAGES) {
    const reader = await customer(clockId, lang);
    await card(reader, CARDS.ok, 6, 2027);
    expectStatus(await call('POST', '/subscriptions/create/', { planIdentifier: plans.yearly, chargePeriod: 'YEARLY', customerId: reader }), 201);
    yearly.set(lang, reader);
    const later = await customer(clockId, lang);
    await card(later, CARDS.ok, 12, 2035);
    const ends = await call('POST', '/subscriptions/create/', { planIdentifier: plans.monthly, chargePeriod: 'MONTHLY', customerId: later });
    expectStatus(ends, 201);
    expectStatus(await call('POST', `/subscriptions/${ends.body.id}/cancel/`, { cancellationType: 'CURRENT_PERIOD_ENDS' }), 200);
    const now = await customer(clockId, lang);
    await card(now, CARDS.ok, 12, 2035);
    const stops = await call('POST', '/subscriptions/create/', { planIdentifier: plans.monthly, chargePeriod: 'MONTHLY', customerId: now });
    expectStatus(stops, 201);
    expectStatus(await call('POST', `/subscriptions/${stops.body.id}/cancel/`, { cancellationType: 'IMMEDIATE' }), 200);
    const charge = await call('POST', '/charges/', { planIdentifier: plans.print, chargePeriod: 'ONE_TIME', customerId: now });
    expectStatus(charge, 201);
    expectStatus(await call('POST', '/refunds/', { orderId: charge.body.orderId, amountUnits: 1000 }), 200);
  }
  await advance(clockId, '2027-08-01T00:00:00Z');
  for (const reader of yearly.values()) {
    const declined = await card(reader, CARDS.declined, 12, 2035);
    expectStatus(await call('POST', `/payment-methods/${declined.id}/default/`), 200);
  }
  await advance(clockId, '2028-01-20T00:00:00Z');
}

beforeAll(async () => {
  if (skipBrowserTests) return;
  browser = await launchChromium();
  LOGO = await drawnLogo();
  server = await startIsolatedServer('mailshots', { env: { BILLOW_DUNNING_RETRY_DAYS: '1,3', BILLOW_PUBLIC_URL: PUBLIC } });
  const org = await server.createOrg();
  const api = catalogClient(server, org.sandbox.serverKey, '/sandbox');
  call = api.call;
  const profile = await call('PATCH', '/seller-profile/', {
    displayName: 'Acme Journal',
    supportEmail: 'help@acme.example',
    brandColor: '#0B5CAD',
    address: { line1: 'Torstraße 1', city: 'Berlin', postalCode: '10119', country: 'DE' },
    logoImageKey: await logo(),
  });
  expectStatus(profile, 200);
  await scenario(await catalogue(api));
  const inbox = await call('GET', '/mail/inbox/');
  expectStatus(inbox, 200);
  for (const lang of LANGUAGES) byLanguage.set(lang, (inbox.body.messages as InboxMessage[]).filter((m) => m.to.startsWith(`reader-${lang}`)));
}, 240_000);
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

describe.skipIf(skipBrowserTests)('buyer emails in Chromium', () => {
  for (const lang of LANGUAGES) {
    it(`every kind renders in ${lang === 'en' ? 'English' : 'German'}, with its words and the seller`, async () => {
      const messages = byLanguage.get(lang)!;
      expect([...new Set(messages.map((m) => m.kind))].sort()).toEqual(Object.keys(KINDS).sort());
      const words = CATALOGUES[lang] as Record<string, string>;
      const { page, problems, close } = await openPage(browser, { width: 640, height: 900 });
      // The logo's public address answers the uploaded image (this server is not at it).
      await page.route(`${PUBLIC}/**`, (route) => route.fulfill({ status: 200, contentType: 'image/png', body: LOGO }));
      for (const kind of Object.keys(KINDS)) {
        const message = messages.find((m) => m.kind === kind)!;
        await page.setContent(message.html!, { waitUntil: 'load' });
        expect(await page.locator('html').getAttribute('lang')).toBe(lang);
        expect((await page.locator('h1').innerText()).trim(), kind).toBe(words[`mail.${KINDS[kind]}.heading`]);
        const text = await page.locator('body').innerText();
        expect(text).toContain(words['mail.greeting']);
        // The seller's country is named in the buyer's language, never given as its code.
        expect(text).toContain(`Torstraße 1, 10119, Berlin, ${lang === 'en' ? 'Germany' : 'Deutschland'}`);
        expect(text).toContain('help@acme.example');
        expect(text).not.toMatch(/[{}]|YEARLY|MONTHLY|ONE_TIME|trialing|past_due|canceled|\bmail\.[a-z]/);
        // The card is 600 px wide, and the logo loaded, its alt the seller's name.
        expect(Math.round((await page.locator('table.card').boundingBox())!.width)).toBe(600);
        expect(await page.locator('img.logo').evaluate((img) => [(img as HTMLImageElement).naturalWidth, img.getAttribute('alt')])).toEqual([320, 'Acme Journal']);
        await shot(page, `${kind}-${lang}`);
        if (process.env.BILLOW_WRITE_DOCS === '1') {
          fs.mkdirSync(DOCS, { recursive: true });
          await page.locator('table.page').screenshot({ path: path.join(DOCS, `${kind}-${lang}.png`) });
        }
      }
      // On a phone the card narrows to the screen: nothing to scroll sideways.
      await page.setViewportSize({ width: 375, height: 900 });
      await page.setContent(messages.find((m) => m.kind === 'receipt')!.html!, { waitUntil: 'load' });
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
      await shot(page, `receipt-${lang}-375px`);
      expect(problems).toEqual([]);
      await close();
    });
  }
});
