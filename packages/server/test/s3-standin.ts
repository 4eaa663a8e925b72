/**
 * A stand-in for an S3 bucket in tests: path-style requests to one bucket, kept in memory.
 * It does what Billow's store asks of S3 (PUT, GET, HEAD, DELETE, copy) and takes the
 * presigned POST form a browser or the official client sends. It checks no signature: the
 * signatures themselves are checked against SigV4 in media.test.ts.
 */
import { createHash } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface StoredObject {
  body: Buffer;
  contentType: string;
  etag: string;
  lastModified: Date;
}

export interface S3Standin {
  /** The endpoint to give as BILLOW_S3_ENDPOINT (path style). */
  endpoint: string;
  bucket: string;
  objects: Map<string, StoredObject>;
  /** Every request, as `METHOD /path`, for tests that check what reached the bucket. */
  requests: string[];
  close(): Promise<void>;
}

const noSuchKey = '<?xml version="1.0" encoding="UTF-8"?><Error><Code>NoSuchKey</Code><Message>The specified key does not exist.</Message></Error>';

async function bodyOf(request: http.IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

function stored(body: Buffer, contentType: string): StoredObject {
  return { body, contentType, etag: `"${createHash('md5').update(body).digest('hex')}"`, lastModified: new Date() };
}

/** The presigned POST: its fields, then the file; the key and type come from the fields. */
async function formUpload(request: http.IncomingMessage, body: Buffer): Promise<{ key: string; object: StoredObject } | null> {
  const form = await new Request('http://s3.local/', {
    method: 'POST',
    headers: { 'content-type': request.headers['content-type'] ?? '' },
    body,
  }).formData();
  const file = form.get('file');
  const key = form.get('key');
  if (typeof key !== 'string' || !(file instanceof Blob)) return null;
  const contentType = String(form.get('Content-Type') ?? 'application/octet-stream');
  return { key, object: stored(Buffer.from(await file.arrayBuffer()), contentType) };
}

function sendObject(response: http.ServerResponse, object: StoredObject, withBody: boolean): void {
  response.writeHead(200, {
    'content-type': object.contentType,
    'content-length': object.body.length,
    etag: object.etag,
    'last-modified': object.lastModified.toUTCString(),
  });
  response.end(withBody ? object.body : undefined);
}

export async function startS3Standin(bucket = 'billow-test'): Promise<S3Standin> {
  const objects = new Map<string, StoredObject>();
  const requests: string[] = [];
  const server = http.createServer((request, response) => {
    void (async () => {
      const url = new URL(request.url ?? '/', 'http://s3.local');
      requests.push(`${request.method} ${url.pathname}`);
      const [, bucketName, ...rest] = url.pathname.split('/');
      const key = rest.map(decodeURIComponent).join('/');
      const body = await bodyOf(request);
      if (bucketName !== bucket) {
        response.writeHead(404).end();
        return;
      }
      const object = objects.get(key);
      switch (request.method) {
        case 'POST': {
          const upload = await formUpload(request, body);
          if (!upload) return void response.writeHead(400).end();
          objects.set(upload.key, upload.object);
          return void response.writeHead(204).end();
        }
        case 'PUT': {
          const source = request.headers['x-amz-copy-source'];
          if (typeof source === 'string') {
            const from = objects.get(decodeURIComponent(source).replace(/^\/?[^/]+\//, ''));
            if (!from) return void response.writeHead(404, { 'content-type': 'application/xml' }).end(noSuchKey);
            objects.set(key, { ...from, lastModified: new Date() });
            return void response
              .writeHead(200, { 'content-type': 'application/xml' })
              .end(`<CopyObjectResult><ETag>${from.etag}</ETag><LastModified>${new Date().toISOString()}</LastModified></CopyObjectResult>`);
          }
          const put = stored(body, request.headers['content-type'] ?? 'application/octet-stream');
          objects.set(key, put);
          return void response.writeHead(200, { etag: put.etag }).end();
        }
        case 'GET':
        case 'HEAD':
          if (!object) return void response.writeHead(404, { 'content-type': 'application/xml' }).end(request.method === 'GET' ? noSuchKey : undefined);
          return sendObject(response, object, request.method === 'GET');
        case 'DELETE':
          objects.delete(key);
          return void response.writeHead(204).end();
        default:
          response.writeHead(405).end();
      }
    })().catch((error: unknown) => response.writeHead(500).end(String(error)));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    bucket,
    objects,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Example credentials for the SDK's provider chain (the stand-in checks none); the AWS documentation's own. */
export const S3_TEST_CREDENTIALS = { AWS_ACCESS_KEY_ID: 'AKIDEXAMPLE', AWS_SECRET_ACCESS_KEY: 'wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY' };

/**
 * A stand-in bucket and what a server needs to keep its files there: the settings to start it
 * with, and the SDK's credentials in the environment until `stop()` restores them.
 */
export async function s3Storage(): Promise<{ bucket: S3Standin; env: Record<string, string>; stop(): Promise<void> }> {
  const bucket = await startS3Standin();
  const saved = Object.fromEntries(Object.keys(S3_TEST_CREDENTIALS).map((name) => [name, process.env[name]]));
  Object.assign(process.env, S3_TEST_CREDENTIALS);
  const env = { BILLOW_STORAGE: 's3', BILLOW_S3_BUCKET: bucket.bucket, BILLOW_S3_ENDPOINT: bucket.endpoint, BILLOW_S3_FORCE_PATH_STYLE: 'true' };
  const stop = async () => {
    await bucket.close();
    for (const [name, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  };
  return { bucket, env, stop };
}
