import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openCheckoutWorld, type CheckoutWorld } from './support.js';

// A promoted price in a real browser (decision 0036): Debian's chromium through playwright-core,
// skipped where there is none (CI installs it). The screenshot goes to test-artifacts/checkout/.

const CHROMIUM = process.env.BILLOW_CHROMIUM ?? '/usr/bin/chromium';
const ARTIFACTS = fileURLToPath(new URL('../../../../test-artifacts/checkout/', import.meta.url));
const hasChromium = fs.existsSync(CHROMIUM);
let w: CheckoutWorld;
let browser: Browser;

describe.skipIf(!hasChromium && !process.env.CI)('a promoted price in chromium', () => {
  beforeAll(async () => {
    w = await openCheckoutWorld();
    const made = await w.s.call('POST', '/promotion-rules/', { name: 'PPP', productId: w.s.product.id, countryOverrides: [{ countryCode: 'IN', percentage: 40 }] });
    expect(made.status, made.text).toBe(201);
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run'] });
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
    fs.mkdirSync(ARTIFACTS, { recursive: true });
    await page.screenshot({ path: path.join(ARTIFACTS, 'promotion.png'), fullPage: true });
    await context.close();
  });
});
