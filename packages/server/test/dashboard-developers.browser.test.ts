/**
 * The gaps of the dashboard closed in issue 29's follow-up, in Chromium with axe at 1280 and
 * 375 px: events named in words on Home and the webhook pages (never their wire codes), the
 * person's own sessions with sign-out, a webhook endpoint's URL and event types edited, and a
 * test clock that takes an existing customer and shows what its advance billed (decision 0087);
 * Analytics with the month those tests made: its figures, chart and table, and the customers
 * behind a figure (issue 30, decision 0098); its subscribers and trials (decision 0101), and its cash (decision 0099).
 */
import fs from 'node:fs';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemClock } from '../src/lib/clock.js';
import { createMember } from '../src/modules/accounts/people.service.js';
import { PASSWORD } from './accounts-support.js';
import { launchChromium, openPage, skipBrowserTests } from './browser.js';
import { monthly } from './catalog-support.js';
import { CARDS, shop, type Shop } from './commerce-support.js';
import { checkPage, fill, menu, press, startReceiver } from './dashboard-support.js';
import { startTestServer, uniqueId, type TestOrg, type TestServer } from './harness.js';

let server: TestServer;
let browser: Browser;
let org: TestOrg;
let s: Shop;
let receiver: Awaited<ReturnType<typeof startReceiver>>;
let owner: { page: Page; context: BrowserContext; problems: string[]; close(): Promise<void> };
const email = `${uniqueId('owner')}@example.com`;

/** Waits until `check` holds, for up to 10 s. */
async function until(check: () => Promise<boolean>, what: string): Promise<void> {
  for (let i = 0; i < 100; i++) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`waited in vain for ${what}`);
}

/** No event type's wire code (`customer.created`) anywhere a person reads the page. */
async function expectNoEventCodes(page: Page): Promise<void> {
  const text = await page.locator('main').innerText();
  expect(text).not.toMatch(/\b(customer|order|invoice|subscription|checkout|refund|payment_method)\.[a-z_]+\b/);
}

beforeAll(async () => {
  if (skipBrowserTests) return;
  server = await startTestServer();
  org = await server.createOrg('Clocks Co');
  s = await shop(server, org.sandbox.serverKey);
  receiver = await startReceiver();
  browser = await launchChromium();
  await createMember(server.database.db, systemClock, { organizationId: org.organizationId, email, role: 'owner', name: 'Owner', password: PASSWORD });
  owner = await openPage(browser, { width: 1280, height: 900 });
});

afterAll(async () => {
  await owner?.close();
  await browser?.close();
  receiver?.close();
  await server?.close();
});

