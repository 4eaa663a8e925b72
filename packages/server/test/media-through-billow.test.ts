/**
 * Files sent to Billow itself (POST /media/upload/, decision 0103) and public images served
 * by Billow from whichever storage keeps them: on local disk and in an S3 bucket (a stand-in),
 * with a key and with a dashboard session; the checkout's image from the bucket; and the
 * presigned form of POST /media/ to the bucket, unchanged.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.js';
import { dashboardCsp } from '../src/modules/dashboard-app/routes.js';
import { signedInMember } from './accounts-support.js';
import { shop, type Shop } from './commerce-support.js';
import { startTestServer, type TestOrg, type TestServer } from './harness.js';
import { s3Storage, type S3Standin } from './s3-standin.js';

const MAX_BYTES = 8192;

interface Storage {
  name: string;
  start(): Promise<{ env: Record<string, string>; stop(): Promise<void>; bucket?: S3Standin }>;
}

const storages: Storage[] = [
  {
    name: 'local disk',
    async start() {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'billow-media-through-'));
      return { env: { BILLOW_STORAGE_DIR: dir }, stop: async () => fs.rmSync(dir, { recursive: true, force: true }) };
    },
  },
  { name: 'an S3 bucket', start: s3Storage },
];

/** A multipart body of `file` (and any other fields first). */
function fileForm(bytes: Uint8Array, fileName: string, type: string, fields: Record<string, string> = {}): FormData {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  form.append('file', new Blob([bytes], { type }), fileName);
  return form;
}

