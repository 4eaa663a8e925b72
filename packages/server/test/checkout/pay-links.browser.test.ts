/**
 * Due payments on the hosted page in chromium (decision 0035): a pending activate_on_payment
 * change and a past_due invoice, each paid after a decline. Screenshots in test-artifacts/checkout/.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/lib/clock.js';
import { CARDS } from '../commerce-support.js';
import { officialClient } from '../official-client-support.js';
import { launchChromium, openPage, shot, skipBrowserTests, textBecomes } from './browser-support.js';
import { expectStatus, pastDueInvoice, premiumPlan, subscriberPaying } from './pay-links-support.js';
import { openCheckoutWorld, type CheckoutWorld } from './support.js';

const clock = new ManualClock(new Date('2026-11-20T10:00:00Z'));
let w: CheckoutWorld;
let browser: Browser;

async function pay(page: Page, card: string): Promise<void> {
  await page.fill('#card-number', card);
  await page.fill('#expiry', '12 / 35');
  await page.fill('#cvc', '123');
  await page.click('#pay');
}

describe.skipIf(skipBrowserTests)('paying what is owed on the hosted page, in chromium', () => {
  beforeAll(async () => {
    browser = await launchChromium();
    w = await openCheckoutWorld({ clock });
  });
  afterAll(async () => {
    await browser?.close();
    await w?.server.close();
  });

  it('completes an activate_on_payment change: the new plan active, the old superseded, the entitlement granted', async () => {
    const { customerId, subscriptionId } = await subscriberPaying(w, CARDS.declined);
    const premium = await premiumPlan(w);
    const update = await w.s.call('POST', `/subscriptions/${subscriptionId}/update/`, {
      planIdentifier: premium.plan,
      chargePeriod: 'MONTHLY',
      paymentBehavior: 'activate_on_payment',
    });
    expectStatus(update, 200);
    const { page, problems, close } = await openPage(browser);
    expect((await page.goto(update.body.checkoutUrl))!.status()).toBe(200);
    expect(await page.textContent('h1')).toBe('Confirm your plan change');
    await shot(page, 'pay-change-open');
    await pay(page, CARDS.declined);
    await textBecomes(page, '#form-problem', 'The card was declined');
    await shot(page, 'pay-change-declined');
    expect((await w.s.call('GET', `/subscriptions/${update.body.subscriptionId}/`)).body.status).toBe('incomplete');
    await pay(page, CARDS.ok);
    await textBecomes(page, 'h1', 'This payment is complete');
    await shot(page, 'pay-change-complete');
    expect((await w.s.call('GET', `/subscriptions/${update.body.subscriptionId}/`)).body.status).toBe('active');
    expect((await w.s.call('GET', `/subscriptions/${subscriptionId}/`)).body.status).toBe('superseded');
    const kelviq = officialClient(w.server, w.org.sandbox.serverKey);
    expect(await kelviq.entitlements.getEntitlement({ customerId, featureId: premium.feature })).toMatchObject({ hasAccess: true });
    expect(problems).toEqual([]);
    await close();
  });

  it("pays a past_due invoice from its payment_link: the subscription is active again", async () => {
    const { subscriptionId, invoice } = await pastDueInvoice(w);
    const { page, problems, close } = await openPage(browser, { width: 375, height: 800 });
    await page.goto(invoice.paymentLink);
    expect(page.url()).toMatch(/\/sandbox\/checkout\/cs_\w+\/$/);
    expect(await page.textContent('h1')).toBe('Pay your invoice');
    await shot(page, 'pay-invoice-open');
    await pay(page, CARDS.ok);
    await textBecomes(page, 'h1', 'This payment is complete');
    await shot(page, 'pay-invoice-complete');
    expect((await w.s.call('GET', `/invoices/${invoice.id}/`)).body.status).toBe('PAID');
    expect((await w.s.call('GET', `/subscriptions/${subscriptionId}/`)).body.status).toBe('active');
    expect(problems).toEqual([]);
    await close();
  });
});
