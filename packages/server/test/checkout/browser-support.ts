import http from 'node:http';
import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import { screenshotsIn } from '../browser.js';

// The hosted checkout in a real browser (test/browser.ts); screenshots of each state go to
// test-artifacts/checkout/.

export { CHROMIUM, hasChromium, launchChromium, openPage, skipBrowserTests } from '../browser.js';

/** A stand-in for the seller's site: the success redirect lands on a page that says thank you. */
export async function startSeller(): Promise<{ url: string; close: () => void }> {
  const seller = http.createServer((req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(`<!doctype html><title>Thanks</title><h1>Thank you for your order</h1><p>${(req.url ?? '').replace(/[<>&"]/g, '')}</p>`);
  });
  await new Promise<void>((resolve) => seller.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(seller.address() as { port: number }).port}`, close: () => seller.close() };
}

export const shot = screenshotsIn('checkout');

/** Waits until the element's text is `expected` (the page may be re-rendered meanwhile), then checks it. */
export async function textBecomes(page: Page, selector: string, expected: string): Promise<void> {
  await page
    .waitForFunction(([sel, text]) => document.querySelector(sel!)?.textContent?.includes(text!) === true, [selector, expected] as const, { timeout: 10_000 })
    .catch(() => undefined);
  expect(await page.textContent(selector)).toContain(expected);
}

export async function fillAndPay(page: Page, card: string, options: { email?: string; country?: string } = {}) {
  if (options.email !== undefined) await page.fill('#email', options.email);
  if (options.country) await page.selectOption('#country', options.country);
  await page.fill('#card-number', card);
  await page.fill('#expiry', '12 / 35');
  await page.fill('#cvc', '123');
  await page.click('#pay');
}
