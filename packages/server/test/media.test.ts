import { createHmac, randomBytes, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inTransaction } from '../src/db/transaction.js';
import type { DatabaseHandle } from '../src/db/connect.js';
import { statusOf } from '../src/http/errors.js';
import { DomainError } from '../src/lib/domain-error.js';
import { ManualClock } from '../src/lib/clock.js';
import { sanitizeFileName } from '../src/modules/media/file-names.js';
import { UPLOAD_TTL_MS, type MediaScope, type MediaService, type StoredObject } from '../src/modules/media/service.js';
import { environmentIdOf, openTestDatabase, startTestServer, type TestOrg, type TestServer } from './harness.js';
import { S3_TEST_CREDENTIALS, startS3Standin, type S3Standin } from './s3-standin.js';

const MAX_BYTES = 4096;
const HOUR_MS = 60 * 60 * 1000;

let storageDir: string;
let clock: ManualClock;
let server: TestServer;
let org: TestOrg;
let scope: MediaScope;

interface Presigned {
  url: string;
  fields: Record<string, string>;
  fileKey: string;
}

beforeAll(async () => {
  storageDir = fs.mkdtempSync(path.join(os.tmpdir(), 'billow-media-'));
  clock = new ManualClock(new Date());
  server = await startTestServer({
    clock,
    env: { BILLOW_STORAGE_DIR: storageDir, BILLOW_MEDIA_MAX_BYTES: String(MAX_BYTES) },
  });
  org = await server.createOrg();
  scope = await scopeOf(server, org, 'sandbox');
});
afterAll(async () => {
  await server.close();
  fs.rmSync(storageDir, { recursive: true, force: true });
});

const media = (): MediaService => server.app.billow.media;

async function scopeOf(on: TestServer, of: TestOrg, kind: 'sandbox' | 'production'): Promise<MediaScope> {
  return { organizationId: of.organizationId, environmentId: await environmentIdOf(on, of.organizationId, kind) };
}

async function presign(
  body: Record<string, unknown> = { fileName: 'logo.png', fileType: 'image/png' },
  key: string = org.sandbox.serverKey,
  prefix = '/sandbox',
  on: TestServer = server,
): Promise<Presigned> {
  const res = await on.request('POST', `${prefix}/api/v1/media/`, { key, body });
  expect(res.status, res.text).toBe(200);
  return res.body as Presigned;
}

function form(fields: Record<string, string>, bytes: Uint8Array, type = 'application/octet-stream'): FormData {
  const data = new FormData();
  for (const [name, value] of Object.entries(fields)) data.append(name, value);
  data.append('file', new Blob([bytes], { type }), 'upload.bin');
  return data;
}

async function upload(
  presigned: Presigned,
  bytes: Uint8Array,
  options: { fields?: Record<string, string>; url?: string } = {},
): Promise<Response> {
  return fetch(options.url ?? presigned.url, {
    method: 'POST',
    body: form({ ...presigned.fields, ...options.fields }, bytes),
  });
}

/** Presigns and uploads `bytes`; returns the fileKey. */
async function uploaded(bytes: Uint8Array = randomBytes(100), key?: string, prefix?: string): Promise<string> {
  const presigned = await presign(undefined, key, prefix);
  expect((await upload(presigned, bytes)).status).toBe(204);
  return presigned.fileKey;
}

const objectFile = (key: string) => path.join(storageDir, 'objects', ...key.split('/'));
const purpose = () => `plans/${randomUUID()}`;

async function stageAndConsume(keys: string[], visibility?: 'public' | 'private'): Promise<StoredObject[]> {
  const staged = await media().stage(scope, keys, purpose(), { visibility });
  await inTransaction(server.database.db, (tx) => media().consume(tx, scope, staged));
  return staged;
}

async function expectRefusal(promise: Promise<unknown>, key: string, words: RegExp): Promise<void> {
  const error = (await promise.then(
    () => null,
    (e: unknown) => e,
  )) as DomainError | null;
  expect(error, 'expected a refusal').toBeInstanceOf(DomainError);
  expect(statusOf(error!)).toBe(400);
  expect(error!.detail).toContain(key);
  expect(error!.detail).toMatch(words);
}