describe.each(storages)('files through Billow, kept on $name', (storage) => {
  let server: TestServer;
  let org: TestOrg;
  let s: Shop;
  let stop: () => Promise<void>;
  let bucket: S3Standin | undefined;

  beforeAll(async () => {
    const started = await storage.start();
    stop = started.stop;
    bucket = started.bucket;
    server = await startTestServer({ env: { ...started.env, BILLOW_MEDIA_MAX_BYTES: String(MAX_BYTES) } });
    org = await server.createOrg();
    s = await shop(server, org.sandbox.serverKey, '/sandbox');
  });
  afterAll(async () => {
    await server?.close();
    await stop?.();
  });

  const send = (body: BodyInit, headers: Record<string, string> = { authorization: `Bearer ${org.sandbox.serverKey}` }) =>
    fetch(`${server.url}/sandbox/api/v1/media/upload/`, { method: 'POST', body, headers });

  it('receives a file, attaches it as an image, serves it with an ETag, and shows it at checkout', async () => {
    const bytes = randomBytes(1500);
    const res = await send(fileForm(bytes, 'box shot.png', 'image/png'));
    const received = (await res.json()) as { fileKey: string; fileName: string; fileType: string; size: number };
    expect(res.status, JSON.stringify(received)).toBe(201);
    expect(received).toEqual({ fileKey: expect.stringMatching(/^tmp\/[0-9a-f-]{36}\/box shot\.png$/), fileName: 'box shot.png', fileType: 'image/png', size: 1500 });
    if (bucket) expect(bucket.objects.get(received.fileKey)).toMatchObject({ contentType: 'image/png', body: bytes });

    const product = await s.call('PATCH', `/catalog/products/${s.product.id}/`, { imageKeys: [received.fileKey] });
    expect(product.status, product.text).toBe(200);
    const image = product.body.images.at(-1) as { image: string; size: number; contentType: string };
    expect(image).toMatchObject({ size: 1500, contentType: 'image/png' });
    expect(image.image.startsWith(`${server.url}/media/public/`)).toBe(true);

    const served = await fetch(image.image);
    expect(served.status).toBe(200);
    expect(Buffer.from(await served.arrayBuffer()).equals(bytes)).toBe(true);
    expect(served.headers.get('content-type')).toBe('image/png');
    expect(served.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(served.headers.get('x-content-type-options')).toBe('nosniff');
    const etag = served.headers.get('etag');
    expect(etag).toMatch(/^"[^"]+"$/);
    const again = await fetch(image.image, { headers: { 'if-none-match': etag! } });
    expect(again.status).toBe(304);
    expect(await again.text()).toBe('');
    const changed = await fetch(image.image, { headers: { 'if-none-match': '"something-else"' } });
    expect(changed.status).toBe(200);
    await changed.arrayBuffer();
    expect((await fetch(`${image.image}.missing`)).status).toBe(404);
    // HEAD answers the headers from storage's metadata; the bytes are not read.
    const gets = bucket ? bucket.requests.filter((r) => r.startsWith('GET')).length : 0;
    const head = await fetch(image.image, { method: 'HEAD' });
    expect([head.status, head.headers.get('content-length'), head.headers.get('etag'), head.headers.get('content-type')]).toEqual([200, '1500', etag, 'image/png']);
    if (bucket) expect(bucket.requests.filter((r) => r.startsWith('GET')).length).toBe(gets);

    // The buyer's checkout names the image on Billow's own origin, which its img-src 'self' allows.
    const session = await s.call('POST', '/checkout/', { planIdentifier: s.plans.basic, chargePeriod: 'MONTHLY', successUrl: `${server.url}/` });
    expect(session.status, session.text).toBe(201);
    const page = await fetch(session.body.checkoutUrl);
    expect(page.headers.get('content-security-policy')).toContain("img-src 'self' data:;");
    const src = /<img[^>]* src="(\/media\/public\/[^"]+)"/.exec(await page.text())?.[1];
    expect(src).toBeDefined();
    const shown = await fetch(`${server.url}${src!.replace(/&amp;/g, '&')}`);
    expect(shown.status).toBe(200);
    expect(Buffer.from(await shown.arrayBuffer()).equals(bytes)).toBe(true);
  });

  it("takes the dashboard's session within the member's role, as every API call does", async () => {
    const developer = await signedInMember(server, org, 'developer');
    const headers = (who: typeof developer, csrf = true) => ({
      cookie: who.cookie,
      'x-billow-organization': org.organizationId,
      ...(csrf ? { 'x-csrf-token': who.csrfToken } : {}),
    });
    const res = await send(fileForm(Buffer.from('%PDF-1.4 manual'), 'manual.pdf', 'application/pdf'), headers(developer));
    expect(res.status).toBe(201);
    const { fileKey } = (await res.json()) as { fileKey: string };
    const attached = await s.call('PATCH', `/catalog/products/${s.product.id}/`, { fileKeys: [fileKey] });
    expect(attached.status, attached.text).toBe(200);
    expect(attached.body.files.at(-1)).toMatchObject({ name: 'manual.pdf', size: 15, contentType: 'application/pdf' });

    const viewer = await signedInMember(server, org, 'viewer');
    const refused = await send(fileForm(Buffer.from('x'), 'x.txt', 'text/plain'), headers(viewer));
    expect(refused.status).toBe(403);
    expect(((await refused.json()) as { detail: string }).detail).toMatch(/viewer role may not change webhooks, test clocks or uploads/);
    expect((await send(fileForm(Buffer.from('x'), 'x.txt', 'text/plain'), headers(developer, false))).status).toBe(401);
    const audit = await s.call('GET', '/audit-log/', undefined);
    expect(JSON.stringify(audit.body)).toContain('/media/upload/');
  });

  it('refuses a file over the limit, keeping nothing, and forms that are not one file', async () => {
    const before = bucket ? bucket.objects.size : 0;
    const large = await send(fileForm(randomBytes(MAX_BYTES + 1), 'large.bin', 'application/octet-stream'));
    expect(large.status).toBe(413);
    expect(((await large.json()) as { detail: string }).detail).toContain(`${MAX_BYTES} bytes`);
    if (bucket) expect(bucket.objects.size).toBe(before);
    const exact = await send(fileForm(randomBytes(MAX_BYTES), 'exact.bin', 'application/octet-stream'));
    expect(exact.status).toBe(201);
    await exact.arrayBuffer();

    const extra = await send(fileForm(Buffer.from('x'), 'x.txt', 'text/plain', { fileName: 'other.txt' }));
    expect(extra.status).toBe(400);
    expect(((await extra.json()) as { detail: string }).detail).toContain('"fileName"');
    const empty = new FormData();
    empty.append('note', 'no file');
    expect((await send(empty)).status).toBe(400);
    const json = await send(JSON.stringify({ fileName: 'x' }), { authorization: `Bearer ${org.sandbox.serverKey}`, 'content-type': 'application/json' });
    expect(json.status).toBe(415);
    await json.arrayBuffer();
    const anonymous = await send(fileForm(Buffer.from('x'), 'x.txt', 'text/plain'), {});
    expect(anonymous.status).toBe(401);
    await anonymous.arrayBuffer();
  });

  // The form goes to a bucket only when the files are kept in one.
  if (storage.name === 'an S3 bucket') {
    it("keeps POST /media/'s form going to the bucket, as the official client uses it", async () => {
      const bytes = randomBytes(700);
      const presigned = await s.call('POST', '/media/', { fileName: 'hero.webp', fileType: 'image/webp' });
      expect(presigned.status).toBe(200);
      expect(presigned.body.url).toBe(`${bucket!.endpoint}/${bucket!.bucket}`);
      const posted = await fetch(presigned.body.url, { method: 'POST', body: fileForm(bytes, 'hero.webp', 'image/webp', presigned.body.fields) });
      expect(posted.status).toBe(204);
      const product = await s.call('PATCH', `/catalog/products/${s.product.id}/`, { imageKeys: [presigned.body.fileKey] });
      expect(product.status, product.text).toBe(200);
      const served = await fetch(product.body.images.at(-1).image);
      expect(served.status).toBe(200);
      expect(Buffer.from(await served.arrayBuffer()).equals(bytes)).toBe(true);
      expect(bucket!.requests.filter((r) => r.startsWith('POST')).length).toBeGreaterThan(0);
    });
  }
});

describe('images served from the operator’s own public URL (BILLOW_S3_PUBLIC_URL)', () => {
  const s3 = { BILLOW_STORAGE: 's3', BILLOW_S3_BUCKET: 'billow-test' };

  it("lets the dashboard show them, for pictures only, and refuses a URL without an origin", async () => {
    expect(dashboardCsp()).toContain("img-src 'self' data:;");
    const config = loadConfig({ ...s3, BILLOW_S3_PUBLIC_URL: 'https://cdn.example.com/media/' });
    expect(config.media.s3?.publicUrl).toBe('https://cdn.example.com/media');
    const server = await startTestServer({ env: { ...s3, BILLOW_S3_PUBLIC_URL: 'https://cdn.example.com/media/' } });
    try {
      const page = await fetch(`${server.url}/dashboard/`);
      await page.text();
      const policy = page.headers.get('content-security-policy') ?? '';
      expect(policy).toContain("img-src 'self' data: https://cdn.example.com;");
      expect(policy).toContain("connect-src 'self';");
      expect(policy.match(/cdn\.example\.com/g)).toHaveLength(1);
    } finally {
      await server.close();
    }
    expect(() => loadConfig({ ...s3, BILLOW_S3_PUBLIC_URL: 'cdn.example.com' })).toThrow(/BILLOW_S3_PUBLIC_URL must be an http\(s\) URL/);
  });
});
