/**
 * A seller's day in the dashboard, in Chromium (issue 29; decisions 0081, 0082): the first
 * sign-in from a one-time link, a product, feature and plan made and published, a buy link
 * made and bought on the hosted checkout, the sale on Home and on the customer, part of it
 * refunded, an API key made and revoked, the webhook delivery read and resent, a test clock advanced a month to a renewal,
 * a support member who finds no refund button and whom the API refuses, and the production
 * switch. axe-core runs on every page (no serious or critical violation), at 1280 and at 375 px.
 * Screenshots go to test-artifacts/dashboard/ (and docs/images/dashboard/ with BILLOW_WRITE_DOCS=1).
 */
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { AUDIT_ACTIONS } from '@billow/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemClock } from '../src/lib/clock.js';
import { totpCodeAt } from '../src/modules/accounts/passwords.js';
import { createMember } from '../src/modules/accounts/people.service.js';
import { PASSWORD } from './accounts-support.js';
import { launchChromium, openPage, skipBrowserTests } from './browser.js';
import { fillAndPay } from './checkout/browser-support.js';
import { CARDS } from './commerce-support.js';
import { checkPage, fill, menu, press, startReceiver } from './dashboard-support.js';
import { SmtpSink, unquoted } from './smtp-support.js';
import { startTestServer, uniqueId, type TestOrg, type TestServer } from './harness.js';

let server: TestServer;
let browser: Browser;
let org: TestOrg;
let receiver: Awaited<ReturnType<typeof startReceiver>>;
let owner: { page: Page; context: BrowserContext; problems: string[] };
const buyerEmail = `${uniqueId('ada')}@example.com`;
let orderId = '';
const sink = new SmtpSink();

/** The token of the newest email to `to` that links to `/dashboard/{page}`, waiting until one arrives (mail goes out after the request answered). */
async function linkMailedTo(to: string, page: string): Promise<string> {
  const link = new RegExp(`/dashboard/${page}\\?token=([A-Za-z0-9]+)`);
  for (let seen = 1; ; seen++) {
    const mails = await sink.to(to, seen);
    const raw = mails[mails.length - 1]!.raw;
    const match = link.exec(/Content-Transfer-Encoding: quoted-printable/i.test(raw) ? unquoted(raw) : raw);
    if (match) return match[1]!;
  }
}

const sandbox = <T = any>(method: string, path: string, body?: unknown) =>
  server.request<T>(method, `/sandbox/api/v1${path}`, { key: org.sandbox.serverKey, ...(body === undefined ? {} : { body }) });

/** Waits until `check` holds (the server works after the browser's request returned), for up to 10 s. */
async function until(check: () => Promise<boolean>, what: string): Promise<void> {
  for (let i = 0; i < 100; i++) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`waited in vain for ${what}`);
}

/** A buyer pays a checkout page in a browser of their own. */
async function buy(url: string, email: string): Promise<void> {
  const buyer = await openPage(browser);
  await buyer.page.goto(url);
  await fillAndPay(buyer.page, CARDS.ok, { email, country: 'US' });
  await buyer.page.waitForLoadState('networkidle');
  await buyer.close();
}

beforeAll(async () => {
  if (skipBrowserTests) return;
  server = await startTestServer({ env: { BILLOW_SMTP_URL: await sink.start(), BILLOW_MAIL_FROM: 'Billow <billow@notes.example>' } });
  org = await server.createOrg('Notes Co');
  receiver = await startReceiver();
  browser = await launchChromium();
});

afterAll(async () => {
  await owner?.context.close();
  await browser?.close();
  receiver?.close();
  await server?.close();
  await sink.close();
});