describe('media uploads', () => {
  it('presigns, uploads, stages, consumes, downloads and removes a file', async () => {
    const presigned = await presign({ fileName: 'Quarterly report.pdf', fileType: 'application/pdf' });
    expect(presigned.fileKey).toMatch(/^tmp\/[0-9a-f-]{36}\/Quarterly report\.pdf$/);
    expect(presigned.url).toBe(`${server.url}/media/upload`);
    expect(presigned.fields).toMatchObject({ key: presigned.fileKey, 'Content-Type': 'application/pdf' });
    const row = await server.database.db
      .selectFrom('media_uploads')
      .selectAll()
      .where('file_key', '=', presigned.fileKey)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ environment_id: scope.environmentId, file_name: 'Quarterly report.pdf', consumed_at: null });
    expect(Number(row.max_size)).toBe(MAX_BYTES);
    expect(row.expires_at.getTime() - row.created_at.getTime()).toBe(HOUR_MS);

    const bytes = randomBytes(1000);
    const res = await upload(presigned, bytes);
    expect(res.status).toBe(204);
    expect(fs.readFileSync(objectFile(presigned.fileKey)).equals(bytes)).toBe(true);

    const [stored] = await stageAndConsume([presigned.fileKey]);
    expect(stored).toMatchObject({
      fileName: 'Quarterly report.pdf',
      contentType: 'application/pdf',
      size: 1000,
      uploadKey: presigned.fileKey,
    });
    expect(stored!.key).toMatch(new RegExp(`^private/${scope.environmentId}/plans/[0-9a-f-]{36}/[0-9a-f-]{36}/Quarterly report\\.pdf$`));
    expect(fs.readFileSync(objectFile(stored!.key)).equals(bytes)).toBe(true);
    expect(fs.existsSync(objectFile(presigned.fileKey))).toBe(false);
    expect(fs.existsSync(path.dirname(objectFile(presigned.fileKey)))).toBe(false);
    const after = await server.database.db
      .selectFrom('media_uploads')
      .selectAll()
      .where('file_key', '=', presigned.fileKey)
      .executeTakeFirstOrThrow();
    expect(after.consumed_at).not.toBeNull();
    expect(after.stored_key).toBe(stored!.key);
    expect(Number(after.size)).toBe(1000);

    const link = await media().downloadUrl(server.url, stored!.key, 'Report Q3 – "final".pdf');
    const download = await fetch(link);
    expect(download.status).toBe(200);
    expect(download.headers.get('content-type')).toBe('application/pdf');
    expect(download.headers.get('content-disposition')).toBe(
      `attachment; filename="Report Q3 _ _final_.pdf"; filename*=UTF-8''Report%20Q3%20%E2%80%93%20%22final%22.pdf`,
    );
    expect(download.headers.get('x-content-type-options')).toBe('nosniff');
    expect(Buffer.from(await download.arrayBuffer()).equals(bytes)).toBe(true);

    await media().remove([stored!.key]);
    expect(fs.existsSync(objectFile(stored!.key))).toBe(false);
    expect((await fetch(link)).status).toBe(404);
    await expect(media().remove([stored!.key])).resolves.toBeUndefined();
  });

  it('serves public objects to anyone, and never tmp or private ones', async () => {
    const bytes = randomBytes(64);
    const [image] = await stageAndConsume([await uploaded(bytes)], 'public');
    expect(image!.key.startsWith(`public/${scope.environmentId}/`)).toBe(true);
    const url = media().publicUrl(server.url, image!.key);
    expect(url.startsWith(`${server.url}/media/public/`)).toBe(true);
    const res = await fetch(url);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/png');
    expect(res.headers.get('content-security-policy')).toContain('sandbox');
    expect(Buffer.from(await res.arrayBuffer()).equals(bytes)).toBe(true);

    const longName = `${'ü文'.repeat(70)}.png`;
    const presigned = await presign({ fileName: longName, fileType: 'image/png' });
    expect((await upload(presigned, bytes)).status).toBe(204);
    const [named] = await stageAndConsume([presigned.fileKey], 'public');
    expect(named!.fileName).toMatch(/^(ü文)+ü?\.png$/);
    const long = media().publicUrl(server.url, named!.key);
    expect(long.length).toBeGreaterThan(600);
    const longDownload = await fetch(long);
    expect(longDownload.status).toBe(200);
    await longDownload.arrayBuffer();

    const tmpKey = await uploaded();
    expect((await server.request('GET', `/media/${tmpKey}`)).status).toBe(404);
    const [file] = await stageAndConsume([await uploaded()]);
    expect(() => media().publicUrl(server.url, file!.key)).toThrow(/not public/);
    expect((await server.request('GET', `/media/${file!.key}`)).status).toBe(404);
    expect((await server.request('GET', `/media/public/${'x'.repeat(300)}`)).status).toBe(404);
    expect((await server.request('GET', `/media/${image!.key}/inside`)).status).toBe(404);
    const escape = `/media/public/%2e%2e/${file!.key}`;
    expect((await server.request('GET', escape)).status).toBe(404);
    expect((await server.request('GET', `/media/public/%2e%2e/%2e%2e/${tmpKey}`)).status).toBe(404);
  });
});

