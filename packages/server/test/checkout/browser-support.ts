/**
 * What the browser tests of the hosted pages share: Debian's chromium driven by
 * playwright-core (never a downloaded browser), pages that record what must never
 * happen, and screenshots of each state in test-artifacts/checkout/.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { expect } from 'vitest';

export const CHROMIUM = process.env.BILLOW_CHROMIUM ?? '/usr/bin/chromium';
export const CHROMIUM_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];
const ARTIFACTS = fileURLToPath(new URL('../../../../test-artifacts/checkout/', import.meta.url));
export const hasChromium = fs.existsSync(CHROMIUM);
if (!hasChromium && !process.env.CI) {
  console.warn(`[checkout browser tests] skipped: no chromium at ${CHROMIUM} (apt-get install chromium, or set BILLOW_CHROMIUM)`);
}

export async function shot(page: Page, name: string): Promise<void> {
  fs.mkdirSync(ARTIFACTS, { recursive: true });
  await page.screenshot({ path: path.join(ARTIFACTS, `${name}.png`), fullPage: true });
}

/** A page that records what must never happen: script dialogs, CSP violations, failed asset loads. */
export async function openPageIn(browser: Browser, viewport = { width: 1000, height: 900 }) {
  const context = await browser.newContext({ viewport });
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