describe.skipIf(skipBrowserTests)('the dashboard for developers and for oneself', () => {
  it('signs in with a password', async () => {
    await owner.page.goto(`${server.url}/dashboard/sign-in`);
    await fill(owner.page, 'Email', email);
    await fill(owner.page, 'Password', PASSWORD);
    await press(owner.page, 'Sign in');
    await expect.poll(() => owner.page.textContent('h1')).toBe('Home');
  });

  it("names Home's recent events and the webhook deliveries in words", async () => {
    expect((await s.call('POST', '/webhook/endpoints/', { url: receiver.url })).status).toBe(201);
    const customerId = await s.customer();
    await server.deliverWebhooks();
    await owner.page.reload();
    const events = owner.page.getByRole('region', { name: 'Recent events' });
    // Each event says whom it is about (the customer's name), linked to their page.
    await expect.poll(() => events.getByText('Customer created for Buyer').count()).toBeGreaterThan(0);
    const who = events.getByRole('link', { name: 'Buyer', exact: true }).first();
    expect(await who.getAttribute('href')).toBe(`/dashboard/customers/${customerId}`);
    await expectNoEventCodes(owner.page);
    await checkPage(owner.page, 'home-events');
    await who.click();
    await expect.poll(() => owner.page.textContent('h1')).toBe(`${customerId}@example.com`);

    await menu(owner.page, 'Developers');
    const deliveries = owner.page.getByRole('region', { name: 'Webhook deliveries table' });
    await expect.poll(() => deliveries.getByRole('cell', { name: 'Customer created', exact: true }).count()).toBeGreaterThan(0);
    // The endpoints load on their own, apart from the deliveries.
    await expect.poll(() => owner.page.getByRole('region', { name: 'Webhook endpoints table' }).getByRole('cell', { name: 'Every event', exact: true }).count()).toBe(1);
    await expectNoEventCodes(owner.page);
  });

  it("edits an endpoint's URL and event types, chosen by their labels", async () => {
    const { page } = owner;
    await press(page, `Edit ${receiver.url}`);
    await page.getByLabel('Every event, new kinds too').uncheck();
    await page.getByLabel('Invoice paid', { exact: true }).check();
    await page.getByLabel('Order placed', { exact: true }).check();
    const moved = `${receiver.url}?moved=1`;
    await fill(page, 'New endpoint URL', moved);
    await checkPage(page, 'developers-endpoint-edit');
    await press(page, 'Save endpoint');
    const table = page.getByRole('region', { name: 'Webhook endpoints table' });
    await expect.poll(() => table.getByRole('cell', { name: 'Invoice paid, Order placed', exact: true }).count()).toBe(1);
    const [endpoint] = (await s.call('GET', '/webhook/endpoints/')).body.results;
    expect(endpoint).toMatchObject({ url: moved, eventTypes: ['invoice.paid', 'order.created'] });
    // The API's refusal in place: a URL the sandbox does not take.
    await press(page, `Edit ${moved}`);
    await fill(page, 'New endpoint URL', 'ftp://example.com/hooks');
    await press(page, 'Save endpoint');
    await expect.poll(() => page.locator('.endpoint-editor [role=alert]').count()).toBe(1);
    expect((await s.call('GET', '/webhook/endpoints/')).body.results[0].url).toBe(moved);
    const audit = await s.call('GET', '/audit-log/?action=webhook_endpoint.updated');
    expect(audit.body.results[0]).toMatchObject({ actorType: 'user', before: { url: receiver.url }, after: { url: moved } });
  });

  it('attaches an existing customer to a test clock, advances it a month and shows the renewal it billed', async () => {
    const { page } = owner;
    // Made before the clock: a customer never moves onto a clock that stands before its creation.
    const customerId = await s.customer();
    await s.card(customerId, CARDS.ok);
    const late = await s.call('POST', '/test-clocks/', { name: 'Too early', frozenTime: '2024-01-01T00:00:00Z' });
    const clock = await s.call('POST', '/test-clocks/', { name: 'Renewals' });
    expect(clock.status).toBe(201);
    await page.reload();
    await page.waitForLoadState('networkidle');
    const attach = page.getByRole('form', { name: 'Attach an existing customer to a test clock' });
    await attach.getByLabel('Test clock').selectOption(late.body.id);
    await fill(page, 'Existing customer id', customerId);
    await press(page, 'Attach to the clock');
    await expect.poll(() => attach.getByRole('alert').filter({ hasText: 'stands before the customer' }).count()).toBe(1);
    await attach.getByLabel('Test clock').selectOption(clock.body.id);
    await press(page, 'Attach to the clock');
    await expect.poll(() => page.getByText(`${customerId} now lives by the clock.`).count()).toBe(1);
    expect((await s.call('GET', `/customers/${customerId}/`)).body.testClockId).toBe(clock.body.id);
    // A customer with a subscription is refused, in the API's words.
    const subscribed = await s.customer();
    await s.card(subscribed, CARDS.ok);
    expect((await s.call('POST', '/subscriptions/create/', { planIdentifier: s.plans.basic, chargePeriod: 'MONTHLY', customerId: subscribed })).status).toBe(201);
    await fill(page, 'Existing customer id', subscribed);
    await press(page, 'Attach to the clock');
    await expect.poll(() => page.getByRole('alert').filter({ hasText: 'without any subscription' }).count()).toBe(1);

    expect((await s.call('POST', '/subscriptions/create/', { planIdentifier: s.plans.basic, chargePeriod: 'MONTHLY', customerId })).status).toBe(201);
    await press(page, 'Advance one month on Renewals');
    // Ready at a later time: the clock that was ready before the advance reached the server does not count.
    await until(async () => {
      await server.runJobs();
      const now = (await s.call('GET', `/test-clocks/${clock.body.id}/`)).body;
      return now.status === 'ready' && now.frozenTime > clock.body.frozenTime;
    }, 'the clock to advance');
    await page.getByRole('region', { name: 'Test clocks', exact: true }).getByRole('button', { name: 'Refresh' }).click();
    await expect.poll(() => page.getByRole('region', { name: 'Test clocks table' }).getByText('Ready').count()).toBe(2);
    await press(page, 'What happened on Renewals');
    const billed = page.getByRole('region', { name: 'Invoices on Renewals table' });
    // The header and two invoices: the first payment, and the renewal a month later.
    await expect.poll(() => billed.getByRole('row').count(), { timeout: 10_000 }).toBe(3);
    expect(await billed.getByRole('cell', { name: 'First payment', exact: true }).count()).toBe(1);
    expect(await billed.getByRole('cell', { name: '$10.00', exact: true }).count()).toBe(2);
    await checkPage(page, 'developers-test-clock-attach');
  });

  it("shows this month's MRR movements on Analytics, as a chart and a table, and the customers behind a figure", async () => {
    const { page } = owner;
    // Today: the two $10.00 subscriptions above, and one at $20.00 cancelled at once.
    const leaver = await s.customer();
    await s.card(leaver, CARDS.ok);
    const sub = await s.call('POST', '/subscriptions/create/', { planIdentifier: s.plans.pro, chargePeriod: 'MONTHLY', customerId: leaver });
    expect((await s.call('POST', `/subscriptions/${sub.body.id}/cancel/`, { cancellationType: 'IMMEDIATE' })).status).toBe(200);
    // Two 14-day trials: one goes on, one is cancelled during it (ended, not converted).
    const trials: string[] = [];
    for (let i = 0; i < 2; i++) {
      const trier = await s.customer();
      await s.card(trier, CARDS.ok);
      const trial = await s.call('POST', '/subscriptions/create/', { planIdentifier: s.plans.trial, chargePeriod: 'MONTHLY', customerId: trier });
      expect(trial.body.status, trial.text).toBe('trialing');
      trials.push(trial.body.id);
    }
    expect((await s.call('POST', `/subscriptions/${trials[1]}/cancel/`, { cancellationType: 'IMMEDIATE' })).status).toBe(200);
    await menu(page, 'Analytics');
    await expect.poll(() => page.textContent('h1')).toBe('Analytics');
    const card = (label: string) => page.locator('.tiles > div').filter({ hasText: label }).locator('.figure');
    await expect.poll(() => card('MRR, this month').textContent()).toBe('$20.00');
    expect(await card('ARR, this month').textContent()).toBe('$240.00');
    expect(await card('Paying customers, this month').textContent()).toBe('2');
    expect(await card('Customer churn, this month').textContent()).toBe('Not enough data yet');
    // Sparklines: MRR, ARR and paying customers; active subscriptions and trials; collected and net cash (three card groups, each loaded on its own).
    await expect.poll(() => page.locator('.tiles svg.spark').count()).toBe(7);
    // The subscribers and trials, every currency together: the two $10.00 subscriptions, the trial that goes on, the one cancelled.
    await expect.poll(() => card('Active subscriptions, this month').textContent()).toBe('2');
    expect(await card('In trial, this month').textContent()).toBe('1');
    expect(await card('Trial conversion, this month').textContent()).toBe('0%');
    expect(await page.locator('.tiles > div').filter({ hasText: 'Trial conversion, this month' }).innerText()).toContain('0 of 1 trial that ended became paid');
    const trialsTable = page.getByRole('region', { name: 'Trials by month table' });
    const thisMonth = trialsTable.getByRole('row').nth(1);
    expect((await thisMonth.getByRole('cell').allInnerTexts()).slice(1)).toEqual(['2', '1', '0', '0%', '1', '2']);
    expect(await page.locator('main').innerText()).not.toMatch(/trial_|trialsEnd|Bp\b/);
    const [trialsFile] = await Promise.all([page.waitForEvent('download'), press(page, 'Download CSV of the trials and subscribers by month')]);
    expect(fs.readFileSync((await trialsFile.path())!, 'utf8')).toMatch(/\r\nall,\d{4}-\d{2},[\d-]+,[\d-]+,0,2,0,1,2,1,0,0\r\n/);
    const table = page.getByRole('region', { name: 'MRR movements table' });
    expect(await table.getByRole('button', { name: /^\$40\.00 new in .*: show the customers$/ }).count()).toBe(1);
    expect(await table.getByRole('button', { name: /^-\$20\.00 churned in / }).count()).toBe(1);
    expect(await page.locator('svg.chart rect[class*="mv-"]').count()).toBe(2);
    // Cash: today's three first payments ($10.00, $10.00, $20.00), nothing refunded, no payment failed.
    await expect.poll(() => card('Collected, this month').textContent()).toBe('$40.00');
    expect(await card('Refunded, this month').textContent()).toBe('$0.00');
    expect(await card('Net cash, this month').textContent()).toBe('$40.00');
    expect(await card('Recovered by dunning, this month').textContent()).toBe('No failed payment');
    const cashTable = page.getByRole('region', { name: 'Cash and dunning table' });
    expect(await cashTable.getByRole('cell', { name: '$40.00', exact: true }).count()).toBe(2);
    expect(await page.locator('svg.chart rect.cash-collected').count()).toBe(1);
    const [cashFile] = await Promise.all([page.waitForEvent('download'), press(page, 'Download CSV of the cash and dunning figures in USD')]);
    expect(fs.readFileSync((await cashFile.path())!, 'utf8')).toMatch(/\r\nUSD,\d{4}-\d{2},[\d-]+,[\d-]+,3,4000,0,0,4000,0,0,0,0,0,0,\r\n$/);

    await table.getByRole('button', { name: /new in .*show the customers/ }).click();
    const behindNew = page.getByRole('region', { name: /^Customers behind New, .* table$/ });
    await expect.poll(() => behindNew.getByRole('row').count()).toBe(4);
    // The list takes the focus: the keyboard and a screen reader land on it.
    expect(await page.evaluate(() => document.activeElement?.className)).toBe('drill-down');
    expect(await behindNew.getByRole('cell', { name: '$20.00', exact: true }).count()).toBe(2);
    expect(await behindNew.getByRole('link', { name: 'Buyer' }).first().getAttribute('href')).toMatch(/^\/dashboard\/customers\/buyer/);
    await page.locator('svg.chart rect.mv-churned').click();
    const behindChurn = page.getByRole('region', { name: /^Customers behind Churned, .* table$/ });
    await expect.poll(() => behindChurn.getByRole('row').count()).toBe(2);
    expect(await behindChurn.getByRole('cell', { name: '-$20.00', exact: true }).count()).toBe(1);
    expect(await behindChurn.getByRole('cell', { name: '$0.00', exact: true }).count()).toBe(1);
    expect(await page.locator('main').innerText()).not.toMatch(/\b(new|expansion|reactivation|contraction|churned)_|\bMrr|Units\b/);
    // Both lists download as CSV, in minor units.
    const [movementsFile] = await Promise.all([page.waitForEvent('download'), press(page, /^Download CSV of the customers behind Churned/)]);
    const movementsCsv = fs.readFileSync((await movementsFile.path())!, 'utf8').split('\r\n');
    expect(movementsCsv[0]).toMatch(/^day,at,kind,currency,amount_units,/);
    expect(movementsCsv[1]).toContain(',churned,USD,-2000,0,');
    const [seriesFile] = await Promise.all([page.waitForEvent('download'), press(page, 'Download CSV of the MRR movements in USD')]);
    expect(fs.readFileSync((await seriesFile.path())!, 'utf8')).toMatch(/\r\nUSD,\d{4}-\d{2},[\d-]+,[\d-]+,0,2000,24000,4000,0,0,0,-2000,0,2,/);
    await page.mouse.move(0, 0);
    await checkPage(page, 'analytics');
    await page.getByLabel('Days').check();
    await expect.poll(() => table.getByRole('row').count()).toBe(31);
    await expect.poll(() => cashTable.getByRole('row').count()).toBe(31);
    await behindChurn.getByRole('link', { name: 'Buyer' }).click();
    await expect.poll(() => page.url()).toContain(`/customers/${leaver}`);
  });

  it("shows one plan's figures alone, as its own customers see them: MRR, subscriptions, trials and cash", async () => {
    const { page } = owner;
    await menu(page, 'Analytics');
    const card = (label: string) => page.locator('.tiles > div').filter({ hasText: label }).locator('.figure');
    await expect.poll(() => card('MRR, this month').textContent()).toBe('$20.00');
    const figuresOf = page.getByLabel('Figures of', { exact: true });
    await figuresOf.selectOption(`plan:${s.plans.basic}`);
    await expect.poll(() => card('Paying customers, this month').textContent()).toBe('2');
    await expect.poll(() => card('MRR, this month').textContent()).toBe('$20.00');
    // The subscriptions, trials and cash follow the menu too (decision 0107): Basic's two $10.00 subscriptions and their payments.
    // Each card group loads on its own (series, subscriptions and trials, cash): each is waited for.
    await expect.poll(() => card('Collected, this month').textContent()).toBe('$20.00');
    await expect.poll(() => card('Active subscriptions, this month').textContent()).toBe('2');
    await expect.poll(() => card('In trial, this month').textContent()).toBe('0');
    await figuresOf.selectOption(`plan:${s.plans.trial}`);
    // Trial's: the trial that goes on and the one cancelled, no payment.
    await expect.poll(() => page.getByText('No payment for this one in these months.').count()).toBe(1);
    await expect.poll(() => card('In trial, this month').textContent()).toBe('1');
    await expect.poll(() => card('Active subscriptions, this month').textContent()).toBe('0');
    expect(await page.locator('main').innerText()).toContain('a trial it was in ends on this plan without converting');
    await figuresOf.selectOption(`plan:${s.plans.pro}`);
    // Pro's only customer left today: its MRR is back to nothing, and the churn is Pro's; the $20.00 was paid first.
    await expect.poll(() => card('Collected, this month').textContent()).toBe('$20.00');
    await expect.poll(() => card('MRR, this month').textContent()).toBe('$0.00');
    await expect.poll(() => card('In trial, this month').textContent()).toBe('0');
    const table = page.getByRole('region', { name: 'MRR movements table' });
    // Trial's MRR was $0.00 too: the churn tells Pro's series from the one before.
    await expect.poll(() => table.getByRole('button', { name: /^-\$20\.00 churned in / }).count()).toBe(1);
    await table.getByRole('button', { name: /^-\$20\.00 churned in / }).click();
    const behind = page.getByRole('region', { name: /^Customers behind Churned, .* table$/ });
    await expect.poll(() => behind.getByRole('row').count()).toBe(2);
    await figuresOf.selectOption('');
    await expect.poll(() => card('MRR, this month').textContent()).toBe('$20.00');
    await expect.poll(() => card('Collected, this month').textContent()).toBe('$40.00');
    await expect.poll(() => card('In trial, this month').textContent()).toBe('1');
    expect(await behind.count()).toBe(0);
  });

  it('converts Analytics into the reporting currency chosen in Settings, and says how beneath the figures', async () => {
    const { page } = owner;
    // A plan at $100.00 or €92.00 a month, and a customer who pays €92.00.
    const plan = await s.api.plan(s.product.id, { name: uniqueId('Europe') });
    await s.api.prices(plan.identifier, [monthly(100), monthly(92, 'EUR')]);
    await s.api.publish(plan.identifier);
    const european = await s.customer();
    await s.card(european, CARDS.ok);
    const sold = await s.call('POST', '/subscriptions/create/', { planIdentifier: plan.identifier, chargePeriod: 'MONTHLY', customerId: european, currencyCode: 'EUR' });
    expect(sold.status, sold.text).toBe(201);

    await menu(page, 'Settings');
    const form = page.getByRole('form', { name: 'Reporting currency and exchange rates' });
    await form.getByLabel('Reporting currency').selectOption('USD');
    await press(page, 'Save reporting currency');
    const rate = form.getByLabel('1 EUR in USD');
    await expect.poll(() => rate.getAttribute('placeholder')).toBe('1.08696');
    expect(await form.innerText()).toContain('Now 1.08696, derived from the prices of 1 plan sold in both currencies.');
    await rate.fill('1.08');
    await press(page, 'Save reporting currency');
    await expect.poll(() => form.innerText()).toMatch(/Now 1\.08, set by you on /);
    await checkPage(page, 'settings-reporting-currency', { docs: false });

    await menu(page, 'Analytics');
    const card = (label: string) => page.locator('.tiles > div').filter({ hasText: label }).locator('.figure');
    // $20.00 and €92.00 at 1.08: $20.00 + $99.36.
    await expect.poll(() => card('MRR, this month').textContent()).toBe('$119.36');
    expect(await page.getByLabel('Currency').inputValue()).toBe('*');
    const note = await page.locator('.conversion').first().innerText();
    expect(note).toMatch(/€92\.00 converted at 1\.08 USD, set by you on /);
    expect(note).toContain('$20.00, already in USD');
    // The cash too: today's $40.00, and the €92.00 paid at 1.08.
    await expect.poll(() => card('Collected, this month').textContent()).toBe('$139.36');
    expect(await page.locator('.conversion').last().innerText()).toMatch(/Every amount of the cash above is in USD/);
    await checkPage(page, 'analytics-converted', { docs: false });
    await page.getByLabel('Currency').selectOption('EUR');
    await expect.poll(() => card('MRR, this month').textContent()).toBe('€92.00');
    await expect.poll(() => card('Collected, this month').textContent()).toBe('€92.00');
    expect(await page.locator('.conversion').count()).toBe(0);
  });

  it("lists the person's sessions, marks this browser, and signs another one out", async () => {
    const other = await server.request('POST', '/dashboard/api/sign-in', { body: { email, password: PASSWORD }, headers: { 'user-agent': 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) Version/17.0 Mobile Safari/604.1' } });
    expect(other.status, other.text).toBe(200);
    const { page } = owner;
    await menu(page, 'Settings');
    const sessions = page.getByRole('region', { name: 'Your sessions table' });
    await expect.poll(() => sessions.getByRole('row').count()).toBe(3);
    expect(await sessions.getByText('This browser').count()).toBe(1);
    expect(await sessions.getByRole('cell', { name: 'Safari on iOS', exact: true }).count()).toBe(1);
    await checkPage(page, 'settings-sessions');
    await press(page, /^Sign out the session of Safari on iOS/);
    await expect.poll(() => sessions.getByRole('row').count()).toBe(2);
    const cookie = other.headers.get('set-cookie')!.split(';')[0]!;
    expect((await server.request('GET', '/dashboard/api/session', { headers: { cookie } })).status).toBe(401);
  });

  it('says in place when too many reset links were asked for an email', async () => {
    for (let i = 0; i < 5; i++) expect((await server.request('POST', '/dashboard/api/password-reset/request', { body: { email } })).status).toBe(202);
    const stranger = await openPage(browser, { width: 375, height: 800 });
    await stranger.page.goto(`${server.url}/dashboard/reset-password`);
    await fill(stranger.page, 'Email', email);
    await press(stranger.page, 'Email me a link');
    await expect.poll(() => stranger.page.getByRole('alert').filter({ hasText: 'Too many reset or sign-in links' }).count()).toBe(1);
    await checkPage(stranger.page, 'phone-reset-too-many', { docs: false });
    await stranger.close();
  });

  it('fits a 375 px phone on Home, Analytics, Developers and Settings', async () => {
    const phone = await browser.newContext({ viewport: { width: 375, height: 800 }, storageState: await owner.context.storageState() });
    const page = await phone.newPage();
    for (const [path, name] of [['/', 'home'], ['/analytics', 'analytics'], ['/developers', 'developers'], ['/settings', 'settings']] as const) {
      await page.goto(`${server.url}/dashboard${path}`);
      await expect.poll(() => page.locator('h1').count()).toBe(1);
      await checkPage(page, `phone-gaps-${name}`, { docs: false });
    }
    await phone.close();
    expect(owner.problems).toEqual([]);
  });
});