describe('POST /media/', () => {
  it('needs a server key', async () => {
    const body = { fileName: 'a.png', fileType: 'image/png' };
    const client = await server.request('POST', '/sandbox/api/v1/media/', { key: org.sandbox.clientKey, body });
    expect(client.status).toBe(403);
    expect((await server.request('POST', '/sandbox/api/v1/media/', { body })).status).toBe(401);
  });

  it.each([
    [{ fileType: 'image/png' }, 'fileName'],
    [{ fileName: '', fileType: 'image/png' }, 'fileName'],
    [{ fileName: '///', fileType: 'image/png' }, 'fileName'],
    [{ fileName: '..', fileType: 'image/png' }, 'fileName'],
    [{ fileName: '\u0000\u0007', fileType: 'image/png' }, 'fileName'],
    [{ fileName: 'a.png' }, 'fileType'],
    [{ fileName: 'a.png', fileType: 'png' }, 'fileType'],
    [{ fileName: 'a.png', fileType: 'image/png\r\nX-Injected: 1' }, 'fileType'],
    [{ fileName: 'a.png', fileType: 'image/png', size: 3 }, 'size'],
  ])('refuses %j naming %s', async (body, field) => {
    const res = await server.request('POST', '/sandbox/api/v1/media/', { key: org.sandbox.serverKey, body });
    expect(res.status).toBe(400);
    expect(res.body.detail).toContain(field);
  });

  it('accepts snake_case and keeps only a safe file name in the key', async () => {
    const res = await presign({ file_name: 'C:\\Users\\ada\\..\\..\\etc/passwd', file_type: 'text/plain; charset=utf-8' });
    expect(res.fileKey).toMatch(/^tmp\/[0-9a-f-]{36}\/passwd$/);
    expect(res.fields['Content-Type']).toBe('text/plain; charset=utf-8');
  });

  it('sanitizes file names', () => {
    expect(sanitizeFileName('a\u0000b\u202Ec\u0007.png')).toBe('abc.png');
    expect(sanitizeFileName('  what?  #1 <draft>.txt ')).toBe('what_ _1 _draft_.txt');
    const long = sanitizeFileName(`${'x'.repeat(300)}.tar.gz`)!;
    expect(long.length).toBe(200);
    expect(long.endsWith('x.gz')).toBe(true);
    // Bytes, not characters, are what file systems and S3 limit: no character is cut in half.
    const wide = sanitizeFileName(`${'文'.repeat(100)}.pdf`)!;
    expect(wide).toBe(`${'文'.repeat(65)}.pdf`);
    expect(Buffer.byteLength(wide)).toBeLessThanOrEqual(200);
    expect(sanitizeFileName('ünïcødé 文件.png')).toBe('ünïcødé 文件.png');
    expect(sanitizeFileName('...')).toBeNull();
  });
});

