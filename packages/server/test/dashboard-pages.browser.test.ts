/**
 * The Customers, Catalog and Selling pages of the dashboard (issue 29) filled in: a customer's
 * timeline in words and its license keys, a machine freed after a confirmation, a product's images
 * and files; in Chromium at 1280 and 375 px, with axe.
 */
import { crc32, deflateSync } from 'node:zlib';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, openPage, skipBrowserTests } from './browser.js';
import { shop, type Shop } from './commerce-support.js';
import { checkPage, fill, press, signIn } from './dashboard-support.js';
import { startTestServer, uniqueId, type TestOrg, type TestServer } from './harness.js';
import { s3Storage } from './s3-standin.js';

let server: TestServer;
let browser: Browser;
let org: TestOrg;
let s: Shop;
let storage: Awaited<ReturnType<typeof s3Storage>>;

beforeAll(async () => {
  if (skipBrowserTests) return;
  // Files in a bucket (decision 0103): the pages upload to Billow, which keeps them in S3 and serves the images.
  storage = await s3Storage();
  server = await startTestServer({ env: storage.env });
  org = await server.createOrg('Pages Co');
  s = await shop(server, org.sandbox.serverKey, '/sandbox');
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
  await storage?.stop();
});

/** A PNG of one colour, `width` × `height`: a real picture, for the browser to draw. */
function png(width: number, height: number, [r, g, b]: [number, number, number]): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([length, body, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8);
  const row = Buffer.concat([Buffer.from([0]), Buffer.from(Array.from({ length: width }, () => [r, g, b]).flat())]);
  const pixels = deflateSync(Buffer.concat(Array.from({ length: height }, () => row)));
  return Buffer.concat([Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]), chunk('IHDR', header), chunk('IDAT', pixels), chunk('IEND', Buffer.alloc(0))]);
}

/** A signed-in page of a new member with `role`, at `width` px. */
const signedIn = (role: string, width = 1280) => signIn(server, browser, org.organizationId, role, width);

const WIRE_CODES = /\b(customer|order|subscription|invoice|payment_method|refund|credit_note)\.[a-z_]+\b/;

async function sectionText(page: Page, title: string): Promise<string> {
  return (await page.getByRole('region', { name: title, exact: true }).textContent()) ?? '';
}

describe.skipIf(skipBrowserTests)('the customer page', () => {
  it("shows the customer's timeline in words, newest first, and its license keys with their activations", async () => {
    const customerId = await s.customer();
    await s.card(customerId);
    const charge = await s.call('POST', '/charges/', { planIdentifier: s.plans.lifetime, chargePeriod: 'ONE_TIME', customerId });
    const key = (await s.call('GET', `/orders/${charge.body.orderId}/`)).body.license[0].licenseKey as string;
    for (const machine of ['Laptop', 'Desktop']) {
      const activated = await s.call('POST', '/license/activate/', { license_key: key, customer_id: customerId, instance_name: machine });
      expect(activated.status).toBe(201);
    }
    await s.call('POST', '/subscriptions/create/', { planIdentifier: s.plans.basic, chargePeriod: 'MONTHLY', customerId });

    const owner = await signedIn('owner');
    const { page } = owner;
    await page.goto(`${server.url}/dashboard/customers/${customerId}`);
    await page.getByRole('region', { name: 'Timeline' }).getByText('Subscription started').first().waitFor();
    const timeline = await sectionText(page, 'Timeline');
    for (const label of ['Customer created', 'Card added', 'Order placed', 'Invoice paid', 'Subscription started']) expect(timeline).toContain(label);
    expect(timeline.indexOf('Subscription started')).toBeLessThan(timeline.indexOf('Customer created'));
    // The license keys load on their own, apart from the timeline.
    await expect.poll(() => sectionText(page, 'License keys')).toContain('2 of 3');
    // Freeing a machine asks first, then the key is active on the other one only.
    await press(page, 'Free this machine (Desktop)');
    await page.getByRole('group', { name: 'Free Desktop?' }).waitFor();
    await checkPage(page, 'customer-free-machine');
    await press(page, 'Yes, free Desktop');
    await expect.poll(() => sectionText(page, 'License keys')).toContain('1 of 3');
    const licenses = await sectionText(page, 'License keys');
    expect(licenses).toContain(key);
    expect(licenses).toContain('Laptop');
    expect(licenses).not.toContain('Desktop');
    const [license] = (await s.call('GET', `/customers/${customerId}/licenses/`)).body.licenses;
    expect(license.instances.map((i: { name: string }) => i.name)).toEqual(['Laptop']);
    expect(await page.locator('main').textContent()).not.toMatch(WIRE_CODES);
    // The subscriptions' amounts as money: "$10.00", not "10.00 usd".
    const subscriptions = await sectionText(page, 'Subscriptions');
    expect(subscriptions).toMatch(/\$\d+\.\d\d/);
    expect(subscriptions).not.toMatch(/\d \s*(usd|USD)\b/);
    await checkPage(page, 'customer-timeline');
    expect(owner.problems).toEqual([]);
    await owner.close();

    const phone = await signedIn('viewer', 375);
    await phone.page.goto(`${server.url}/dashboard/customers/${customerId}`);
    await phone.page.getByRole('region', { name: 'Timeline' }).getByText('Subscription started').first().waitFor();
    // A viewer may not free a machine: no button, once the machine it would free is shown.
    await expect.poll(() => sectionText(phone.page, 'License keys')).toContain('Laptop');
    expect(await phone.page.getByRole('button', { name: /Free this machine/ }).count()).toBe(0);
    // On a phone the tables stack into "label: value" lines: no cell is cut off at the card's edge.
    const clipped = await phone.page.evaluate(() =>
      [...document.querySelectorAll('.table-wrap td')].filter((td) => td.getBoundingClientRect().right > td.closest('.card')!.getBoundingClientRect().right + 1).length,
    );
    expect(clipped).toBe(0);
    await checkPage(phone.page, 'phone-customer-timeline');
    expect(phone.problems).toEqual([]);
    await phone.close();
  });
});

