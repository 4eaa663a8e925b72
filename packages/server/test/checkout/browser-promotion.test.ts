import type { Browser } from 'playwright-core';
import { launchChromium, shot, skipBrowserTests } from './browser-support.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openCheckoutWorld, type CheckoutWorld } from './support.js';

// A promoted price in a real browser (decision 0036): Debian's chromium through playwright-core,
// skipped where there is none (CI installs it). The screenshot goes to test-artifacts/checkout/.

let w: CheckoutWorld;
let browser: Browser;

describe.skipIf(skipBrowserTests)('a promoted price in chromium', () => {
  beforeAll(async () => {
    w = await openCheckoutWorld();
    const made = await w.s.call('POST', '/promotion-rules/', { name: 'PPP', productId: w.s.product.id, countryOverrides: [{ countryCode: 'IN', percentage: 40 }] });
    expect(made.status, made.text).toBe(201);
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await w?.server.close();
  });

  it('shows a buyer located in India the promotional price and its discount, and the total after it', async () => {
    const { url } = await w.session({ ipAddress: '49.44.0.1' });
    const context = await browser.newContext({ viewport: { width: 1000, height: 900 } });
    const page = await context.newPage();
    expect((await page.goto(url))!.status()).toBe(200);
    const price = await page.textContent('table[aria-label="Price"]');
    expect(price).toContain('Promotional price for India (40 % off)');
    expect(price).toContain('−$4.00');
    await shot(page, 'promotion');
    await context.close();
  });
});