describe('local uploads', () => {
  it('refuses a tampered signature, key or content type with 403 and stores nothing', async () => {
    const presigned = await presign();
    const signature = presigned.fields.signature!;
    const flipped = `${signature.slice(0, -2)}${signature.endsWith('AA') ? 'BB' : 'AA'}`;
    for (const fields of [
      { signature: flipped },
      { key: `tmp/${randomUUID()}/logo.png` },
      { 'Content-Type': 'text/html' },
      { policy: Buffer.from(JSON.stringify({ key: presigned.fileKey, contentType: 'image/png', maxBytes: 1e9, expires: 9e9 })).toString('base64url') },
    ]) {
      const res = await upload(presigned, randomBytes(10), { fields });
      expect(res.status, JSON.stringify(fields)).toBe(403);
      expect(((await res.json()) as { code: string }).code).toBe('forbidden');
    }
    expect(fs.existsSync(objectFile(presigned.fileKey))).toBe(false);
  });

  it('refuses an expired policy with 403', async () => {
    const presigned = await presign();
    clock.advance(HOUR_MS + 1000);
    const res = await upload(presigned, randomBytes(10));
    expect(res.status).toBe(403);
    expect(((await res.json()) as { detail: string }).detail).toMatch(/expired/);
    expect(fs.existsSync(objectFile(presigned.fileKey))).toBe(false);
  });

  it('refuses a file over the size limit with 413 without storing it', async () => {
    const presigned = await presign();
    const res = await upload(presigned, randomBytes(MAX_BYTES + 1));
    expect(res.status).toBe(413);
    expect(((await res.json()) as { detail: string }).detail).toContain(String(MAX_BYTES));
    expect(fs.existsSync(objectFile(presigned.fileKey))).toBe(false);
    expect(fs.readdirSync(path.join(storageDir, 'incoming'))).toEqual([]);
    expect((await upload(presigned, randomBytes(MAX_BYTES))).status).toBe(204);
  });

  it('uses each form once: a second upload answers 409 and leaves the first file as it was', async () => {
    const presigned = await presign();
    const first = randomBytes(64);
    expect((await upload(presigned, first)).status).toBe(204);
    const again = await upload(presigned, randomBytes(64));
    expect(again.status).toBe(409);
    expect(await again.json()).toEqual({ detail: expect.stringMatching(/already been used/), code: 'upload_form_used' });
    expect(fs.readFileSync(objectFile(presigned.fileKey)).equals(first)).toBe(true);
  });

  it('lets exactly one of two concurrent uploads through one form win', async () => {
    for (let round = 0; round < 5; round++) {
      const presigned = await presign();
      const bodies = [randomBytes(2_000), randomBytes(2_000)];
      const answers = await Promise.all(bodies.map((bytes) => upload(presigned, bytes)));
      const statuses = answers.map((res) => res.status).sort();
      await Promise.all(answers.map((res) => res.arrayBuffer()));
      expect(statuses).toEqual([204, 409]);
      const winner = bodies[answers.findIndex((res) => res.status === 204)]!;
      expect(fs.readFileSync(objectFile(presigned.fileKey)).equals(winner)).toBe(true);
    }
  });

  it('answers 4xx, never 500, to malformed forms', async () => {
    const presigned = await presign();
    const json = await fetch(presigned.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(presigned.fields),
    });
    expect(json.status).toBe(415);
    const truncated = await fetch(presigned.url, {
      method: 'POST',
      headers: { 'content-type': 'multipart/form-data; boundary=XyZ' },
      body: `--XyZ\r\nContent-Disposition: form-data; name="key"\r\n\r\n${presigned.fileKey}`,
    });
    expect(truncated.status).toBe(400);
    const fieldsOnly = new FormData();
    for (const [name, value] of Object.entries(presigned.fields)) fieldsOnly.append(name, value);
    const noFile = await fetch(presigned.url, { method: 'POST', body: fieldsOnly });
    expect(noFile.status).toBe(400);
    const extra = await upload(presigned, randomBytes(5), { fields: { acl: 'public-read' } });
    expect(extra.status).toBe(400);
    expect(((await extra.json()) as { detail: string }).detail).toContain('acl');
  });
});

