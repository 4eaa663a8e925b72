import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { catalogClient, monthly } from './catalog-support.js';
import { shop } from './commerce-support.js';
import { startTestServer, type TestOrg, type TestServer } from './harness.js';
import { signedInMember } from './accounts-support.js';

let server: TestServer;
let org: TestOrg;
let api: ReturnType<typeof catalogClient>;
let storageDir: string;

beforeAll(async () => {
  storageDir = fs.mkdtempSync(path.join(os.tmpdir(), 'billow-catalog-media-'));
  server = await startTestServer({ env: { BILLOW_STORAGE_DIR: storageDir } });
  org = await server.createOrg();
  api = catalogClient(server, org.production.serverKey);
});
afterAll(async () => {
  await server.close();
  fs.rmSync(storageDir, { recursive: true, force: true });
});

/** What a seller's browser does: ask for an upload, then post the file with the fields it got. */
async function uploadFile(fileName: string, fileType: string, bytes: Uint8Array, client = api): Promise<string> {
  const presigned = await client.call('POST', '/media/', { fileName, fileType });
  expect(presigned.status).toBe(200);
  expect(presigned.body.fileKey).toMatch(new RegExp(`^tmp/[0-9a-f-]{36}/${fileName.replace('.', '\\.')}$`));
  const form = new FormData();
  for (const [name, value] of Object.entries(presigned.body.fields as Record<string, string>)) form.append(name, value);
  form.append('file', new Blob([bytes], { type: fileType }), fileName);
  const uploaded = await fetch(presigned.body.url, { method: 'POST', body: form });
  expect(uploaded.status).toBe(204);
  return presigned.body.fileKey;
}

const storedFiles = (): string[] =>
  fs.existsSync(path.join(storageDir, 'objects'))
    ? (fs.readdirSync(path.join(storageDir, 'objects'), { recursive: true }) as string[]).filter((f) =>
        fs.statSync(path.join(storageDir, 'objects', f)).isFile(),
      )
    : [];

