/**
 * The dashboard's files (decision 0081): the single page at /dashboard/ and under every client
 * route, with the strict policy and never cached; the hashed assets cached for good; nothing
 * inline that the policy would have to allow; unknown assets and session operations are not pages.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './harness.js';

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => server.close());

const get = (path: string) => fetch(`${server.url}${path}`, { redirect: 'manual' });

describe('GET /dashboard/', () => {
  it('answers the single page with a strict policy, not cached', async () => {
    const res = await get('/dashboard/');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    const csp = res.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("script-src 'self';");
    expect(csp).toContain("style-src 'self';");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).not.toContain('unsafe');
    expect(res.headers.get('cache-control')).toBe('no-cache');
    expect(res.headers.get('x-frame-options')).toBe('DENY');
    const html = await res.text();
    expect(html).toContain('<div id="root"></div>');
    // No inline script or style: every <script> has a src, and no element carries a style attribute.
    expect(html.match(/<script(?![^>]*\bsrc=)[^>]*>/g)).toBeNull();
    expect(html).not.toMatch(/<style|\sstyle=/);
    // Everything it loads comes from this origin.
    for (const [, url] of html.matchAll(/(?:src|href)="([^"]+)"/g)) expect(url!.startsWith('/dashboard/assets/') || url === 'data:,').toBe(true);
  });

  it('answers the same page for client routes (a reload or a link from an email), and without the slash', async () => {
    for (const path of ['/dashboard', '/dashboard/customers/cus_1', '/dashboard/welcome?token=abc', '/dashboard/catalog/plans/pro']) {
      const res = await get(path);
      expect(res.status, path).toBe(200);
      expect(await res.text()).toContain('<div id="root"></div>');
    }
  });

  it('serves the hashed assets for a year, immutable, and 404 for any other name', async () => {
    const html = await (await get('/dashboard/')).text();
    const assets = [...html.matchAll(/"(\/dashboard\/assets\/[^"]+)"/g)].map((m) => m[1]!);
    expect(assets.some((a) => a.endsWith('.js'))).toBe(true);
    expect(assets.some((a) => a.endsWith('.css'))).toBe(true);
    for (const asset of assets) {
      const res = await get(asset);
      expect(res.status, asset).toBe(200);
      expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
      expect(res.headers.get('content-type')).toMatch(asset.endsWith('.js') ? /^text\/javascript/ : /^text\/css/);
      // The bundle makes no request to another origin (no CDN, no fonts from elsewhere).
      expect(await res.text()).not.toMatch(/https?:\/\/(?!www\.w3\.org|reactjs\.org|react\.dev)[a-z0-9.-]+\.[a-z]{2,}\/[^"'\s]*\.(?:js|css|woff2?)/);
    }
    for (const path of ['/dashboard/assets/nope.js', '/dashboard/assets/..%2F..%2Fpackage.json', '/dashboard/assets/index.html']) {
      const res = await get(path);
      expect(res.status, path).toBe(404);
      expect((await res.json()).code).toBe('not_found');
    }
  });

  it('answers an unknown session operation 404 in the API format, never the page', async () => {
    const res = await get('/dashboard/api/no-such-operation');
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect((await res.json()).detail).toBeTruthy();
  });
});