describe('staging', () => {
  it('refuses an unknown key', async () => {
    const key = `tmp/${randomUUID()}/nothing.png`;
    await expectRefusal(media().stage(scope, [key], purpose()), key, /not a fileKey/);
  });

  it('refuses a key of another environment or organization', async () => {
    const production = await uploaded(randomBytes(10), org.production.serverKey, '');
    await expectRefusal(media().stage(scope, [production], purpose()), production, /not a fileKey/);
    const other = await server.createOrg();
    const foreign = await uploaded(randomBytes(10), other.sandbox.serverKey);
    await expectRefusal(media().stage(scope, [foreign], purpose()), foreign, /not a fileKey/);
    expect(fs.existsSync(objectFile(foreign))).toBe(true);
  });

  it('refuses a key whose file was not uploaded yet', async () => {
    const { fileKey } = await presign();
    await expectRefusal(media().stage(scope, [fileKey], purpose()), fileKey, /uploaded/);
  });

  it('refuses a key past its hour', async () => {
    const key = await uploaded();
    clock.advance(UPLOAD_TTL_MS + 1000);
    await expectRefusal(media().stage(scope, [key], purpose()), key, /expired/);
  });

  it('refuses a consumed key, and a second consume of the same staging', async () => {
    const key = await uploaded();
    const staged = await stageAndConsume([key]);
    await expectRefusal(media().stage(scope, [key], purpose()), key, /already been used/);
    await expectRefusal(
      inTransaction(server.database.db, (tx) => media().consume(tx, scope, staged)),
      key,
      /already been used/,
    );
  });

  it('checks every key before copying any, and refuses a key listed twice', async () => {
    const good = await uploaded();
    const missing = `tmp/${randomUUID()}/missing.png`;
    await expectRefusal(media().stage(scope, [good, missing], purpose()), missing, /not a fileKey/);
    expect(fs.existsSync(objectFile(good))).toBe(true);
    await expectRefusal(media().stage(scope, [good, good], purpose()), good, /more than once/);
    expect(fs.existsSync(objectFile(good))).toBe(true);
  });

  it('stages again from where a failed attempt left the file', async () => {
    const bytes = randomBytes(30);
    const key = await uploaded(bytes);
    const [first] = await media().stage(scope, [key], purpose());
    // The caller's transaction failed: nothing was consumed, and the upload can be attached again.
    const [second] = await stageAndConsume([key]);
    expect(second!.key).not.toBe(first!.key);
    expect(fs.existsSync(objectFile(first!.key))).toBe(false);
    expect(fs.readFileSync(objectFile(second!.key)).equals(bytes)).toBe(true);
    await expectRefusal(
      inTransaction(server.database.db, (tx) => media().consume(tx, scope, [first!])),
      key,
      /already been used/,
    );
  });

  it('sweeps uploads never attached, a day after they expired', async () => {
    const never = await uploaded();
    const staged = await uploaded();
    const [abandoned] = await media().stage(scope, [staged], purpose());
    const [kept] = await stageAndConsume([await uploaded()]);
    clock.advance(UPLOAD_TTL_MS + 24 * HOUR_MS + 1000);
    expect(await media().sweep()).toBeGreaterThanOrEqual(2);
    expect(fs.existsSync(objectFile(never))).toBe(false);
    expect(fs.existsSync(objectFile(abandoned!.key))).toBe(false);
    expect(fs.existsSync(objectFile(kept!.key))).toBe(true);
    const rows = await server.database.db
      .selectFrom('media_uploads')
      .select('file_key')
      .where('file_key', 'in', [never, staged, kept!.uploadKey])
      .execute();
    expect(rows.map((r) => r.file_key)).toEqual([kept!.uploadKey]);
  });
});