describe.skipIf(skipBrowserTests)('promotions on the Selling page', () => {
  it('creates a promotion, refuses a bad one in place, pauses and ends it; support sees it without the buttons', async () => {
    const owner = await signedIn('owner');
    const { page } = owner;
    await page.goto(`${server.url}/dashboard/selling`);
    const section = page.getByRole('region', { name: 'Promotions by country' });
    await section.getByText('No promotions yet.').waitFor();
    const name = uniqueId('Fair prices');
    await fill(page, 'Promotion name', name);
    await fill(page, 'Coupon code', 'fair40');
    await fill(page, 'Percent off, price group 5', '150');
    await press(page, 'Create promotion');
    await expect.poll(async () => (await section.getByRole('alert').textContent()) ?? '').toMatch(/100/);
    await fill(page, 'Percent off, price group 5', '40');
    await fill(page, 'Percent off, price group 4', '25');
    await press(page, 'Create promotion');
    await section.getByRole('cell', { name, exact: true }).waitFor();
    const listed = (await s.call('GET', '/promotion-rules/')).body.results as Array<{ id: string; name: string; couponCode: string; pppDiscounts: Array<{ group: number; percentage: number }>; enabled: boolean }>;
    const made = listed.find((p) => p.name === name)!;
    expect(made.couponCode).toBe('FAIR40');
    expect(made.pppDiscounts).toEqual(expect.arrayContaining([{ group: 4, percentage: 25 }, { group: 5, percentage: 40 }]));
    expect(await sectionText(page, 'Promotions by country')).toContain('group 5: 40 %');
    await checkPage(page, 'selling-promotions');

    await press(page, `Pause ${name}`);
    await section.getByText('Paused').waitFor();
    expect((await s.call('GET', `/promotion-rules/${made.id}/`)).body.enabled).toBe(false);

    const support = await signedIn('support', 375);
    await support.page.goto(`${server.url}/dashboard/selling`);
    await support.page.getByRole('cell', { name, exact: true }).waitFor();
    expect(await support.page.getByRole('button', { name: `End ${name}` }).count()).toBe(0);
    expect(await support.page.getByRole('button', { name: 'Create promotion' }).count()).toBe(0);
    await checkPage(support.page, 'phone-selling-support', { docs: false });
    await support.close();

    await press(page, `End ${name}`);
    await section.getByText('No promotions yet.').waitFor();
    expect((await s.call('GET', `/promotion-rules/${made.id}/`)).body.archivedOn).not.toBeNull();
    const audit = (await s.call('GET', `/audit-log/?resource=${made.id}`)).body.results as Array<{ action: string; actorType: string }>;
    expect(audit.map((e) => e.action)).toEqual(['DELETE /api/v1/promotion-rules/:id/', 'PATCH /api/v1/promotion-rules/:id/', 'POST /api/v1/promotion-rules/']);
    expect(owner.problems).toEqual([]);
    await owner.close();
  });
});

