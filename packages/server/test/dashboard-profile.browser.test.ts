/**
 * The seller profile's page of the dashboard (issue 29), in Chromium with axe at 1280 and
 * 375 px: the owner of an organization with the demo's sample profile edits the business,
 * address, tax registrations, documents and brand; a tax id the server refuses is shown beside
 * its field; a logo goes up through the media API to Billow itself; the API then answers what
 * the page showed. A viewer, whom the server would refuse, reads the same form read-only.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SAMPLE_PROFILE } from '../src/bootstrap.js';
import { launchChromium, skipBrowserTests } from './browser.js';
import { checkPage, fill, menu, press, signIn } from './dashboard-support.js';
import { startTestServer, type TestOrg, type TestServer } from './harness.js';
import { pngOf } from './seller/images.js';

let server: TestServer;
let browser: Browser;
let org: TestOrg;

const profile = (method: 'GET' | 'PATCH', body?: unknown) =>
  server.request(method, '/sandbox/api/v1/seller-profile/', { key: org.sandbox.serverKey, ...(body === undefined ? {} : { body }) });

beforeAll(async () => {
  if (skipBrowserTests) return;
  server = await startTestServer();
  org = await server.createOrg('Demo');
  expect((await profile('PATCH', SAMPLE_PROFILE)).status).toBe(200);
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

/** The text of what describes a field: its hint and the API's refusal beside it. */
async function describedBy(page: Page, label: string): Promise<string> {
  const ids = (await page.getByLabel(label, { exact: true }).getAttribute('aria-describedby')) ?? '';
  const texts = await Promise.all(ids.split(' ').filter(Boolean).map((id) => page.locator(`[id="${id}"]`).textContent()));
  return texts.join(' ');
}

describe.skipIf(skipBrowserTests)("the seller profile's page", () => {
  it('lets the owner edit every part, shows a refused tax id beside its field, uploads a logo, and the API agrees', async () => {
    const owner = await signIn(server, browser, org.organizationId, 'owner');
    const { page } = owner;
    await menu(page, 'Settings');
    await page.getByRole('link', { name: 'Edit the seller profile' }).click();
    await expect.poll(() => page.textContent('h1')).toBe('Seller profile');
    const preview = page.locator('.invoice-preview');
    await expect.poll(() => preview.textContent()).toContain('Demo Software GmbH (sample data)');
    expect(await preview.textContent()).toContain('Tax ID DE123456788');

    await fill(page, 'Legal name', 'Acme Software GmbH');
    await fill(page, 'Street and number', 'Torstraße 1');
    await fill(page, 'Postal code', '10119');
    await press(page, 'Add a tax registration');
    await fill(page, 'Country of registration 2', 'GB');
    await fill(page, 'Tax ID 2', 'GB980780685');
    await fill(page, 'Invoice number prefix', 'ACME');
    await page.getByLabel('Language of documents').selectOption('de');
    await fill(page, 'Brand colour', '#1a7f5a');
    await press(page, 'Save the profile');
    // The refusal is beside the tax id it names, and nothing was saved.
    await expect.poll(() => page.getByLabel('Tax ID 2', { exact: true }).getAttribute('aria-invalid')).toBe('true');
    expect(await describedBy(page, 'Tax ID 2')).toMatch(/^"GB980780685" is not a valid tax id of GB \(/);
    expect((await profile('GET')).body.version).toBe(1);
    await checkPage(page, 'seller-profile-refused');

    await fill(page, 'Tax ID 2', 'GB 980 780 684');
    await press(page, 'Save the profile');
    await page.getByText('Saved: version 2.').waitFor();
    expect(await page.getByLabel('Tax ID 2', { exact: true }).getAttribute('aria-invalid')).toBeNull();

    // A logo is saved at once, and keeps the form's unsaved edits.
    await fill(page, 'Support page', 'https://acme.example/help');
    await page.getByLabel('Upload a logo').setInputFiles({ name: 'acme.png', mimeType: 'image/png', buffer: pngOf(120, 40, [26, 127, 90]) });
    await page.getByRole('img', { name: 'Your logo as it is now' }).waitFor();
    expect(await page.getByLabel('Support page', { exact: true }).inputValue()).toBe('https://acme.example/help');
    await press(page, 'Save the profile');
    await page.getByText('Saved: version 4.').waitFor();
    await expect.poll(() => page.locator('.invoice-preview img').evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(120);
    expect(await preview.textContent()).toContain('Tax ID GB980780684');
    expect(await preview.textContent()).toContain('ACME-');
    await checkPage(page, 'seller-profile');
    await page.setViewportSize({ width: 375, height: 900 });
    await checkPage(page, 'phone-seller-profile-edit', { docs: false });
    expect(owner.problems).toEqual([]);
    await owner.close();

    const saved = (await profile('GET')).body;
    expect(saved).toMatchObject({
      legalName: 'Acme Software GmbH',
      address: { line1: 'Torstraße 1', postalCode: '10119', city: 'Berlin', country: 'DE', line2: null, region: null },
      taxRegistrations: [expect.objectContaining({ country: 'DE', taxId: 'DE123456788' }), expect.objectContaining({ country: 'GB', taxId: 'GB980780684' })],
      invoicePrefix: 'ACME',
      defaultLanguage: 'de',
      brandColor: '#1A7F5A',
      supportUrl: 'https://acme.example/help',
      displayName: 'Demo Software',
      version: 4,
    });
    const logo = await fetch(saved.logoUrl);
    expect([logo.status, logo.headers.get('content-type')]).toEqual([200, 'image/png']);
  });

  it('shows a viewer, whom the server refuses, the same profile read-only on a 375 px phone', async () => {
    const viewer = await signIn(server, browser, org.organizationId, 'viewer', 375);
    const { page } = viewer;
    await page.goto(`${server.url}/dashboard/settings/profile`);
    await expect.poll(() => page.getByLabel('Legal name', { exact: true }).inputValue()).toBe('Acme Software GmbH');
    expect(await page.getByLabel('Legal name', { exact: true }).isDisabled()).toBe(true);
    expect(await page.getByRole('button', { name: 'Save the profile' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Add a tax registration' }).count()).toBe(0);
    await page.getByRole('img', { name: 'Your logo as it is now' }).waitFor();
    await checkPage(page, 'phone-seller-profile', { docs: false });
    expect(viewer.problems).toEqual([]);
    await viewer.close();
  });
});
