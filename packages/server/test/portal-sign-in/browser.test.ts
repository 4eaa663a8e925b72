import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, openPage as openPageIn, screenshotsIn, skipBrowserTests } from '../browser.js';
import { ManualClock } from '../../src/lib/clock.js';
import { startTestServer, type TestOrg, type TestServer } from '../harness.js';
import { createCustomer, inbox, slugOf, uniqueEmail } from './support.js';

// Signing in to the portal by email code in a real browser (Debian's chromium through
// playwright-core, never a download): the portal without a token offers the sign-in, the
// code is read in the sandbox's development inbox, and the code opens the portal.
// Screenshots of each state go to test-artifacts/portal-sign-in/.


const clock = new ManualClock(new Date('2026-11-22T09:00:00Z'));
let server: TestServer;
let org: TestOrg;
let portal: string;
let browser: Browser;

const shot = screenshotsIn('portal-sign-in');

const openPage = (viewport = { width: 1000, height: 800 }) => openPageIn(browser, viewport);

/** Reads the newest code to `email` in the development inbox, in a tab of the same browser, as a developer would. */
async function codeFromInbox(page: Page, email: string, screenshots: boolean): Promise<string> {
  const { inboxUrl } = await inbox(server, org);
  const tab = await page.context().newPage();
  expect((await tab.goto(inboxUrl))!.status()).toBe(200);
  if (screenshots) await shot(tab, '04-sandbox-inbox');
  await tab.locator('#messages li', { hasText: email }).first().locator('a').click();
  const text = await tab.innerText('#message-body');
  if (screenshots) await shot(tab, '05-sandbox-inbox-message');
  await tab.close();
  return /\b(\d{6})\b/.exec(text)![1]!;
}

describe.skipIf(skipBrowserTests)('signing in to the portal by email code, in chromium', () => {
  beforeAll(async () => {
    server = await startTestServer({ clock });
    org = await server.createOrg('Acme Tools');
    portal = `${server.url}/sandbox/portal/${await slugOf(server, org.organizationId)}/`;
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('offers the sign-in on a visit without a token, and a code from the inbox opens the portal', async () => {
    const email = uniqueEmail('ada');
    await createCustomer(server, org.sandbox.serverKey, 'sandbox', { email, name: 'Ada Lovelace' });
    const { page, context, problems } = await openPage();
    await page.goto(portal);
    await shot(page, '01-portal-without-token');
    await page.click('#sign-in-by-email');
    expect(await page.textContent('h1')).toBe('Sign in with your email');
    await page.fill('#email', email);
    await shot(page, '02-email');
    await page.click('#send-code');
    await page.waitForSelector('#code');
    expect(await page.textContent('#sent-to')).toContain(email);
    await shot(page, '03-code');
    const code = await codeFromInbox(page, email, true);
    await page.fill('#code', '000000' === code ? '111111' : '000000');
    await page.click('#verify-code');
    expect(await page.textContent('#form-problem')).toContain('not right');
    await shot(page, '06-wrong-code');
    await page.fill('#code', code);
    await page.click('#verify-code');
    await page.waitForURL(/\/sandbox\/portal\/[^/]+\/$/);
    expect(await page.textContent('body')).toContain(email);
    await shot(page, '07-signed-in');
    expect(problems).toEqual([]);
    await context.close();
  });

  it('lets a customer with two accounts choose one, on a 375 px phone', async () => {
    const email = uniqueEmail('grace');
    await createCustomer(server, org.sandbox.serverKey, 'sandbox', { email, name: 'Grace Hopper' });
    await createCustomer(server, org.sandbox.serverKey, 'sandbox', { email, name: 'Hopper Consulting' });
    const { page, context, problems } = await openPage({ width: 375, height: 740 });
    await page.goto(`${portal}sign-in`);
    await page.fill('#email', email);
    await shot(page, '08-email-375px');
    await page.click('#send-code');
    await page.waitForSelector('#code');
    await page.fill('#code', await codeFromInbox(page, email, false));
    await page.click('#verify-code');
    expect(await page.textContent('h1')).toBe('Choose an account');
    // Nothing wider than the phone: no horizontal scrolling.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    await shot(page, '09-choose-account-375px');
    await page.locator('.item', { hasText: 'Hopper Consulting' }).getByRole('button', { name: 'Open this account' }).click();
    await page.waitForURL(/\/sandbox\/portal\/[^/]+\/$/);
    expect(await page.textContent('body')).toContain('Hopper Consulting');
    await shot(page, '10-signed-in-375px');
    expect(problems).toEqual([]);
    await context.close();
  });
});
