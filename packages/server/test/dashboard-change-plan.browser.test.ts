/**
 * The dashboard's change of plan (issue 29) shows what the change costs before it is made,
 * from the server's own preview (POST /subscriptions/{id}/update/preview/, the change's plan
 * without its commit: issue 26), and the change then charges exactly that. In Chromium, with axe.
 */
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, skipBrowserTests } from './browser.js';
import { shop } from './commerce-support.js';
import { checkPage, press, signIn } from './dashboard-support.js';
import { startTestServer, type TestOrg, type TestServer } from './harness.js';

let server: TestServer;
let browser: Browser;
let org: TestOrg;

beforeAll(async () => {
  if (skipBrowserTests) return;
  server = await startTestServer();
  org = await server.createOrg('Notes Co');
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

describe.skipIf(skipBrowserTests)('changing a plan in the dashboard', () => {
  it('shows the cost of the change as the server previews it, then charges exactly that', async () => {
    const s = await shop(server, org.sandbox.serverKey, '/sandbox');
    const customerId = await s.customer();
    await s.card(customerId);
    const first = (await s.call('POST', '/subscriptions/create/', { planIdentifier: s.plans.basic, chargePeriod: 'MONTHLY', customerId })).body.id as string;
    const expected = (await s.call('POST', `/subscriptions/${first}/update/preview/`, { planIdentifier: s.plans.pro, chargePeriod: 'MONTHLY' })).body;
    expect(expected.amountDueNowUnits).toBeGreaterThan(0);
    const dollars = `$${(expected.amountDueNowUnits / 100).toFixed(2)}`;

    const owner = await signIn(server, browser, org.organizationId, 'owner');
    const { page } = owner;
    await page.goto(`${server.url}/dashboard/subscriptions/${first}`);
    await page.waitForLoadState('networkidle');
    // The form first previews the first plan it offers; the figures follow the plan chosen (Pro's own total tells them apart).
    await page.getByLabel('New plan').selectOption(s.plans.pro);
    const costs = page.locator('dl[aria-label="What the change costs now"]');
    const proTotal = `$${(expected.amountTotalUnits / 100).toFixed(2)}`;
    await expect.poll(async () => /New plan until [^$]*(\$[\d.,]+)/.exec((await costs.textContent()) ?? '')?.[1]).toBe(proTotal);
    const text = await costs.textContent();
    expect(text).toContain(`Charged to the card now${dollars}`);
    expect(text).toContain(`Unused time credited$${(expected.unusedCreditUnits / 100).toFixed(2)}`);
    await checkPage(page, 'subscription-change');

    await press(page, 'Change plan now');
    const orders = async () => (await s.call('GET', `/orders/?customer_id=${customerId}`)).body.results as { amountTotalUnits: number }[];
    await expect.poll(async () => (await orders()).length).toBe(2);
    expect((await orders()).map((o) => o.amountTotalUnits)).toContain(expected.amountDueNowUnits);
    await owner.close();
  });
});