describe('media in the catalog, end to end', () => {
  it('attaches product images, serves them publicly, and deletes one for good', async () => {
    const logo = randomBytes(300);
    const hero = randomBytes(200);
    const logoKey = await uploadFile('logo.png', 'image/png', logo);
    const heroKey = await uploadFile('hero.jpg', 'image/jpeg', hero);
    const created = await api.call('POST', '/catalog/products/', { name: 'Pictured', taxCode: 'software', imageKeys: [logoKey] });
    expect(created.status).toBe(201);
    expect(created.body.images).toHaveLength(1);
    expect(created.body.images[0]).toMatchObject({ name: 'logo.png', thumbnail: true, enabled: true, ordering: 0 });

    const appended = await api.call('PATCH', `/catalog/products/${created.body.id}/`, { imageKeys: [heroKey] });
    expect(appended.body.images.map((i: any) => [i.name, i.thumbnail])).toEqual([
      ['logo.png', true],
      ['hero.jpg', false],
    ]);
    const served = await fetch(appended.body.images[0].image);
    expect(served.status).toBe(200);
    expect(Buffer.from(await served.arrayBuffer()).equals(logo)).toBe(true);

    const reused = await api.call('PATCH', `/catalog/products/${created.body.id}/`, { imageKeys: [heroKey] });
    expect(reused.status).toBe(400);
    expect(reused.body.detail).toContain(heroKey);

    const [logoImage, heroImage] = appended.body.images;
    const thumb = await api.call('PATCH', `/catalog/products/${created.body.id}/image/${heroImage.id}/`, { thumbnail: true, name: 'Hero' });
    expect(thumb.body).toMatchObject({ thumbnail: true, name: 'Hero' });
    const after = await api.call('GET', `/catalog/products/${created.body.id}/`);
    expect(after.body.images.filter((i: any) => i.thumbnail).map((i: any) => i.id)).toEqual([heroImage.id]);

    const filesBefore = storedFiles().length;
    expect((await api.call('DELETE', `/catalog/products/${created.body.id}/image/${logoImage.id}/`)).status).toBe(204);
    expect(storedFiles().length).toBe(filesBefore - 1);
    expect((await fetch(logoImage.image)).status).toBe(404);
    expect((await api.call('DELETE', `/catalog/products/${created.body.id}/image/${logoImage.id}/`)).status).toBe(404);
    expect((await api.call('GET', `/catalog/products/${created.body.id}/`)).body.images).toHaveLength(1);
  });

  it("shows the product's image and file by their full URLs in the orders, transactions and refunds that embed it", async () => {
    const s = await shop(server, org.sandbox.serverKey);
    const imageKey = await uploadFile('box.png', 'image/png', randomBytes(100), s.api);
    const fileKey = await uploadFile('manual.pdf', 'application/pdf', randomBytes(100), s.api);
    const product = await s.api.call('PATCH', `/catalog/products/${s.product.id}/`, { imageKeys: [imageKey], fileKeys: [fileKey] });
    expect(product.status).toBe(200);
    const [image, file] = [product.body.images[0].image, product.body.files[0].downloadUrl];
    expect([image, file]).toEqual([expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\/media\/public\//), expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\/sandbox\/api\/v1\//)]);

    const customerId = await s.customer();
    await s.card(customerId);
    const charge = await s.call('POST', '/charges/', { planIdentifier: s.plans.lifetime, chargePeriod: 'ONE_TIME', customerId });
    expect(charge.status).toBe(201);
    const orders = await s.call('GET', `/orders/?customer_id=${customerId}`);
    const order = orders.body.results[0];
    const refund = await s.call('POST', '/refunds/', { orderId: order.id, amountUnits: 100 });
    const transactions = await s.call('GET', `/transaction/?customer_id=${customerId}`);
    for (const embedded of [order.product, refund.body.order.product, transactions.body.results[0].order.product]) {
      expect([embedded.images[0].image, embedded.files[0].downloadUrl]).toEqual([image, file]);
    }
  });

  it('refuses more than ten images, and unknown keys, changing nothing', async () => {
    const product = await api.product();
    const keys = [];
    for (let i = 0; i < 11; i++) keys.push(await uploadFile(`p${i}.png`, 'image/png', randomBytes(10)));
    const tooMany = await api.call('PATCH', `/catalog/products/${product.id}/`, { imageKeys: keys });
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.detail).toMatch(/imageKeys/);
    const unknown = await api.call('PATCH', `/catalog/products/${product.id}/`, { imageKeys: ['tmp/00000000-0000-4000-8000-000000000000/x.png'] });
    expect(unknown.status).toBe(400);
    expect((await api.call('GET', `/catalog/products/${product.id}/`)).body.images).toEqual([]);
  });

  it('attaches plan files, downloads them without a key through a short-lived link, and keeps them for published versions', async () => {
    const product = await api.product();
    const terms = Buffer.from('%PDF-1.4 the terms of the plan');
    const termsKey = await uploadFile('terms.pdf', 'application/pdf', terms);
    const plan = await api.plan(product.id, {
      fileKeys: [termsKey],
      links: [{ name: 'Guide', url: 'https://example.test/guide' }],
      license: { enabled: true, activationLimit: 3, activationLimitEnabled: true, durationUnit: 'YEAR', durationValue: 1, hasExpiry: true },
    });
    expect(plan.files).toHaveLength(1);
    const file = plan.files[0];
    expect(file.downloadUrl).toBe(`${server.url}/api/v1/catalog/plans/${plan.identifier}/file/${file.id}/download/`);
    expect(plan.license).toMatchObject({ activationLimit: 3, durationUnit: 'YEAR' });

    const redirect = await fetch(file.downloadUrl, { redirect: 'manual' });
    expect(redirect.status).toBe(302);
    const download = await fetch(redirect.headers.get('location')!);
    expect(download.status).toBe(200);
    expect(download.headers.get('content-disposition')).toMatch(/attachment; filename="?terms\.pdf/);
    expect(Buffer.from(await download.arrayBuffer()).equals(terms)).toBe(true);
    expect((await fetch(`${server.url}/sandbox/api/v1/catalog/plans/${plan.identifier}/file/${file.id}/download/`, { redirect: 'manual' })).status).toBe(404);

    await api.prices(plan.identifier, [monthly(10)]);
    await api.publish(plan.identifier);
    const renamed = await api.call('PATCH', `/catalog/plans/${plan.identifier}/file/${file.id}/`, { name: 'Terms.pdf', ordering: 2 });
    expect(renamed.status).toBe(200);
    expect(renamed.body).toMatchObject({ id: file.id, name: 'Terms.pdf', ordering: 2 });
    expect((await api.call('GET', `/catalog/plans/${plan.identifier}/`)).body.version).toBe(2);
    expect((await api.call('GET', `/catalog/plans/${plan.identifier}/?version=1`)).body.files[0].name).toBe('terms.pdf');

    const stored = storedFiles().length;
    expect((await api.call('DELETE', `/catalog/plans/${plan.identifier}/file/${file.id}/`)).status).toBe(204);
    expect((await api.call('GET', `/catalog/plans/${plan.identifier}/`)).body.files).toEqual([]);
    expect(storedFiles().length).toBe(stored);
    expect((await api.call('GET', `/catalog/plans/${plan.identifier}/?version=1`)).body.files).toHaveLength(1);

    expect((await api.call('DELETE', `/catalog/plans/${plan.identifier}/discard/`)).status).toBe(204);
    const again = await fetch(file.downloadUrl, { redirect: 'manual' });
    expect(again.status).toBe(302);
  });

  it('attaches product files with fileKeys on PATCH, as the reference accepts, and downloads them without a key', async () => {
    const product = await api.product();
    const guide = Buffer.from('%PDF-1.4 the getting started guide');
    const guideKey = await uploadFile('guide.pdf', 'application/pdf', guide);
    const updated = await api.call('PATCH', `/catalog/products/${product.id}/`, { description: 'With a guide', fileKeys: [guideKey] });
    expect(updated.status).toBe(200);
    expect(updated.body.description).toBe('With a guide');
    expect(updated.body.files).toHaveLength(1);
    const file = updated.body.files[0];
    expect(file).toMatchObject({ name: 'guide.pdf', ordering: 0, enabled: true });
    expect(file.downloadUrl).toBe(`${server.url}/api/v1/catalog/products/${product.id}/file/${file.id}/download/`);
    expect((await api.call('GET', `/catalog/products/${product.id}/`)).body.files).toEqual([file]);

    const redirect = await fetch(file.downloadUrl, { redirect: 'manual' });
    expect(redirect.status).toBe(302);
    const download = await fetch(redirect.headers.get('location')!);
    expect(Buffer.from(await download.arrayBuffer()).equals(guide)).toBe(true);
    expect((await fetch(`${server.url}/sandbox/api/v1/catalog/products/${product.id}/file/${file.id}/download/`, { redirect: 'manual' })).status).toBe(404);

    const unknown = await api.call('PATCH', `/catalog/products/${product.id}/`, { name: 'Renamed', fileKeys: ['tmp/00000000-0000-4000-8000-000000000000/x.pdf'] });
    expect(unknown.status).toBe(400);
    const after = await api.call('GET', `/catalog/products/${product.id}/`);
    expect(after.body.files).toEqual([file]);
    expect(after.body.name).not.toBe('Renamed');
  });

  it('deletes the stored bytes when the only version holding a file lets it go', async () => {
    const product = await api.product();
    const key = await uploadFile('notes.txt', 'text/plain', Buffer.from('draft notes'));
    const plan = await api.plan(product.id, { fileKeys: [key] });
    const stored = storedFiles().length;
    expect((await api.call('DELETE', `/catalog/plans/${plan.identifier}/file/${plan.files[0].id}/`)).status).toBe(204);
    expect(storedFiles().length).toBe(stored - 1);
    expect((await fetch(plan.files[0].downloadUrl, { redirect: 'manual' })).status).toBe(404);
  });

  it('takes only pictures of at most 10 MB as product images, refusing others in words and leaving the upload usable', async () => {
    const product = await api.product();
    const svgKey = await uploadFile('logo.svg', 'image/svg+xml', Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'));
    const svg = await api.call('PATCH', `/catalog/products/${product.id}/`, { imageKeys: [svgKey] });
    expect(svg.status).toBe(400);
    expect(svg.body).toMatchObject({ code: 'unsupported_file_type', detail: expect.stringContaining('is of type image/svg+xml: a product image must be a PNG, JPEG, GIF, WebP or AVIF') });
    const big = await uploadFile('huge.png', 'image/png', Buffer.alloc(10 * 1024 * 1024 + 1));
    const tooBig = await api.call('POST', '/catalog/products/', { name: 'Too big', taxCode: 'saas', imageKeys: [big] });
    expect(tooBig.status).toBe(400);
    expect(tooBig.body).toMatchObject({ code: 'file_too_large', detail: expect.stringContaining('over the limit of 10485760 bytes') });
    expect((await api.call('GET', `/catalog/products/${product.id}/`)).body.images).toEqual([]);
    // Refused before it was copied: the same upload is still good as a downloadable file, which may be of any type.
    const asFile = await api.call('PATCH', `/catalog/products/${product.id}/`, { fileKeys: [svgKey] });
    expect(asFile.status, asFile.text).toBe(200);
    expect(asFile.body.files[0]).toMatchObject({ name: 'logo.svg', contentType: 'image/svg+xml', size: 71 });
  });

  it("renames, turns off and deletes a product's file (Billow extensions), for the roles that may change the catalog", async () => {
    const product = await api.product();
    const manual = Buffer.from('%PDF-1.4 the manual');
    const updated = await api.call('PATCH', `/catalog/products/${product.id}/`, { fileKeys: [await uploadFile('manual.pdf', 'application/pdf', manual)] });
    const file = updated.body.files[0];
    expect(file).toMatchObject({ name: 'manual.pdf', size: manual.length, contentType: 'application/pdf', enabled: true });
    const path = `/api/v1/catalog/products/${product.id}/file/${file.id}/`;

    const renamed = await api.call('PATCH', `/catalog/products/${product.id}/file/${file.id}/`, { name: '  Manual (v2).pdf ', enabled: false });
    expect(renamed.status, renamed.text).toBe(200);
    expect(renamed.body).toMatchObject({ id: file.id, name: 'Manual (v2).pdf', enabled: false, size: manual.length });
    expect((await fetch(file.downloadUrl, { redirect: 'manual' })).status).toBe(404);
    expect((await api.call('PATCH', `/catalog/products/${product.id}/file/${file.id}/`, { name: ' ' })).status).toBe(400);

    const support = await signedInMember(server, org, 'support');
    const refused = await support.api('DELETE', path);
    expect(refused.status).toBe(403);
    expect(refused.body.detail).toMatch(/support role may not change the catalog/);

    const stored = storedFiles().length;
    const developer = await signedInMember(server, org, 'developer');
    expect((await developer.api('DELETE', path)).status).toBe(204);
    expect(storedFiles().length).toBe(stored - 1);
    expect((await api.call('GET', `/catalog/products/${product.id}/`)).body.files).toEqual([]);
    expect((await developer.api('DELETE', path)).status).toBe(404);
    expect((await developer.api('DELETE', `/sandbox${path}`)).status).toBe(404);

    const owner = await signedInMember(server, org, 'owner');
    const log = await owner.api('GET', `/api/v1/audit-log/?actorId=${developer.userId}`);
    expect(log.body.results).toEqual([
      expect.objectContaining({ action: 'DELETE /api/v1/catalog/products/:product_pk/file/:pk/', resourceId: file.id, actorType: 'user' }),
    ]);
  });
});
