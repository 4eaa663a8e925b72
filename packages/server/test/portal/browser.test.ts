import fs from 'node:fs';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, openPage as openPageIn, screenshotsIn, skipBrowserTests } from '../browser.js';
import { CARDS, openPortalWorld, type PortalWorld } from './support.js';

// The customer portal in a real browser: Debian's chromium driven by playwright-core (never a
// downloaded browser), one browser for the file. Screenshots of each state go to
// test-artifacts/portal/ (docs/portal.md shows them).


let w: PortalWorld;
let browser: Browser;

const shot = screenshotsIn('portal');

const openPage = (viewport = { width: 1000, height: 900 }) => openPageIn(browser, viewport, { acceptDownloads: true });

/** The actors of an environment's events of `type` that mention `objectId`, oldest first. */
async function actorsOf(type: string, objectId: string): Promise<(string | null)[]> {
  const rows = await w.server.database.db.selectFrom('events').select(['actor', 'payload']).where('type', '=', type).orderBy('seq').execute();
  return rows.filter((r) => JSON.stringify(r.payload).includes(objectId)).map((r) => r.actor);
}

const dollars = (text: string | null) => Math.round(Number((text ?? '').replace(/[^0-9.]/g, '')) * 100);

describe.skipIf(skipBrowserTests)('the customer portal in chromium', () => {
  beforeAll(async () => {
    w = await openPortalWorld();
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await w?.server.close();
  });

  it('opens from portal.createSession, changes plan with the proration shown and charged, cancels at period end and resumes', async () => {
    const clockId = await w.testClock('2027-01-01T00:00:00Z');
    const customerId = await w.customer({ clockId });
    const id = await w.subscribe(customerId, w.s.plans.basic);
    await w.advance(clockId, '2027-01-16T12:00:00Z');
    const { page, problems, close } = await openPage();
    const response = await page.goto(await w.portalLink(customerId));
    expect(response!.status()).toBe(200);
    expect(await page.textContent('h1')).toBe('Billing portal');
    const card = page.locator(`#subscription-${id}`);
    expect(await card.textContent()).toContain('active');
    expect(await card.textContent()).toContain('Next invoice');
    await shot(page, '01-overview');

    await card.locator('summary', { hasText: 'Change plan' }).click();
    const pro = await page.locator(`#choice-${id} option`, { hasText: 'Monthly' }).filter({ hasNotText: 'Trial' }).allTextContents();
    const proOption = pro.find((text) => text.startsWith('Pro'))!;
    await page.selectOption(`#choice-${id}`, { label: proOption });
    await card.getByRole('button', { name: 'See the price' }).click();
    const shown = await page.textContent('[data-testid=prorated-amount]');
    // Half of the period is left: the difference between $20 and $10 for half a month.
    expect(shown).toBe('$5.00');
    await shot(page, '02-change-preview');
    await page.getByRole('button', { name: /Confirm and pay/ }).click();
    expect(await page.textContent('.notice')).toContain('Your plan was changed');
    const invoices = (await w.s.call('GET', `/invoices/?customer_id=${customerId}`)).body.results;
    expect(invoices[0].amountTotalUnits).toBe(dollars(shown));
    expect(await page.locator(`#invoice-${invoices[0].id}`).textContent()).toContain('$5.00');
    const current = (await w.s.call('GET', `/subscriptions/?customer_id=${customerId}`)).body.results[0];
    expect(current.plan.identifier).toBe(w.s.plans.pro);
    expect(await actorsOf('subscription.plan_changed', current.id)).toEqual(['customer_portal']);
    await shot(page, '03-plan-changed');

    const proCard = page.locator(`#subscription-${current.id}`);
    await proCard.locator('summary', { hasText: 'Cancel subscription' }).click();
    await page.selectOption(`#feedback-${current.id}`, 'MISSING_FEATURES');
    await proCard.getByRole('button', { name: 'Cancel at the end of the period' }).click();
    expect(await page.textContent('.notice')).toContain('cancelled');
    expect(await page.locator(`#subscription-${current.id}`).textContent()).toContain('Ends on');
    expect(await w.subscription(current.id)).toMatchObject({ cancellationReason: 'CANCELLED_BY_CUSTOMER', cancellationFeedback: 'MISSING_FEATURES' });
    await shot(page, '04-cancelled');
    await page.getByRole('button', { name: 'Resume subscription' }).click();
    expect(await page.textContent('.notice')).toContain('renew again');
    expect(await page.locator(`#subscription-${current.id}`).textContent()).not.toContain('Ends on');
    expect((await w.subscription(current.id)).endDate).toBeNull();
    await shot(page, '05-resumed');
    expect(problems).toEqual([]);
    await close();
  });

  it('adds a card, makes it the default, and pays the failed invoice of a past_due subscription', async () => {
    const clockId = await w.testClock('2027-01-01T00:00:00Z');
    const customerId = await w.customer({ clockId });
    const id = await w.subscribe(customerId, w.s.plans.basic);
    await w.makeDefault(customerId, CARDS.declined);
    await w.advance(clockId, '2027-02-01T00:30:00Z');
    expect((await w.subscription(id)).status).toBe('past_due');
    const { page, problems, close } = await openPage();
    await page.goto(await w.portalLink(customerId));
    expect(await page.locator(`#subscription-${id} .problem`).textContent()).toContain('failed');
    await shot(page, '06-past-due');

    await page.locator('summary', { hasText: 'Add a card' }).click();
    await page.fill('#card-number', '5555 5555 5555 4444');
    await page.fill('#card-expiry', '12 / 35');
    await page.fill('#card-cvc', '123');
    await page.getByRole('button', { name: 'Save card' }).click();
    expect(await page.textContent('.notice')).toContain('card was saved');
    const added = page.locator('.item', { hasText: 'ending in 4444' });
    await added.getByRole('button', { name: 'Make default' }).click();
    expect(await page.textContent('.notice')).toContain('default card was changed');
    expect(await page.locator('.item', { hasText: 'ending in 4444' }).textContent()).toContain('default');
    const methods = (await w.s.call('GET', `/payment-methods/?customer_id=${customerId}`)).body.results;
    expect(methods.find((m: any) => m.isDefault).methodData.last4).toBe('4444');
    await shot(page, '07-card-default');

    await page.getByRole('button', { name: /^Pay \$10\.00 now$/ }).click();
    expect(await page.textContent('.notice')).toContain('invoice is paid');
    expect((await w.subscription(id)).status).toBe('active');
    expect(await page.locator(`#subscription-${id}`).textContent()).toContain('active');
    expect((await actorsOf('invoice.paid', customerId)).at(-1)).toBe('customer_portal');
    expect(await actorsOf('payment_method.created', customerId)).toEqual([null, null, 'customer_portal']);
    await shot(page, '08-invoice-paid');
    expect(problems).toEqual([]);
    await close();
  });

  it('downloads an invoice PDF and deactivates a license instance', async () => {
    const customerId = await w.customer();
    const bought = await w.s.call('POST', '/charges/', { planIdentifier: w.s.plans.lifetime, chargePeriod: 'ONE_TIME', customerId });
    expect(bought.status, bought.text).toBeLessThan(300);
    const order = (await w.s.call('GET', `/orders/?customer_id=${customerId}`)).body.results[0];
    const licenseKey = order.license[0].licenseKey as string;
    const activated = await w.s.call('POST', '/license/activate/', { licenseKey, instanceName: 'Work laptop' });
    expect(activated.status, activated.text).toBe(201);
    const { page, problems, close } = await openPage();
    await page.goto(await w.portalLink(customerId));
    expect(await page.locator('#licenses').textContent()).toContain('Work laptop');
    await shot(page, '09-licenses');

    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'Download PDF' }).first().click()]);
    expect(download.suggestedFilename()).toMatch(/^INV-.*\.pdf$/);
    const bytes = fs.readFileSync((await download.path())!);
    expect(bytes.subarray(0, 5).toString()).toBe('%PDF-');

    await page.locator('#licenses').getByRole('button', { name: 'Deactivate' }).click();
    expect(await page.textContent('.notice')).toContain('deactivated');
    expect(await page.locator('#licenses').textContent()).not.toContain('Work laptop');
    const check = await w.s.call('POST', '/license/validate/', { licenseKey, instanceId: activated.body.instanceId });
    expect(check.body.valid).toBe(false);
    await shot(page, '10-license-deactivated');
    expect(problems).toEqual([]);
    await close();
  });

  it('fits a 375 px phone, and shows a clear page for a tampered link', async () => {
    const customerId = await w.customer();
    await w.subscribe(customerId, w.s.plans.basic);
    const link = await w.portalLink(customerId);
    const { page, problems, close } = await openPage({ width: 375, height: 812 });
    await page.goto(link);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    await shot(page, '11-phone-375');
    const tampered = await page.goto(link.replace(/.$/, (c) => (c === '0' ? '1' : '0')));
    expect(tampered!.status()).toBe(401);
    expect(await page.textContent('h1')).toBe('This link is not valid');
    await shot(page, '12-invalid-link');
    expect(problems).toEqual([]);
    await close();
  });
});