describe.skipIf(skipBrowserTests)('the plan page', () => {
  it('shows who is on which version, links to them, edits the price of one currency at a time, and uploads a file to the draft', async () => {
    const plan = (await s.api.plan(s.product.id, { name: uniqueId('Studio') })).identifier as string;
    const monthly = (amount: number) => ({ priceType: 'PAID', chargeCatalogPrice: [{ charges: [{ chargePeriod: 'MONTHLY', priceData: { amount } }] }] });
    const subscribe = async () => {
      const customerId = await s.customer();
      await s.card(customerId);
      expect((await s.call('POST', '/subscriptions/create/', { planIdentifier: plan, chargePeriod: 'MONTHLY', customerId })).status).toBe(201);
    };
    await s.api.prices(plan, [{ ...monthly(10), currency: 'USD' }]);
    await s.api.publish(plan);
    await subscribe();
    await subscribe();
    await s.api.prices(plan, [{ ...monthly(15), currency: 'USD' }]);
    await s.api.publish(plan);
    await subscribe();

    const developer = await signedIn('developer');
    const { page } = developer;
    await page.goto(`${server.url}/dashboard/catalog/plans/${plan}`);
    const versions = page.getByRole('region', { name: 'Versions' });
    await versions.getByRole('link', { name: '2 subscriptions on version 1' }).waitFor();
    await versions.getByRole('link', { name: '1 subscription on version 2' }).waitFor();

    await fill(page, 'Currency', 'EUR');
    await fill(page, 'Amount', '13');
    await press(page, "Set the draft's price in this currency");
    const prices = page.getByRole('region', { name: 'Prices' });
    await prices.getByRole('cell', { name: 'EUR', exact: true }).waitFor();
    // Amounts through the dashboard's money formatter, never "15 USD".
    expect(await sectionText(page, 'Prices')).toContain('$15.00 a month');
    expect(await sectionText(page, 'Prices')).toContain('€13.00 a month');
    await fill(page, 'Currency', 'JPY');
    await fill(page, 'Amount', '10.5');
    await press(page, "Set the draft's price in this currency");
    await expect.poll(async () => (await prices.getByRole('alert').textContent()) ?? '').toMatch(/whole number in this currency/);
    expect(await page.locator('main').textContent()).not.toMatch(/\bPAID\b|\bMONTHLY\b/);
    await checkPage(page, 'plan-versions-prices');

    await press(page, 'Remove the price in EUR');
    await expect.poll(async () => await prices.getByRole('cell', { name: 'EUR', exact: true }).count()).toBe(0);
    const draft = (await s.call('GET', `/catalog/plans/${plan}/prices/`)).body.results as Array<{ currency: string }>;
    expect(draft.map((p) => p.currency)).toEqual(['USD']);
    await page.getByLabel('File', { exact: true }).setInputFiles({ name: 'terms.txt', mimeType: 'text/plain', buffer: Buffer.from('The terms of the plan.') });
    await press(page, 'Upload the file to the draft');
    await page.getByRole('region', { name: 'Downloadable files' }).getByRole('link', { name: 'terms.txt' }).waitFor();
    expect(await sectionText(page, 'Downloadable files')).toMatch(/Text.*22 bytes.*Yes/);
    expect((await s.call('GET', `/catalog/plans/${plan}/`)).body.files).toEqual([expect.objectContaining({ name: 'terms.txt', size: 22, contentType: 'text/plain' })]);

    await versions.getByRole('link', { name: '2 subscriptions on version 1' }).click();
    await page.waitForURL(/\/dashboard\/subscriptions\?/);
    const table = page.getByRole('region', { name: 'Subscriptions table' });
    await expect.poll(async () => await table.locator('tbody tr').count()).toBe(2);
    expect(await table.textContent()).toMatch(/v1.*v1/);
    expect(await table.textContent()).not.toContain('v2');
    await checkPage(page, 'subscriptions-of-version', { docs: false });
    expect(developer.problems).toEqual([]);
    await developer.close();

    const phone = await signedIn('viewer', 375);
    await phone.page.goto(`${server.url}/dashboard/catalog/plans/${plan}`);
    await phone.page.getByRole('region', { name: 'Versions' }).getByRole('link', { name: '2 subscriptions on version 1' }).waitFor();
    expect(await phone.page.getByRole('button', { name: /Remove/ }).count()).toBe(0);
    await checkPage(phone.page, 'phone-plan', { docs: false });
    await phone.close();
  });
});