describe('download links', () => {
  it('refuse expired or tampered links with 403', async () => {
    const [stored] = await stageAndConsume([await uploaded()]);
    const link = new URL(await media().downloadUrl(server.url, stored!.key, 'logo.png'));
    const served = await fetch(link);
    expect(served.status).toBe(200);
    await served.arrayBuffer();
    const tampered = (change: (params: URLSearchParams) => void) => {
      const url = new URL(link);
      change(url.searchParams);
      return fetch(url);
    };
    const signature = link.searchParams.get('signature')!;
    expect((await tampered((p) => p.set('signature', `${signature.slice(0, -2)}${signature.endsWith('AA') ? 'BB' : 'AA'}`))).status).toBe(403);
    expect((await tampered((p) => p.set('name', 'other.png'))).status).toBe(403);
    expect((await tampered((p) => p.set('expires', String(Number(p.get('expires')) + 3600)))).status).toBe(403);
    const [other] = await stageAndConsume([await uploaded()]);
    expect((await tampered((p) => p.set('key', other!.key))).status).toBe(403);
    expect((await tampered((p) => p.delete('signature'))).status).toBe(403);

    clock.advance(5 * 60 * 1000 + 1000);
    const expired = await fetch(link);
    expect(expired.status).toBe(403);
    expect(((await expired.json()) as { detail: string }).detail).toMatch(/expired/);
  });
});

describe('large files', () => {
  it('are not held to the JSON body limit, only to the upload limit', async () => {
    const big = await startTestServer({ env: { BILLOW_STORAGE_DIR: storageDir, BILLOW_BODY_LIMIT_BYTES: '1024' } });
    try {
      const owner = await big.createOrg();
      const presigned = await presign(undefined, owner.sandbox.serverKey, '/sandbox', big);
      expect(Number(JSON.parse(Buffer.from(presigned.fields.policy!, 'base64url').toString()).maxBytes)).toBe(100 * 1024 * 1024);
      const bytes = randomBytes(256 * 1024);
      expect((await upload(presigned, bytes)).status).toBe(204);
      expect(fs.readFileSync(objectFile(presigned.fileKey)).equals(bytes)).toBe(true);
    } finally {
      await big.close();
    }
  });
});

describe('the signing secret', () => {
  let database: DatabaseHandle;
  const started: TestServer[] = [];
  const start = async (env: Record<string, string> = {}) => {
    const s = await startTestServer({ database, env: { BILLOW_STORAGE_DIR: storageDir, ...env } });
    started.push(s);
    return s;
  };

  beforeAll(async () => {
    database = await openTestDatabase();
  });
  afterAll(async () => {
    for (const s of started) await s.close();
    await database.close();
  });

  it('survives a restart on the same database', async () => {
    const first = await start();
    const owner = await first.createOrg();
    const presigned = await presign(undefined, owner.sandbox.serverKey, '/sandbox', first);
    const link = await first.app.billow.media.downloadUrl(first.url, presigned.fileKey, 'logo.png');
    await first.close();

    const second = await start();
    const bytes = randomBytes(20);
    expect((await upload(presigned, bytes, { url: `${second.url}/media/upload` })).status).toBe(204);
    const download = await fetch(link.replace(first.url, second.url));
    expect(download.status).toBe(200);
    expect(Buffer.from(await download.arrayBuffer()).equals(bytes)).toBe(true);
  });

  it('is BILLOW_SECRET when that is set', async () => {
    const a = await start({ BILLOW_SECRET: 'a'.repeat(40) });
    const b = await start({ BILLOW_SECRET: 'b'.repeat(40) });
    const again = await start({ BILLOW_SECRET: 'a'.repeat(40) });
    const key = await uploaded(randomBytes(10));
    const link = await a.app.billow.media.downloadUrl(a.url, key, 'x.png');
    // Bodies are read to the end: an unread download keeps its connection busy, and close() waits for it.
    const same = await fetch(link.replace(a.url, again.url));
    expect(same.status).toBe(200);
    await same.arrayBuffer();
    const other = await fetch(link.replace(a.url, b.url));
    expect(other.status).toBe(403);
    await other.arrayBuffer();
  });
});

