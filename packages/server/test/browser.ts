import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type BrowserContextOptions, type Page } from 'playwright-core';

// Hosted pages in a real browser: Debian's chromium driven by playwright-core (never a
// downloaded browser). CI installs chromium (.ci/run); a machine without it skips the
// browser tests, saying so, and CI without it fails. Screenshots go to test-artifacts/.

export const CHROMIUM = process.env.BILLOW_CHROMIUM ?? '/usr/bin/chromium';
const ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];
const ARTIFACTS = fileURLToPath(new URL('../../../test-artifacts/', import.meta.url));
export const hasChromium = fs.existsSync(CHROMIUM);
/** Browser tests run where chromium is, and must run in CI. */
export const skipBrowserTests = !hasChromium && !process.env.CI;
if (skipBrowserTests) {
  console.warn(`[browser tests] skipped: no chromium at ${CHROMIUM} (apt-get install chromium, or set BILLOW_CHROMIUM)`);
}

export async function launchChromium(): Promise<Browser> {
  if (!hasChromium) throw new Error(`CI must have chromium at ${CHROMIUM}: .ci/run installs it with apt-get`);
  return chromium.launch({ executablePath: CHROMIUM, args: ARGS });
}

/** Saves full-page screenshots into test-artifacts/{folder}/. */
export function screenshotsIn(folder: string): (page: Page, name: string) => Promise<void> {
  const dir = path.join(ARTIFACTS, folder);
  return async (page, name) => {
    fs.mkdirSync(dir, { recursive: true });
    await page.screenshot({ path: path.join(dir, `${name}.png`), fullPage: true });
  };
}

/** A page that records what must never happen: script dialogs, console errors (CSP violations among them), failed asset loads. */
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
  return { page, context, problems, close: () => context.close() };
}
