/**
 * What every page Billow serves to a browser carries: the hosted checkout, the
 * portal's sign-in page, the development inbox and the API reference at /docs.
 */
import type { Browser } from 'playwright-core';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, openPage, screenshotsIn, skipBrowserTests } from './browser.js';
import { openCheckoutWorld, type CheckoutWorld } from './checkout/support.js';
import { slugOf } from './portal-sign-in/support.js';

let w: CheckoutWorld;
beforeAll(async () => {
  w = await openCheckoutWorld({ env: { BILLOW_TRUST_PROXY: 'true' } });
});
afterAll(() => w?.server.close());

async function pages(): Promise<Record<string, string>> {
  const { url } = await w.session();
  return {
    'hosted checkout': url,
    'portal sign-in': `${w.server.url}/sandbox/portal/${await slugOf(w.server, w.org.organizationId)}/sign-in`,
    'API reference': `${w.server.url}/docs`,
  };
}

function expectPageHeaders(headers: Headers, name: string): void {
  expect(headers.get('content-security-policy'), name).toContain("default-src 'self'");
  expect(headers.get('content-security-policy'), name).toContain("frame-ancestors 'none'");
  expect(headers.get('content-security-policy'), name).not.toContain('unsafe-inline');
  expect(headers.get('x-frame-options'), name).toBe('DENY');
  expect(headers.get('x-content-type-options'), name).toBe('nosniff');
  expect(headers.get('referrer-policy'), name).toBe('no-referrer');
  expect(headers.get('cross-origin-opener-policy'), name).toBe('same-origin');
  expect(headers.get('permissions-policy'), name).toMatch(/(^|, )camera=\(\)/);
  expect(headers.get('permissions-policy'), name).toMatch(/(^|, )geolocation=\(\)/);
  expect(headers.get('permissions-policy'), name).toMatch(/(^|, )microphone=\(\)/);
}

describe('security headers of the pages', () => {
  it('every page carries its content policy, no framing, no referrer, its own window and no powerful features', async () => {
    for (const [name, url] of Object.entries(await pages())) {
      const res = await fetch(url, { redirect: 'manual' });
      expect(res.status, name).toBeLessThan(400);
      expectPageHeaders(res.headers, name);
      expect(res.headers.get('strict-transport-security'), `${name} over http`).toBeNull();
    }
  });

  it('asks for https from then on (HSTS) when the page was reached over https', async () => {
    for (const [name, url] of Object.entries(await pages())) {
      const res = await fetch(url, { redirect: 'manual', headers: { 'x-forwarded-proto': 'https' } });
      expect(res.headers.get('strict-transport-security'), name).toBe('max-age=31536000');
    }
  });

  it("covers the reference page's scripts and styles too", async () => {
    const page = await fetch(`${w.server.url}/docs`, { redirect: 'follow' });
    const html = await page.text();
    const asset = /src="\.?\/?([^"]+\.js)"/.exec(html)?.[1];
    expect(asset).toBeDefined();
    const script = await fetch(new URL(asset!, page.url));
    expect(script.status).toBe(200);
    expect(script.headers.get('x-content-type-options')).toBe('nosniff');
  });
});

describe.skipIf(skipBrowserTests)('the API reference under its content policy, in chromium', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchChromium();
  });
  afterAll(() => browser?.close());

  it('renders every operation with no policy violation', async () => {
    const { page, problems, close } = await openPage(browser, { width: 1280, height: 900 });
    try {
      const violations: string[] = [];
      await page.exposeFunction('reportViolation', (text: string) => violations.push(text));
      await page.addInitScript(() => {
        document.addEventListener('securitypolicyviolation', (event) => {
          (window as unknown as { reportViolation(text: string): void }).reportViolation(`${event.violatedDirective} ${event.blockedURI}`);
        });
      });
      await page.goto(`${w.server.url}/docs`);
      await page.locator('.opblock').first().waitFor({ timeout: 90_000 });
      expect(await page.locator('.opblock').count()).toBeGreaterThan(50);
      expect(await page.title()).toBe('Billow API reference');
      await page.locator('.topbar img').waitFor();
      expect(await page.locator('.topbar img').evaluate((img) => (img as HTMLImageElement).naturalWidth)).toBeGreaterThan(0);
      expect(await page.locator('.download-url-wrapper').isVisible()).toBe(false);
      if (process.env.BILLOW_WRITE_DOCS === '1') await page.screenshot({ path: fileURLToPath(new URL('../../../docs/images/api-reference.png', import.meta.url)) });
      await screenshotsIn('api-reference')(page, 'docs-1280');

      // An operation opened shows its three samples; its guides are one click away.
      await page.locator('#operations-Customers-post_api_v1_customers_').click();
      const opened = page.locator('#operations-Customers-post_api_v1_customers_');
      await opened.getByText("await billow.customers.create({ customerId: 'cus_ada' });").waitFor();
      await expect(opened.getByText('Official client (@kelviq/node-sdk)').count()).resolves.toBe(1);
      await opened.scrollIntoViewIfNeeded();
      if (process.env.BILLOW_WRITE_DOCS === '1') await page.screenshot({ path: fileURLToPath(new URL('../../../docs/images/api-reference-samples.png', import.meta.url)) });
      await screenshotsIn('api-reference')(page, 'docs-samples-1280');
      // The reference opens links in a new tab; the guide is followed here in the same one.
      const guide = await page.locator('.info a[href="/docs/guides/webhooks"]').getAttribute('href');
      await page.goto(new URL(guide!, page.url()).toString());
      expect(await page.locator('h1').first().textContent()).toMatch(/webhook/i);
      await screenshotsIn('api-reference')(page, 'guide-webhooks-1280');
      expect(violations).toEqual([]);
      expect(problems).toEqual([]);
    } finally {
      await close();
    }
  });
});
