/**
 * The seller's logo (issue 27, item 1) through HTTP: uploaded through POST /media/, set on the
 * profile by its fileKey, served by Billow at one address per logo, shown on the hosted pages
 * and drawn on documents;
 * files that are not PNG or JPEG, too large or too small, and used keys are refused with 400
 * and change nothing; a new logo or null retires the old address.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { environmentIdOf, startTestServer, type TestOrg, type TestServer } from './harness.js';
import { pngOf, uploadedImage } from './seller/images.js';

let server: TestServer;
let org: TestOrg;

beforeAll(async () => {
  server = await startTestServer();
  org = await server.createOrg();
});
afterAll(() => server.close());

const call = (method: string, path: string, body?: unknown) =>
  server.request(method, `/sandbox/api/v1${path}`, { key: org.sandbox.serverKey, ...(body === undefined ? {} : { body }) });

const uploaded = (bytes: Uint8Array, fileName?: string, fileType?: string) => uploadedImage(call, bytes, fileName, fileType);

const fetchLogo = (url: string) => fetch(url.replace(/^https?:\/\/[^/]+/, server.url));

describe("the seller's logo", () => {
  it('is kept from an upload and served at an address of its own, which a new logo and null retire', async () => {
    const environmentId = await environmentIdOf(server, org.organizationId, 'sandbox');
    const image = pngOf(160, 48);
    const set = await call('PATCH', '/seller-profile/', { logoImageKey: await uploaded(image) });
    expect(set.status, set.text).toBe(200);
    expect(set.body.logoUrl).toMatch(new RegExp(`^http://[^/]+/seller-logos/${environmentId}/[0-9a-f]{32}\\.png$`));
    expect((await call('GET', '/seller-profile/')).body.logoUrl).toBe(set.body.logoUrl);

    const served = await fetchLogo(set.body.logoUrl);
    expect(served.status).toBe(200);
    expect(served.headers.get('content-type')).toBe('image/png');
    expect(served.headers.get('cache-control')).toContain('immutable');
    expect(Buffer.from(await served.arrayBuffer()).equals(image)).toBe(true);

    const replaced = await call('PATCH', '/seller-profile/', { logoImageKey: await uploaded(pngOf(200, 200, [200, 30, 30])) });
    expect(replaced.body.logoUrl).not.toBe(set.body.logoUrl);
    expect((await fetchLogo(set.body.logoUrl)).status).toBe(404);
    expect((await fetchLogo(replaced.body.logoUrl)).status).toBe(200);

    const removed = await call('PATCH', '/seller-profile/', { logoImageKey: null });
    expect(removed.body.logoUrl).toBeNull();
    expect((await fetchLogo(replaced.body.logoUrl)).status).toBe(404);
  });

  it('refuses what is not a usable logo with 400, changing nothing', async () => {
    const kept = await call('PATCH', '/seller-profile/', { logoImageKey: await uploaded(pngOf(64, 64)) });
    expect(kept.status, kept.text).toBe(200);
    const used = (await call('GET', '/seller-profile/')).body;
    const cases: Array<[string, () => Promise<unknown>, string]> = [
      ['text declared as PNG', async () => ({ logoImageKey: await uploaded(new TextEncoder().encode('<svg onload=alert(1)>')) }), 'invalid_logo'],
      ['a GIF', async () => ({ logoImageKey: await uploaded(Buffer.from('GIF89a\x10\x00\x10\x00\x00\x00\x00;', 'latin1'), 'logo.gif', 'image/gif') }), 'invalid_logo'],
      ['too small', async () => ({ logoImageKey: await uploaded(pngOf(8, 8)) }), 'invalid_logo'],
      ['too wide', async () => ({ logoImageKey: await uploaded(pngOf(2400, 20)) }), 'invalid_logo'],
      ['over 256 KiB', async () => ({ logoImageKey: await uploaded(Buffer.concat([pngOf(64, 64), Buffer.alloc(300 * 1024)])) }), 'file_too_large'],
      ['a key with nothing uploaded', async () => ({ logoImageKey: (await call('POST', '/media/', { fileName: 'x.png', fileType: 'image/png' })).body.fileKey }), 'file_not_uploaded'],
      ['an unknown key', async () => ({ logoImageKey: 'tmp/00000000-0000-4000-8000-000000000000/logo.png' }), 'invalid_file_key'],
      ['an empty key', async () => ({ logoImageKey: '' }), 'validation_error'],
    ];
    for (const [name, body, code] of cases) {
      const res = await call('PATCH', '/seller-profile/', await body());
      expect([name, res.status, res.body.code], res.text).toEqual([name, 400, code]);
      expect(res.body.detail).toEqual(expect.any(String));
    }
    const again = await uploaded(pngOf(64, 64, [0, 0, 0]));
    expect((await call('PATCH', '/seller-profile/', { logoImageKey: again })).status).toBe(200);
    const reused = await call('PATCH', '/seller-profile/', { logoImageKey: again, displayName: 'Changed' });
    expect([reused.status, reused.body.code]).toEqual([400, 'file_key_used']);
    expect((await call('GET', '/seller-profile/')).body.displayName).toBe(used.displayName);
  });

  it('appears on the hosted checkout beside the seller name, from Billow’s own origin', async () => {
    const set = await call('PATCH', '/seller-profile/', { displayName: 'Logo & Co', logoImageKey: await uploaded(pngOf(120, 40)) });
    const path = new URL(set.body.logoUrl).pathname;
    const { shop } = await import('./commerce-support.js');
    const s = await shop(server, org.sandbox.serverKey, '/sandbox');
    const created = await s.call('POST', '/checkout/', { planIdentifier: s.plans.basic, chargePeriod: 'MONTHLY', successUrl: 'https://example.com/ok' });
    expect(created.status, created.text).toBe(201);
    const page = await fetch(created.body.checkoutUrl.replace(/^https?:\/\/[^/]+/, server.url));
    const text = await page.text();
    expect(text).toContain(`<img class="seller-logo" src="${path}" alt="">`);
    expect(text).toContain('<span class="seller-name">Logo &amp; Co</span>');
    expect(page.headers.get('content-security-policy')).toContain("img-src 'self'");
  });

  it('is drawn at the top of invoice PDFs, and gone from them once removed', async () => {
    const { shop, CARDS } = await import('./commerce-support.js');
    const s = await shop(server, org.sandbox.serverKey, '/sandbox');
    await call('PATCH', '/seller-profile/', { logoImageKey: await uploaded(pngOf(240, 80, [10, 120, 60])) });
    const customerId = await s.customer();
    await s.card(customerId, CARDS.ok);
    const created = await s.call('POST', '/subscriptions/create/', { planIdentifier: s.plans.basic, chargePeriod: 'MONTHLY', customerId });
    expect(created.status, created.text).toBe(201);
    const [invoice] = (await s.call('GET', `/invoices/?customer_id=${customerId}`)).body.results;
    const pdf = async () => {
      const res = await fetch(`${server.url}/sandbox/api/v1/invoices/${invoice.id}/pdf/`, { headers: { authorization: `Bearer ${org.sandbox.serverKey}` } });
      expect(res.status).toBe(200);
      return Buffer.from(await res.arrayBuffer()).toString('latin1');
    };
    expect(await pdf()).toMatch(/\/Subtype\s*\/Image/);
    await call('PATCH', '/seller-profile/', { logoImageKey: null });
    expect(await pdf()).not.toMatch(/\/Subtype\s*\/Image/);
  });
});
