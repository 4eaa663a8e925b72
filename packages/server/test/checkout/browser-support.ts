import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type BrowserContextOptions, type Page } from 'playwright-core';
import { expect } from 'vitest';

// The hosted checkout in a real browser: Debian's chromium driven by playwright-core
// (never a downloaded browser). CI installs chromium (.ci/run); a machine without it
// skips these tests, saying so. Screenshots of each state go to test-artifacts/checkout/.

export const CHROMIUM = process.env.BILLOW_CHROMIUM ?? '/usr/bin/chromium';
const ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];
const ARTIFACTS = fileURLToPath(new URL('../../../../test-artifacts/checkout/', import.meta.url));
export const hasChromium = fs.existsSync(CHROMIUM);
/** Browser tests run where chromium is, and must run in CI. */
export const skipBrowserTests = !hasChromium && !process.env.CI;
if (skipBrowserTests) {
  console.warn(`[checkout browser tests] skipped: no chromium at ${CHROMIUM} (apt-get install chromium, or set BILLOW_CHROMIUM)`);
}

export async function launchChromium(): Promise<Browser> {
  if (!hasChromium) throw new Error(`CI must have chromium at ${CHROMIUM}: .ci/run installs it with apt-get`);
  return chromium.launch({ executablePath: CHROMIUM, args: ARGS });
}

/** A stand-in for the seller's site: the success redirect lands on a page that says thank you. */
export async function startSeller(): Promise<{ url: string; close: () => void }> {
  const seller = http.createServer((req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(`<!doctype html><title>Thanks</title><h1>Thank you for your order</h1><p>${(req.url ?? '').replace(/[<>&"]/g, '')}</p>`);
  });
  await new Promise<void>((resolve) => seller.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(seller.address() as { port: number }).port}`, close: () => seller.close() };
}

export async function shot(page: Page, name: string): Promise<void> {
  fs.mkdirSync(ARTIFACTS, { recursive: true });
  await page.screenshot({ path: path.join(ARTIFACTS, `${name}.png`), fullPage: true });
}

/** A page that records what must never happen: script dialogs, CSP violations, failed asset loads. */
export async function openPage(browser: Browser, viewport = { width: 1000, height: 900 }, options: BrowserContextOptions = {}) {
  const context = await browser.newContext({ viewport, ...options });
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('dialog', (dialog) => {
    problems.push(`dialog: ${dialog.message()}`);
    void dialog.dismiss();
  });
  page.on('console', (message) => {
    // A page answered 4xx (a decline is 422) is logged as a failed load: statuses are checked by the tests themselves.
    if (message.type() === 'error' && !message.text().startsWith('Failed to load resource')) problems.push(`console: ${message.text()}`);
  });
  page.on('response', (response) => {
    const type = response.request().resourceType();
    if ((type === 'stylesheet' || type === 'script') && response.status() !== 200) problems.push(`asset ${response.status()}: ${response.url()}`);
  });
  return { page, problems, close: () => context.close() };
}

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