describe.skipIf(skipBrowserTests)("a seller's day in the dashboard", () => {
  it('signs in the first time from the one-time link and lands on Home, in the sandbox', async () => {
    const { signInToken } = await createMember(server.database.db, systemClock, { organizationId: org.organizationId, email: `${uniqueId('founder')}@example.com`, role: 'owner', name: 'Founder' });
    owner = await openPage(browser, { width: 1280, height: 900 });
    const { page } = owner;
    await page.goto(`${server.url}/dashboard/welcome?token=${signInToken}`);
    await page.waitForURL(/\/dashboard\/?$/);
    await expect.poll(() => page.textContent('h1')).toBe('Home');
    expect(await page.textContent('.env-banner')).toContain('Sandbox');
    expect(await page.getByRole('radio', { name: 'Sandbox' }).isChecked()).toBe(true);
    await checkPage(page, 'home-first', { docs: false });
    // The link works once.
    const again = await openPage(browser);
    await again.page.goto(`${server.url}/dashboard/welcome?token=${signInToken}`);
    await expect.poll(() => again.page.locator('[role=alert]').count()).toBe(1);
    await checkPage(again.page, 'welcome-used-link');
    await again.close();
  });

  it('creates a product, a feature and a plan, prices the draft and publishes it', async () => {
    const { page } = owner;
    await menu(page, 'Catalog');
    await fill(page, 'Product name', 'Notes Pro');
    await fill(page, 'Product identifier', 'notes-pro');
    await press(page, 'Create product');
    await expect.poll(() => page.getByRole('region', { name: 'Products table' }).getByRole('cell', { name: 'notes-pro', exact: true }).count()).toBe(1);
    await fill(page, 'Feature name', 'Projects');
    await fill(page, 'Feature identifier', 'projects');
    await page.getByLabel('Feature type').selectOption('CUSTOMIZABLE');
    await press(page, 'Create feature');
    await expect.poll(() => page.getByRole('cell', { name: 'projects', exact: true }).count()).toBe(1);
    // A refusal of the API is shown where the action was, in the API's words.
    await fill(page, 'Plan name', 'Pro');
    await fill(page, 'Plan identifier', 'not an identifier!');
    await press(page, 'Create plan');
    await expect.poll(() => page.locator('[role=alert]').count()).toBe(1);
    await checkPage(page, 'catalog-error', { docs: false });
    await fill(page, 'Plan identifier', 'pro');
    await press(page, 'Create plan');
    await expect.poll(() => page.getByRole('link', { name: 'Pro', exact: true }).count()).toBe(1);
    await checkPage(page, 'catalog');

    await page.getByRole('link', { name: 'Pro', exact: true }).click();
    await expect.poll(() => page.textContent('h1')).toBe('Pro');
    await fill(page, 'Amount', '29');
    await press(page, "Set the draft's price in this currency");
    await expect.poll(() => page.getByRole('cell', { name: '$29.00 a month', exact: true }).count()).toBe(1);
    await fill(page, 'Allowance', '10');
    await press(page, 'Add to the draft');
    await expect.poll(() => page.getByRole('cell', { name: 'Projects', exact: true }).count()).toBe(1);
    await checkPage(page, 'plan-draft');
    await press(page, 'Publish the draft');
    await expect.poll(() => page.getByText('The latest version is published').count()).toBe(1);
    const plan = await sandbox('GET', '/catalog/plans/pro/');
    expect(plan.body).toMatchObject({ status: 'published', version: 1 });
    await checkPage(page, 'plan-published');
  });

  it('adds a webhook endpoint and is shown its secret once', async () => {
    const { page } = owner;
    await menu(page, 'Developers');
    await fill(page, 'Endpoint URL', receiver.url);
    await press(page, 'Add endpoint');
    await expect.poll(() => page.locator('code.secret').count()).toBe(1);
    expect(await page.textContent('code.secret')).toMatch(/\S{20,}/);
    await checkPage(page, 'developers-endpoint');
    await page.reload();
    await page.waitForLoadState('networkidle');
    // The endpoint listed again: the page has loaded, and the secret's absence means something.
    await page.getByRole('region', { name: 'Webhook endpoints table' }).getByRole('cell', { name: receiver.url, exact: true }).waitFor();
    expect(await page.locator('code.secret').count()).toBe(0);
  });

  it('creates an API key, shown once with a copy button, which works; revokes it after a confirmation, refused at once', async () => {
    const { page } = owner;
    await fill(page, 'Key name', 'Deploys');
    await press(page, 'Create key');
    await expect.poll(() => page.getByTestId('new-api-key').count()).toBe(1);
    const secret = (await page.getByTestId('new-api-key').textContent())!.trim();
    expect(secret).toMatch(/^sk_test_[A-Za-z0-9]{40}$/);
    expect(await page.getByText('you will not see it again').count()).toBe(1);
    await press(page, 'Copy the key');
    await expect.poll(() => page.getByText(/Copied to the clipboard|would not copy it/).count()).toBe(1);
    const keys = page.getByRole('region', { name: 'API keys table' });
    await expect.poll(() => keys.getByRole('cell', { name: 'Deploys', exact: true }).count()).toBe(1);
    expect(await keys.textContent()).not.toContain(secret);
    await checkPage(page, 'developers-api-key');
    const withNewKey = () => server.request('GET', '/sandbox/api/v1/customers/', { key: secret });
    expect((await withNewKey()).status).toBe(200);

    const prefix = secret.slice(0, 16);
    await press(page, `Revoke ${prefix}`);
    await expect.poll(() => page.getByRole('group', { name: `Revoke ${prefix}?` }).count()).toBe(1);
    await checkPage(page, 'developers-api-key-revoke', { docs: false });
    await press(page, `Yes, revoke ${prefix}`);
    const row = keys.getByRole('row', { name: /Deploys/ });
    await expect.poll(() => row.textContent()).toMatch(/Revoked/);
    expect((await withNewKey()).status).toBe(401);
    await page.reload();
    await page.waitForLoadState('networkidle');
    await expect.poll(() => row.textContent()).toMatch(/Revoked/);
    expect(await page.getByTestId('new-api-key').count()).toBe(0);
  });

  it('makes a buy link; a buyer buys on the hosted checkout; the sale shows on Home and on the customer', async () => {
    const { page } = owner;
    await menu(page, 'Selling');
    await checkPage(page, 'selling');
    const link = await page.getByTestId('buy-link').getAttribute('href');
    expect(link).toMatch(new RegExp(`^${server.url}/sandbox/buy/[0-9a-f-]+/\\?plan_identifier=pro&charge_period=MONTHLY$`));
    await buy(link!, buyerEmail);
    await until(async () => (await sandbox('GET', '/orders/')).body.count === 1, 'the order');
    orderId = (await sandbox('GET', '/orders/')).body.results[0].id;

    await menu(page, 'Home');
    await expect.poll(() => page.getByRole('region', { name: 'Newest orders' }).getByRole('link', { name: buyerEmail }).count()).toBe(1);
    // The recent events say whom they are about: the buyer, by email (the checkout asked no name).
    expect(await page.getByRole('region', { name: 'Recent events' }).getByRole('link', { name: buyerEmail }).count()).toBeGreaterThan(0);
    expect(await page.getByRole('cell', { name: '$29.00', exact: true }).count()).toBeGreaterThan(0);
    // The overview's figures: today's revenue and the MRR of the one subscription.
    expect(await page.locator('.tiles > div', { hasText: 'Revenue today' }).textContent()).toContain('$29.00');
    expect(await page.locator('.tiles > div', { hasText: 'MRR' }).textContent()).toContain('$29.00');
    expect(await page.locator('.tiles > div', { hasText: 'Active subscriptions' }).textContent()).toContain('1');
    await checkPage(page, 'home');

    await menu(page, 'Customers');
    await fill(page, 'Search by email, name or customer id', buyerEmail.slice(0, 10));
    await press(page, 'Search');
    await page.getByRole('link', { name: buyerEmail }).click();
    await expect.poll(() => page.getByRole('link', { name: orderId }).count()).toBe(1);
    expect(await page.getByRole('cell', { name: /Pro \(version 1\)/ }).count()).toBe(1);
    await checkPage(page, 'customer');
  });

  it('refunds part of the sale, with the refundable rest shown', async () => {
    const { page } = owner;
    await page.getByRole('link', { name: orderId }).click();
    await expect.poll(() => page.textContent('h1')).toBe(`Order ${orderId}`);
    expect(await page.textContent('form[aria-label=Refund]')).toContain('Up to $29.00 can still be refunded');
    await fill(page, 'Amount to refund (USD)', '100');
    await press(page, 'Refund');
    await expect.poll(() => page.locator('[role=alert]').count()).toBe(1);
    await fill(page, 'Amount to refund (USD)', '10');
    await press(page, 'Refund');
    await expect.poll(() => page.getByText('Refunded $10.00.').count()).toBe(1);
    await expect.poll(() => page.textContent('form[aria-label=Refund]')).toContain('Up to $19.00 can still be refunded');
    expect((await sandbox('GET', `/orders/${orderId}/`)).body.refundedTotalUnits).toBe(1000);
    await checkPage(page, 'order-refunded');
  });

  it('reads the webhook delivery with its payload and answer, and resends it', async () => {
    const { page } = owner;
    await server.deliverWebhooks();
    const before = receiver.received.length;
    expect(before).toBeGreaterThan(0);
    await menu(page, 'Developers');
    await page.getByRole('button', { name: /^Show delivery of Checkout completed/ }).first().click();
    await expect.poll(() => page.locator('.delivery pre').count()).toBe(2);
    expect(await page.locator('.delivery pre').first().textContent()).toContain('checkout.completed');
    await press(page, 'Resend this event');
    await expect.poll(() => page.getByText(/Queued 1 delivery/).count()).toBe(1);
    await checkPage(page, 'developers');
    await server.deliverWebhooks();
    expect(receiver.received.length).toBe(before + 1);
  });

  it('creates a test clock, puts a subscriber on it, advances a month and sees the renewal', async () => {
    const { page } = owner;
    await fill(page, 'Clock name', 'Renewals');
    await press(page, 'Create test clock');
    await expect.poll(() => page.getByRole('cell', { name: 'Renewals', exact: true }).count()).toBe(1);
    const customerId = uniqueId('cus_clock');
    await fill(page, 'New customer id', customerId);
    await fill(page, 'Their email', `${customerId}@example.com`);
    await press(page, 'Add customer on the clock');
    await expect.poll(() => page.getByRole('cell', { name: '1', exact: true }).count()).toBeGreaterThan(0);
    const session = await sandbox('POST', '/checkout/', { planIdentifier: 'pro', chargePeriod: 'MONTHLY', successUrl: `${server.url}/dashboard/`, customerId });
    expect(session.status, session.text).toBe(201);
    await buy(session.body.checkoutUrl, `${customerId}@example.com`);
    await until(async () => (await sandbox('GET', '/orders/', undefined)).body.count === 2, 'the clock customer order');

    await press(page, 'Advance one month on Renewals');
    // The clock's job, then the renewal it makes due (the jobs a worker would run).
    await until(async () => {
      await server.runJobs();
      const clock = (await sandbox('GET', '/test-clocks/')).body.results[0];
      return clock.status === 'ready' && (await sandbox('GET', `/orders/?customer_id=${customerId}`)).body.count === 2;
    }, 'the clock to advance and renew');
    await page.goto(`${server.url}/dashboard/customers/${customerId}`);
    await page.waitForLoadState('networkidle');
    await expect.poll(() => page.getByRole('region', { name: 'Orders of this customer table' }).getByRole('row').count()).toBe(3);
    await checkPage(page, 'customer-renewed');
    await menu(page, 'Developers');
    await checkPage(page, 'developers-test-clock', { docs: false });
  });

  it('invites a support member, who accepts, signs in with the keyboard, finds no refund button, is refused by the API, resets the password and adds a second factor', async () => {
    const email = `${uniqueId('support')}@example.com`;
    await menu(owner.page, 'Settings');
    await fill(owner.page, 'Email of the new member', email);
    await owner.page.getByLabel('Role', { exact: true }).selectOption('support');
    await press(owner.page, 'Send invitation');
    await expect.poll(() => owner.page.getByRole('cell', { name: email, exact: true }).count()).toBe(1);
    await checkPage(owner.page, 'settings-invited');

    const support = await openPage(browser, { width: 1280, height: 900 });
    const { page } = support;
    await page.goto(`${server.url}/dashboard/accept-invitation?token=${await linkMailedTo(email, 'accept-invitation')}`);
    await fill(page, 'Your name', 'Sam Support');
    await fill(page, 'Choose a password', 'short');
    await checkPage(page, 'accept-invitation');
    await fill(page, 'Choose a password', PASSWORD);
    await press(page, 'Accept the invitation');
    await expect.poll(() => page.textContent('h1')).toBe('Home');
    expect(await page.getByText('(support)').count()).toBe(1);
    await press(page, 'Sign out');
    await page.goto(`${server.url}/dashboard/orders/${orderId}`);
    await page.waitForURL(/\/dashboard\/sign-in\?next=/);
    await checkPage(page, 'sign-in');
    // Keyboard only: the first Tab reaches the email field, Enter submits.
    await page.keyboard.press('Tab');
    await page.keyboard.type(email);
    await page.keyboard.press('Tab');
    await page.keyboard.type(PASSWORD);
    await page.keyboard.press('Enter');
    await page.waitForURL(`${server.url}/dashboard/orders/${orderId}`);
    await expect.poll(() => page.textContent('h1')).toBe(`Order ${orderId}`);
    await page.waitForLoadState('networkidle');
    // The order itself shown (its customer's link): the missing button is not a page still loading.
    await page.getByRole('link', { name: buyerEmail }).waitFor();
    expect(await page.getByRole('button', { name: 'Refund' }).count()).toBe(0);
    await checkPage(page, 'order-as-support');
    // The same request the owner's page sent, crafted by hand in the support member's page.
    const refused = await page.evaluate(async (id) => {
      const session = await (await fetch('/dashboard/api/session')).json();
      const res = await fetch('/sandbox/api/v1/refunds/', {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-csrf-token': session.csrfToken, 'x-billow-organization': session.memberships[0].organizationId },
        body: JSON.stringify({ orderId: id, amount: '1' }),
      });
      return { status: res.status, body: await res.json() };
    }, orderId);
    expect(refused.status).toBe(403);
    expect(refused.body.detail).toMatch(/support/);
    expect((await sandbox('GET', `/orders/${orderId}/`)).body.refundedTotalUnits).toBe(1000);

    // They forget their password: a reset by email, then a second factor, asked for at the next sign-in.
    await press(page, 'Sign out');
    await page.goto(`${server.url}/dashboard/sign-in`);
    await page.getByRole('link', { name: 'Forgot your password?' }).click();
    // The sign-in page has an Email field too, and stays a moment after the click: the address goes into the reset page's.
    await page.getByRole('button', { name: 'Email me a link' }).waitFor();
    await fill(page, 'Email', email);
    await press(page, 'Email me a link');
    await expect.poll(() => page.getByText('an email with a link').count()).toBe(1);
    await page.goto(`${server.url}/dashboard/reset-password?token=${await linkMailedTo(email, 'reset-password')}`);
    await fill(page, 'New password', 'a brand new passphrase');
    await checkPage(page, 'reset-password');
    await press(page, 'Save the new password');
    await expect.poll(() => page.getByText('Your password is changed').count()).toBe(1);
    await page.getByRole('link', { name: 'Sign in' }).click();
    await fill(page, 'Email', email);
    await fill(page, 'Password', 'a brand new passphrase');
    await press(page, 'Sign in');
    await expect.poll(() => page.textContent('h1')).toBe('Home');
    await menu(page, 'Settings');
    await press(page, 'Set up an authenticator app');
    const secret = (await page.locator('code.secret').textContent())!.trim();
    await fill(page, 'Code from the app', totpCodeAt(secret, new Date()));
    await press(page, 'Turn on');
    await expect.poll(() => page.getByText('The second factor is on').count()).toBe(1);
    await press(page, 'Sign out');
    await page.goto(`${server.url}/dashboard/sign-in`);
    await fill(page, 'Email', email);
    await fill(page, 'Password', 'a brand new passphrase');
    await press(page, 'Sign in');
    await expect.poll(() => page.getByLabel('Code from your authenticator app').count()).toBe(1);
    await checkPage(page, 'sign-in-code');
    await fill(page, 'Code from your authenticator app', '000000');
    await press(page, 'Verify and sign in');
    await expect.poll(() => page.locator('[role=alert]').count()).toBe(1);
    await fill(page, 'Code from your authenticator app', totpCodeAt(secret, new Date()));
    await press(page, 'Verify and sign in');
    await expect.poll(() => page.textContent('h1')).toBe('Home');
    expect(support.problems).toEqual([]);
    await support.close();
  });

  it('sees all of it in the audit log', async () => {
    const { page } = owner;
    await page.reload();
    await page.waitForLoadState('networkidle');
    const log = page.getByRole('region', { name: 'Audit log table' });
    await expect.poll(() => log.getByRole('row').count()).toBeGreaterThan(5);
    // Read until the table has settled: one read of a table being drawn again once held a part of it (PostgreSQL, CI).
    const logText = async () => (await log.textContent()) ?? '';
    for (const done of ['Refund made', 'Product created', 'Plan published', 'Webhook endpoint added', 'API key created', 'API key revoked', 'Test clock advanced', 'Member invited'])
      await expect.poll(logText, { message: done, timeout: 15_000 }).toContain(done);
    await expect.poll(logText).toContain('Dashboard (sandbox)');
    await expect.poll(logText).toContain('Dashboard (the team)');
    // Words only: no action's code, no operation's method and route, anywhere on the page.
    const main = (await page.locator('main').innerText()) ?? '';
    for (const code of AUDIT_ACTIONS) expect(main, code).not.toContain(code);
    expect(main).not.toMatch(/\b(POST|PUT|PATCH|DELETE) \/api\//);
    await fill(page, 'Resource', 'refunds');
    await press(page, 'Filter');
    await expect.poll(() => log.getByRole('row').count()).toBe(2);
    await checkPage(page, 'audit-log');
    // The filter by action speaks words too.
    await fill(page, 'Resource', '');
    await page.getByLabel('Action', { exact: true }).selectOption({ label: 'API key revoked' });
    await press(page, 'Filter');
    // The refunds' filter also left one row: the text tells the two answers apart, then the row count is this answer's.
    await expect.poll(logText).toContain('API key revoked');
    await expect.poll(() => log.getByRole('row').count()).toBe(2);
  });

  it('every page passes axe and fits a 375 px phone', async () => {
    const phone = await browser.newContext({ viewport: { width: 375, height: 800 }, storageState: await owner.context.storageState() });
    const page = await phone.newPage();
    const pages: Array<[string, string]> = [
      ['/', 'home'],
      ['/customers', 'customers'],
      ['/catalog', 'catalog'],
      ['/catalog/plans/pro', 'plan'],
      ['/subscriptions', 'subscriptions'],
      ['/orders', 'orders'],
      ['/orders?tab=invoices', 'invoices'],
      ['/orders?tab=credit-notes', 'credit-notes'],
      ['/orders?tab=refunds', 'refunds'],
      [`/orders/${orderId}`, 'order'],
      ['/selling', 'selling'],
      ['/developers', 'developers'],
      ['/settings', 'settings'],
    ];
    for (const [path, name] of pages) {
      await page.goto(`${server.url}/dashboard${path}`);
      await expect.poll(() => page.locator('h1').count()).toBe(1);
      await checkPage(page, `phone-${name}`, { docs: name === 'home' });
    }
    await phone.close();
    // The wide pages not visited above.
    for (const [path, name] of [['/subscriptions', 'subscriptions'], ['/orders?tab=invoices', 'invoices'], ['/settings', 'settings']]) {
      await owner.page.goto(`${server.url}/dashboard${path}`);
      await expect.poll(() => owner.page.locator('h1').count()).toBe(1);
      await checkPage(owner.page, name!);
    }
  });

  it('switches to production in one place, and shows production data only', async () => {
    const { page } = owner;
    await menu(page, 'Catalog');
    await page.getByRole('radio', { name: 'Production' }).check();
    await expect.poll(() => page.textContent('.env-banner')).toContain('Production');
    await expect.poll(() => page.getByText('No products yet.').count()).toBe(1);
    await checkPage(page, 'catalog-production');
    await page.reload();
    await page.waitForLoadState('networkidle');
    // The choice is kept; switching back shows the sandbox catalog again.
    expect(await page.getByRole('radio', { name: 'Production' }).isChecked()).toBe(true);
    await page.getByRole('radio', { name: 'Sandbox' }).check();
    await expect.poll(() => page.getByRole('region', { name: 'Products table' }).getByRole('cell', { name: 'notes-pro', exact: true }).count()).toBe(1);
    expect(owner.problems).toEqual([]);
  });
});