describe.skipIf(skipBrowserTests)('the product page', () => {
  it("uploads a product's images and files through Billow, shows their thumbnails and sizes, and refuses a picture it may not take", async () => {
    const developer = await signedIn('developer');
    const { page } = developer;
    await page.goto(`${server.url}/dashboard/catalog`);
    await page.getByRole('link', { name: s.product.name, exact: true }).click();
    const images = page.getByRole('region', { name: 'Images' });
    await images.getByText('No images yet.').waitFor();

    const upload = async (label: string, button: string, file: { name: string; mimeType: string; buffer: Buffer }) => {
      await page.getByLabel(label, { exact: true }).setInputFiles(file);
      await press(page, button);
    };
    await upload('Image', 'Upload the image', { name: 'script.svg', mimeType: 'image/svg+xml', buffer: Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>') });
    await expect.poll(async () => (await images.getByRole('alert').textContent()) ?? '').toMatch(/must be a PNG, JPEG, GIF, WebP or AVIF/);
    await upload('Image', 'Upload the image', { name: 'box-shot.png', mimeType: 'image/png', buffer: png(160, 120, [37, 99, 235]) });
    await images.getByRole('img', { name: 'box-shot.png' }).waitFor();
    await upload('Image', 'Upload the image', { name: 'screen.png', mimeType: 'image/png', buffer: png(160, 120, [22, 163, 74]) });
    await images.getByRole('img', { name: 'screen.png' }).waitFor();
    await page.getByLabel('Description', { exact: true }).first().fill('The boxed app, in blue');
    await press(page, 'Save the description of box-shot.png');
    await images.getByRole('img', { name: 'The boxed app, in blue' }).waitFor();
    await press(page, 'Make main image (screen.png)');
    await images.getByRole('button', { name: 'Make main image (The boxed app, in blue)' }).waitFor();
    await press(page, 'Move earlier (screen.png)');
    const shown = images.getByRole('img');
    await expect.poll(async () => await shown.evaluateAll((imgs) => imgs.map((i) => `${(i as HTMLImageElement).alt}:${(i as HTMLImageElement).naturalWidth}`))).toEqual(['screen.png:160', 'The boxed app, in blue:160']);
    expect(await images.locator('li').first().textContent()).toMatch(/Main image.*PNG image, [\d.]+ (bytes|KB)/);

    const manual = Buffer.from(`%PDF-1.4 ${'the manual '.repeat(300)}`);
    await upload('File', 'Upload the file', { name: 'manual.pdf', mimeType: 'application/pdf', buffer: manual });
    const files = page.getByRole('region', { name: 'Downloadable files' });
    await files.getByRole('link', { name: 'manual.pdf' }).waitFor();
    expect(await sectionText(page, 'Downloadable files')).toMatch(/PDF document.*3\.2 KB.*Yes/);
    // Downloads turned off and on again from the table: PATCH …/file/{id}/ {enabled}.
    const fileOf = async () => ((await s.call('GET', `/catalog/products/${s.product.id}/`)).body as { files: Array<{ enabled: boolean; downloadUrl: string }> }).files[0]!;
    await press(page, 'Turn off downloads of manual.pdf');
    await expect.poll(async () => await sectionText(page, 'Downloadable files')).toMatch(/Turned off.*Turn on/);
    const off = await fileOf();
    expect(off.enabled).toBe(false);
    expect((await fetch(off.downloadUrl, { redirect: 'manual' })).status).toBe(404);
    await press(page, 'Turn on downloads of manual.pdf');
    await expect.poll(async () => await sectionText(page, 'Downloadable files')).toMatch(/Yes.*Turn off/);
    expect((await fileOf()).enabled).toBe(true);
    expect((await fetch((await fileOf()).downloadUrl, { redirect: 'manual' })).status).toBe(302);
    const product = (await s.call('GET', `/catalog/products/${s.product.id}/`)).body as { images: Array<{ id: string; name: string; thumbnail: boolean; ordering: number }>; files: Array<{ name: string; size: number }> };
    expect(product.images.sort((a, b) => a.ordering - b.ordering).map((i) => [i.name, i.thumbnail])).toEqual([['screen.png', true], ['The boxed app, in blue', false]]);
    expect(product.files).toEqual([expect.objectContaining({ name: 'manual.pdf', size: manual.length })]);
    const kept = [...storage.bucket.objects.keys()];
    expect(kept.filter((key) => key.startsWith('public/') && /\/(screen|box-shot)\.png$/.test(key))).toHaveLength(2);
    expect(kept.some((key) => key.startsWith('private/') && key.endsWith('/manual.pdf'))).toBe(true);
    expect(await page.locator('main').textContent()).not.toMatch(/application\/pdf|image\/png/);
    await checkPage(page, 'product-media');

    await press(page, 'Remove The boxed app, in blue');
    await expect.poll(async () => await shown.count()).toBe(1);
    expect(developer.problems).toEqual([]);
    await developer.close();

    // The buyer's checkout shows the main image, from Billow's own origin, its description escaped.
    const main = product.images.find((i) => i.thumbnail)!;
    const alt = 'Screen "one" <b>& more</b>';
    expect((await s.call('PATCH', `/catalog/products/${s.product.id}/image/${main.id}/`, { name: alt })).status).toBe(200);
    const session = await s.call('POST', '/checkout/', { planIdentifier: s.plans.basic, chargePeriod: 'MONTHLY', successUrl: `${server.url}/` });
    expect(session.status, session.text).toBe(201);
    const markup = await (await fetch(session.body.checkoutUrl)).text();
    expect(markup).toContain('alt="Screen &quot;one&quot; &lt;b&gt;&amp; more&lt;/b&gt;"');
    const buyer = await openPage(browser, { width: 375, height: 800 });
    await buyer.page.goto(session.body.checkoutUrl);
    const picture = buyer.page.getByRole('img', { name: alt });
    await expect.poll(async () => await picture.evaluate((i) => (i as HTMLImageElement).naturalWidth)).toBe(160);
    expect(await picture.getAttribute('src')).toMatch(/^\/media\/public\//);
    await checkPage(buyer.page, 'checkout-product-image', { docs: false });
    expect(buyer.problems).toEqual([]);
    await buyer.close();

    const phone = await signedIn('viewer', 375);
    await phone.page.goto(`${server.url}/dashboard/catalog/products/${s.product.id}`);
    await phone.page.getByRole('img', { name: alt }).waitFor();
    expect(await phone.page.getByRole('button', { name: /Remove|Upload/ }).count()).toBe(0);
    await checkPage(phone.page, 'phone-product-media', { docs: false });
    expect(phone.problems).toEqual([]);
    await phone.close();
    const editing = await signedIn('developer', 375);
    await editing.page.goto(`${server.url}/dashboard/catalog/products/${s.product.id}`);
    await editing.page.getByRole('button', { name: 'Upload the file' }).waitFor();
    await checkPage(editing.page, 'phone-product-media-editing', { docs: false });
    await editing.close();
  });
});

describe.skipIf(skipBrowserTests)('the payments tab', () => {
  it('renames a feature in place (its identifier and type stay), refuses an empty name in place; a viewer sees no button', async () => {
    const identifier = uniqueId('exports');
    expect((await s.call('POST', '/catalog/features/', { name: 'Exports', identifier, featureType: 'BOOLEAN' })).status).toBe(201);
    const { page } = await signedIn('developer');
    await page.goto(`${server.url}/dashboard/catalog`);
    const features = page.getByRole('table', { name: 'Features' });
    const row = features.getByRole('row').filter({ hasText: identifier });
    await expect.poll(async () => (await row.textContent()) ?? '').toContain('On or off');
    await press(page, 'Rename Exports');
    const form = page.getByRole('form', { name: 'Rename the feature Exports' });
    await form.getByLabel('Feature name').fill('  ');
    await press(page, 'Save the name');
    await expect.poll(async () => (await form.getByRole('alert').textContent()) ?? '').toMatch(/name/);
    expect((await s.call('GET', `/catalog/features/${identifier}/`)).body.name).toBe('Exports');
    await form.getByLabel('Feature name').fill('Data exports');
    await press(page, 'Save the name');
    await expect.poll(async () => (await row.textContent()) ?? '').toContain('Data exports');
    expect((await s.call('GET', `/catalog/features/${identifier}/`)).body).toMatchObject({ identifier, name: 'Data exports', featureType: 'BOOLEAN' });
    await checkPage(page, 'catalog-feature-renamed');

    const viewer = await signedIn('viewer');
    await viewer.page.goto(`${server.url}/dashboard/catalog`);
    await expect.poll(async () => (await viewer.page.getByRole('table', { name: 'Features' }).textContent()) ?? '').toContain('Data exports');
    expect(await viewer.page.getByRole('button', { name: 'Rename Data exports' }).count()).toBe(0);
  });

  it("shows a product's prices as a buyer of a chosen country sees them: the promotion's price beside the list price", async () => {
    const made = await s.call('POST', '/promotion-rules/', { name: 'India launch', productId: s.product.id, planIdentifiers: [s.plans.basic], countryOverrides: [{ countryCode: 'IN', percentage: 40 }] });
    expect(made.status, made.text).toBe(201);
    const { page } = await signedIn('viewer');
    await page.goto(`${server.url}/dashboard/catalog/products/${s.product.id}`);
    await page.getByLabel("Buyer's country").selectOption('IN');
    const prices = page.getByRole('table', { name: 'Prices in India' });
    const basic = prices.getByRole('row').filter({ hasText: 'Basic' });
    await expect.poll(async () => (await basic.textContent()) ?? '').toContain('$6.00 a month');
    expect(await basic.textContent()).toContain('$10.00 a month');
    expect(await prices.getByRole('row').filter({ hasText: 'Pro' }).first().textContent()).toContain('$20.00 a month');
    await page.getByText('Buyers in India pay in USD').waitFor();
    await checkPage(page, 'product-prices-by-country');
    await page.getByLabel("Buyer's country").selectOption('DE');
    await expect.poll(async () => (await page.getByRole('table', { name: 'Prices in Germany' }).getByRole('row').filter({ hasText: 'Basic' }).textContent()) ?? '').toContain('$10.00 a month');
    expect((await s.call('DELETE', `/promotion-rules/${made.body.id}/`)).status).toBe(204);
  });

  it('lists payments and refunds in words with their fee, tax and net, searched and filtered by outcome', async () => {
    const customerId = await s.customer({ name: 'Pat Payer' });
    await s.card(customerId);
    const sold = await s.call('POST', '/subscriptions/create/', { planIdentifier: s.plans.basic, chargePeriod: 'MONTHLY', customerId });
    expect(sold.status, sold.text).toBe(201);
    const orders = await s.call('GET', `/orders/?customer_id=${customerId}`);
    const orderId = orders.body.results[0].id as string;
    const refund = await s.call('POST', '/refunds/', { orderId, amountUnits: 300 });
    expect(refund.status, refund.text).toBe(200);

    const { page } = await signedIn('viewer');
    await page.goto(`${server.url}/dashboard/orders?tab=payments`);
    const table = page.getByRole('table', { name: 'Payments and refunds' });
    await expect.poll(() => table.getByRole('row').count()).toBeGreaterThanOrEqual(3);
    await fill(page, 'Search payments (email, customer id, order id or card)', customerId);
    await press(page, 'Search');
    await expect.poll(() => table.getByRole('row').count()).toBe(3);
    const rows = (await table.getByRole('row').allTextContents()).slice(1);
    expect(rows[0]).toMatch(/Refund.*-\$3\.00.*Succeeded/);
    expect(rows[1]).toMatch(/Payment.*Visa ending 4242.*\$10\.00.*Succeeded/);
    expect(rows.join(' ')).not.toMatch(/CHARGE|REFUND|success\b/);
    await page.getByLabel('Outcome', { exact: true }).selectOption('failure');
    await expect.poll(() => page.textContent('main')).toContain('No payment matches.');
    await page.getByLabel('Outcome', { exact: true }).selectOption('success');
    await expect.poll(() => table.getByRole('row').count()).toBe(3);
    await checkPage(page, 'orders-payments');
  });
});
