import fs from 'node:fs';
import http from 'node:http';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { expect } from 'vitest';
import { systemClock } from '../src/lib/clock.js';
import { createMember } from '../src/modules/accounts/people.service.js';
import { openPage, screenshotsIn } from './browser.js';
import { uniqueId, type TestServer } from './harness.js';

// The seller's dashboard in Chromium (decision 0082): axe-core run in each page, screenshots
// to test-artifacts/dashboard/ and, with BILLOW_WRITE_DOCS=1, to docs/images/dashboard/.

const AXE = fs.readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
const DOCS = fileURLToPath(new URL('../../../docs/images/dashboard/', import.meta.url));
const shot = screenshotsIn('dashboard');

export interface Violation {
  id: string;
  impact: string | null;
  nodes: string[];
}

/**
 * axe-core's WCAG 2.1 A/AA and best-practice rules in the page as it is now. The page's policy
 * forbids inline scripts, so axe is evaluated by the driver (as a console would), not injected.
 */
export async function axeViolations(page: Page): Promise<Violation[]> {
  await page.evaluate(AXE);
  return page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run(context: Document, options: object): Promise<{ violations: Array<{ id: string; impact: string | null; nodes: Array<{ target: unknown[] }> }> }> } }).axe;
    const result = await axe.run(document, { runOnly: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'] });
    return result.violations.map((v) => ({ id: v.id, impact: v.impact, nodes: v.nodes.map((n) => String(n.target)) }));
  });
}

/** Checks a page: no serious or critical axe violation, nothing wider than the window; then its screenshot. */
export async function checkPage(page: Page, name: string, options: { docs?: boolean } = {}): Promise<void> {
  await page.waitForLoadState('networkidle');
  await page.waitForFunction(() => !document.querySelector('.loading'), undefined, { timeout: 10_000 }).catch(() => undefined);
  const serious = (await axeViolations(page)).filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(serious, `${name}: axe violations`).toEqual([]);
  // What sticks out past the window's right edge, outside a scrolling table (named, to say what to fix).
  const wide = await page.evaluate(() =>
    [...document.querySelectorAll('body *')]
      .filter((el) => el.getBoundingClientRect().right > window.innerWidth + 1 && !el.closest('.table-wrap'))
      .slice(0, 5)
      .map((el) => `${el.tagName.toLowerCase()}.${el.className} ${Math.round(el.getBoundingClientRect().right)}px`),
  );
  expect(wide, `${name}: wider than the window`).toEqual([]);
  expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth), `${name}: scrolls sideways`).toBeLessThanOrEqual(0);
  await shot(page, name);
  if (options.docs !== false && process.env.BILLOW_WRITE_DOCS === '1') {
    fs.mkdirSync(DOCS, { recursive: true });
    await page.screenshot({ path: path.join(DOCS, `${name}.png`), fullPage: true });
  }
}

/** A stand-in for the seller's webhook receiver: answers 200 and keeps what it got. */
export async function startReceiver(): Promise<{ url: string; received: string[]; close: () => void }> {
  const received: string[] = [];
  const receiver = http.createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      received.push(body);
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{"ok":true}');
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(receiver.address() as { port: number }).port}/hooks`, received, close: () => receiver.close() };
}

/** Fills a labelled field of the page (the dashboard labels every field). */
export async function fill(page: Page, label: string, value: string): Promise<void> {
  await page.getByLabel(label, { exact: true }).fill(value);
}

/** Clicks a button by its accessible name, then waits for the page's calls to settle. */
export async function press(page: Page, name: string | RegExp): Promise<void> {
  await page.getByRole('button', { name, exact: typeof name === 'string' }).first().click();
  await page.waitForLoadState('networkidle');
}

/** Follows a link of the dashboard's menu. */
export async function menu(page: Page, label: string): Promise<void> {
  await page.getByRole('navigation', { name: 'Dashboard' }).getByRole('link', { name: label, exact: true }).click();
  await page.waitForLoadState('networkidle');
}

/**
 * A new member of the organization with `role`, signed in from their one-time link, in a window `width` px wide: on Home.
 * The browser speaks `locale` (English unless told): the dashboard follows it until the person chooses a language.
 */
export async function signIn(server: TestServer, browser: Browser, organizationId: string, role: string, width = 1280, locale = 'en-US') {
  const { signInToken } = await createMember(server.database.db, systemClock, { organizationId, email: `${uniqueId(role)}@example.com`, role, name: role });
  const opened = await openPage(browser, { width, height: 900 }, { locale });
  await opened.page.goto(`${server.url}/dashboard/welcome?token=${signInToken}`);
  await opened.page.waitForURL(/\/dashboard\/?$/);
  return opened;
}
