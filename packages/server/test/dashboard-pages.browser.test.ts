/**
 * The Customers, Catalog and Selling pages of the dashboard (issue 29) filled in: a customer's
 * timeline in words and its license keys; in Chromium at 1280 and 375 px, with axe.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemClock } from '../src/lib/clock.js';
import { createMember } from '../src/modules/accounts/people.service.js';
import { launchChromium, openPage, skipBrowserTests } from './browser.js';
import { shop, type Shop } from './commerce-support.js';
import { checkPage } from './dashboard-support.js';
import { startTestServer, uniqueId, type TestOrg, type TestServer } from './harness.js';

let server: TestServer;
let browser: Browser;
let org: TestOrg;
let s: Shop;

beforeAll(async () => {
  if (skipBrowserTests) return;
  server = await startTestServer();
  org = await server.createOrg('Pages Co');
  s = await shop(server, org.sandbox.serverKey, '/sandbox');
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

/** A signed-in page of a new member with `role`, at `width` px. */
async function signedIn(role: string, width = 1280) {
  const { signInToken } = await createMember(server.database.db, systemClock, { organizationId: org.organizationId, email: `${uniqueId(role)}@example.com`, role, name: role });
  const opened = await openPage(browser, { width, height: 900 });
  await opened.page.goto(`${server.url}/dashboard/welcome?token=${signInToken}`);
  await opened.page.waitForURL(/\/dashboard\/?$/);
  return opened;
}

const WIRE_CODES = /\b(customer|order|subscription|invoice|payment_method|refund|credit_note)\.[a-z_]+\b/;

async function sectionText(page: Page, title: string): Promise<string> {
  return (await page.getByRole('region', { name: title, exact: true }).textContent()) ?? '';
}

describe.skipIf(skipBrowserTests)('the customer page', () => {
  it("shows the customer's timeline in words, newest first, and its license keys with their activations", async () => {
    const customerId = await s.customer();
    await s.card(customerId);
    const charge = await s.call('POST', '/charges/', { planIdentifier: s.plans.lifetime, chargePeriod: 'ONE_TIME', customerId });
    const key = (await s.call('GET', `/orders/${charge.body.orderId}/`)).body.license[0].licenseKey as string;
    const activated = await s.call('POST', '/license/activate/', { license_key: key, customer_id: customerId, instance_name: 'Laptop' });
    expect(activated.status).toBe(201);
    await s.call('POST', '/subscriptions/create/', { planIdentifier: s.plans.basic, chargePeriod: 'MONTHLY', customerId });

    const owner = await signedIn('owner');
    const { page } = owner;
    await page.goto(`${server.url}/dashboard/customers/${customerId}`);
    await page.getByRole('region', { name: 'Timeline' }).getByText('Subscription started').first().waitFor();
    const timeline = await sectionText(page, 'Timeline');
    for (const label of ['Customer created', 'Card added', 'Order placed', 'Invoice paid', 'Subscription started']) expect(timeline).toContain(label);
    expect(timeline.indexOf('Subscription started')).toBeLessThan(timeline.indexOf('Customer created'));
    const licenses = await sectionText(page, 'License keys');
    expect(licenses).toContain(key);
    expect(licenses).toContain('1 of 3');
    expect(await page.locator('main').textContent()).not.toMatch(WIRE_CODES);
    await checkPage(page, 'customer-timeline');
    expect(owner.problems).toEqual([]);
    await owner.close();

    const phone = await signedIn('viewer', 375);
    await phone.page.goto(`${server.url}/dashboard/customers/${customerId}`);
    await phone.page.getByRole('region', { name: 'Timeline' }).getByText('Subscription started').first().waitFor();
    await checkPage(phone.page, 'phone-customer-timeline', { docs: false });
    expect(phone.problems).toEqual([]);
    await phone.close();
  });
});