describe('S3 storage', () => {
  const credentials = S3_TEST_CREDENTIALS;
  const saved: Record<string, string | undefined> = {};
  let s3: TestServer;
  let s3Org: TestOrg;
  let bucket: S3Standin;

  beforeAll(async () => {
    for (const [name, value] of Object.entries(credentials)) {
      saved[name] = process.env[name];
      process.env[name] = value;
    }
    bucket = await startS3Standin();
    s3 = await startTestServer({
      env: {
        BILLOW_STORAGE: 's3',
        BILLOW_S3_BUCKET: 'billow-test',
        BILLOW_S3_REGION: 'eu-central-1',
        BILLOW_S3_ENDPOINT: bucket.endpoint,
        BILLOW_S3_FORCE_PATH_STYLE: 'true',
      },
    });
    s3Org = await s3.createOrg();
  });
  afterAll(async () => {
    await s3?.close();
    await bucket?.close();
    for (const [name, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  });

  it('presigns a POST limited to the key, the size and the content type', async () => {
    const before = Date.now();
    const presigned = await presign({ fileName: 'logo.png', fileType: 'image/png' }, s3Org.sandbox.serverKey, '/sandbox', s3);
    expect(presigned.url).toBe(`${bucket.endpoint}/billow-test`);
    expect(presigned.fileKey).toMatch(/^tmp\/[0-9a-f-]{36}\/logo\.png$/);
    const { fields } = presigned;
    expect(fields).toMatchObject({
      key: presigned.fileKey,
      'Content-Type': 'image/png',
      bucket: 'billow-test',
      'X-Amz-Algorithm': 'AWS4-HMAC-SHA256',
    });
    expect(fields['X-Amz-Credential']).toMatch(/^AKIDEXAMPLE\/\d{8}\/eu-central-1\/s3\/aws4_request$/);

    const policy = JSON.parse(Buffer.from(fields.Policy!, 'base64').toString('utf8')) as {
      expiration: string;
      conditions: unknown[];
    };
    expect(policy.conditions).toEqual(
      expect.arrayContaining([
        { bucket: 'billow-test' },
        { key: presigned.fileKey },
        { 'Content-Type': 'image/png' },
        ['content-length-range', 0, 5 * 1024 * 1024 * 1024],
      ]),
    );
    const expiresIn = Date.parse(policy.expiration) - before;
    expect(expiresIn).toBeGreaterThan(HOUR_MS - 5000);
    expect(expiresIn).toBeLessThanOrEqual(HOUR_MS + 5000);

    // The signature S3 will check: SigV4 over the policy, keyed by the credentials of the provider chain.
    const date = fields['X-Amz-Date']!.slice(0, 8);
    const hmac = (key: string | Buffer, data: string) => createHmac('sha256', key).update(data).digest();
    const signingKey = hmac(hmac(hmac(hmac(`AWS4${credentials.AWS_SECRET_ACCESS_KEY}`, date), 'eu-central-1'), 's3'), 'aws4_request');
    expect(fields['X-Amz-Signature']).toBe(createHmac('sha256', signingKey).update(fields.Policy!).digest('hex'));

    const scopeS3 = await scopeOf(s3, s3Org, 'sandbox');
    const row = await s3.database.db
      .selectFrom('media_uploads')
      .selectAll()
      .where('file_key', '=', presigned.fileKey)
      .executeTakeFirstOrThrow();
    expect(row.environment_id).toBe(scopeS3.environmentId);
    expect((await s3.request('POST', '/media/upload', { body: {} })).status).toBe(404);
  });

  it('signs downloads as attachments and links public objects through Billow', async () => {
    const service = s3.app.billow.media;
    const key = `private/${randomUUID()}/plans/p1/${randomUUID()}/Report Q3.pdf`;
    const url = new URL(await service.downloadUrl('https://billing.example.com', key, 'Report Q3.pdf'));
    expect(`${url.origin}${url.pathname}`).toBe(`${bucket.endpoint}/billow-test/${key.replace(/ /g, '%20')}`);
    expect(url.searchParams.get('X-Amz-Expires')).toBe('300');
    expect(url.searchParams.get('response-content-disposition')).toBe(
      `attachment; filename="Report Q3.pdf"; filename*=UTF-8''Report%20Q3.pdf`,
    );
    expect(url.searchParams.get('X-Amz-Signature')).toMatch(/^[0-9a-f]{64}$/);
    const publicKey = `public/${randomUUID()}/products/p1/${randomUUID()}/logo.png`;
    expect(service.publicUrl('https://billing.example.com', publicKey)).toBe(`https://billing.example.com/media/${publicKey}`);
  });
});
