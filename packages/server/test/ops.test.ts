import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyBaseLogger } from 'fastify';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { connectDatabase } from '../src/db/connect.js';
import { systemClock } from '../src/lib/clock.js';
import { openTestDatabase, startTestServer, uniqueId, type TestOrg, type TestServer } from './harness.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

let server: TestServer;
let org: TestOrg;

beforeAll(async () => {
  server = await startTestServer();
  org = await server.createOrg();
});
afterAll(() => server.close());

describe('health and readiness', () => {
  it('/healthz answers 200 without a key', async () => {
    const res = await server.request('GET', '/healthz');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 'ok' });
  });

  it('/readyz answers 200 while the database is reachable', async () => {
    const res = await server.request('GET', '/readyz');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 'ok', database: 'reachable' });
  });

  it('/readyz answers 503 once the database is gone', async () => {
    // A database of its own, since this test closes it (test servers share theirs on PGlite).
    const broken = await startTestServer({ database: await openTestDatabase() });
    try {
      expect((await broken.request('GET', '/readyz')).status).toBe(200);
      await broken.database.close();
      const res = await broken.request('GET', '/readyz');
      expect(res.status).toBe(503);
      expect(res.body).toEqual({ status: 'unavailable', database: 'unreachable' });
      // Liveness does not depend on the database.
      expect((await broken.request('GET', '/healthz')).status).toBe(200);
    } finally {
      // The database is already closed, so close only the app. Its onClose hook that stops
      // listening for key revocations needs the database and fails here; the socket still closes.
      await broken.app.close().catch(() => undefined);
      expect(broken.app.server.listening).toBe(false);
    }
  });
});

describe('/metrics', () => {
  /** Parses `name{a="b",...} value` lines into their labels and value. */
  function samples(text: string, name: string) {
    return text
      .split('\n')
      .filter((line) => line.startsWith(`${name}{`))
      .map((line) => {
        const match = /^[^{]+\{(.*)\} (\S+)$/.exec(line)!;
        const labels = Object.fromEntries([...match[1]!.matchAll(/(\w+)="([^"]*)"/g)].map((m) => [m[1], m[2]]));
        return { labels: labels as Record<string, string>, value: Number(match[2]) };
      });
  }

  it('exposes a per-route latency histogram in the Prometheus text format', async () => {
    const before = await server.request('GET', '/metrics');
    const countBefore = samples(before.text, 'billow_http_request_duration_seconds_count').find(
      (s) => s.labels.route === '/api/v1/customers/' && s.labels.method === 'GET' && s.labels.status_code === '200',
    );
    expect(countBefore).toBeUndefined();

    const listed = await server.request('GET', '/api/v1/customers/', { key: org.production.serverKey });
    expect(listed.status).toBe(200);
    const customerId = uniqueId('metrics');
    const missing = await server.request('GET', `/sandbox/api/v1/customers/${customerId}/`, {
      key: org.sandbox.serverKey,
    });
    expect(missing.status).toBe(404);

    const res = await server.request('GET', '/metrics');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(res.text).toContain('# TYPE billow_http_request_duration_seconds histogram');
    expect(res.text).toMatch(/^# TYPE process_cpu_seconds_total counter$/m);

    const counts = samples(res.text, 'billow_http_request_duration_seconds_count');
    const list = counts.find(
      (s) => s.labels.route === '/api/v1/customers/' && s.labels.method === 'GET' && s.labels.status_code === '200',
    );
    expect(list?.value).toBe(1);
    const infBucket = samples(res.text, 'billow_http_request_duration_seconds_bucket').find(
      (s) => s.labels.route === '/api/v1/customers/' && s.labels.status_code === '200' && s.labels.le === '+Inf',
    );
    expect(infBucket?.value).toBe(1);
    const sum = samples(res.text, 'billow_http_request_duration_seconds_sum').find(
      (s) => s.labels.route === '/api/v1/customers/' && s.labels.status_code === '200',
    );
    expect(sum!.value).toBeGreaterThan(0);

    // The label is the route pattern, not the URL, so ids do not multiply the series.
    const byId = counts.find(
      (s) => s.labels.route === '/api/v1/customers/:customerId/' && s.labels.status_code === '404',
    );
    expect(byId?.value).toBe(1);
    expect(res.text).not.toContain(customerId);
  });
});

describe('X-Request-Id', () => {
  it('echoes a valid id sent by the caller', async () => {
    for (const id of ['req-123', 'b7d1c0de-trace.42:span/7', 'a'.repeat(128)]) {
      const res = await server.request('GET', '/healthz', { headers: { 'x-request-id': id } });
      expect(res.headers.get('x-request-id')).toBe(id);
    }
  });

  it('generates a UUID when none is sent, a new one per request', async () => {
    const first = (await server.request('GET', '/healthz')).headers.get('x-request-id');
    const second = (await server.request('GET', '/healthz')).headers.get('x-request-id');
    expect(first).toMatch(UUID);
    expect(second).toMatch(UUID);
    expect(second).not.toBe(first);
  });

  it.each([
    ['spaces', 'not a valid id'],
    ['300 characters', 'x'.repeat(300)],
    ['quotes and angle brackets', '"><script>'],
  ])('replaces an id with %s by a UUID', async (_label, id) => {
    const res = await server.request('GET', '/healthz', { headers: { 'x-request-id': id } });
    expect(res.headers.get('x-request-id')).toMatch(UUID);
  });

  it('is on error responses and in the request log line', async () => {
    const lines: string[] = [];
    const logger = pino({ level: 'info' }, { write: (line: string) => void lines.push(line) });
    const database = await openTestDatabase();
    const app = await buildApp({
      config: loadConfig({ LOG_LEVEL: 'info' } as NodeJS.ProcessEnv),
      database,
      clock: systemClock,
      logger: logger as unknown as FastifyBaseLogger,
    });
    try {
      const res = await app.inject({ method: 'GET', url: '/api/v1/customers/', headers: { 'x-request-id': 'trace-77' } });
      expect(res.statusCode).toBe(401);
      expect(res.headers['x-request-id']).toBe('trace-77');
      const entries = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
      const entry = entries.find((e) => e.msg === 'request' && e.url === '/api/v1/customers/');
      expect(entry).toMatchObject({ reqId: 'trace-77', statusCode: 401, method: 'GET' });
      expect(JSON.stringify(entries)).not.toContain('authorization');
    } finally {
      await app.close();
      await database.close();
    }
  });
});

describe('graceful shutdown on SIGTERM', () => {
  const root = fileURLToPath(new URL('../../../', import.meta.url));

  function waitFor(child: ChildProcessWithoutNullStreams, output: () => string, pattern: RegExp, ms: number) {
    return new Promise<RegExpExecArray>((resolve, reject) => {
      const timer = setTimeout(() => {
        cleanup();
        reject(new Error(`timed out waiting for ${pattern}; output so far:\n${output()}`));
      }, ms);
      const check = () => {
        const match = pattern.exec(output());
        if (match) {
          cleanup();
          resolve(match);
        }
      };
      const exited = () => {
        cleanup();
        reject(new Error(`process exited while waiting for ${pattern}; output:\n${output()}`));
      };
      const cleanup = () => {
        clearTimeout(timer);
        child.stdout.off('data', check);
        child.stderr.off('data', check);
        child.off('exit', exited);
      };
      child.stdout.on('data', check);
      child.stderr.on('data', check);
      child.once('exit', exited);
      check();
    });
  }

  it('stops accepting, finishes the request in flight, closes the database and exits 0', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'billow-shutdown-'));
    const dataDir = path.join(dir, 'data');
    // The built server (npm run build, as CI and the CLI tests need it): starting it needs no transform of the sources.
    const script = path.join(dir, 'start.mjs');
    const mainModule = path.join(root, 'packages/server/dist/main.js');
    fs.writeFileSync(script, `import { startBillow } from ${JSON.stringify(mainModule)};\nawait startBillow();\n`);

    const env: NodeJS.ProcessEnv = {
      ...process.env,
      PORT: '0',
      HOST: '127.0.0.1',
      BILLOW_DATA_DIR: dataDir,
      LOG_LEVEL: 'info',
    };
    // Always the embedded database here: the lock file and a clean close are part of what is checked.
    delete env.DATABASE_URL;
    delete env.REDIS_URL;
    delete env.BILLOW_PUBLIC_URL;
    const child = spawn(process.execPath, [script], {
      env,
      cwd: dir,
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const exit = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));

    try {
      const [, url] = await waitFor(child, () => output, /production\s+(http:\/\/\S+)/, 60_000);
      expect(fs.readFileSync(`${dataDir}.lock`, 'utf8')).toBe(String(child.pid));
      const credentials = JSON.parse(fs.readFileSync(path.join(dir, 'credentials.json'), 'utf8'));

      // A request whose body is still arriving when the signal comes.
      const customerId = uniqueId('inflight');
      const body = JSON.stringify({ customerId, name: 'In flight' });
      const split = Math.floor(body.length / 2);
      let pending: (() => void) | null = null;
      const response = new Promise<{ status: number; body: string }>((resolve, reject) => {
        const req = http.request(`${url}/api/v1/customers/`, {
          method: 'POST',
          headers: {
            authorization: `Bearer ${credentials.production.serverKey}`,
            'content-type': 'application/json',
            'content-length': String(Buffer.byteLength(body)),
          },
        });
        req.on('response', (res) => {
          let text = '';
          res.on('data', (chunk: Buffer) => (text += chunk.toString()));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
        });
        req.on('error', reject);
        req.write(body.slice(0, split));
        pending = () => req.end(body.slice(split));
      });
      await new Promise((resolve) => setTimeout(resolve, 500));

      child.kill('SIGTERM');
      await waitFor(child, () => output, /shutting down/, 10_000);

      // New connections are refused while the earlier request is still open.
      let refused = false;
      for (let i = 0; i < 40 && !refused; i++) {
        refused = await fetch(`${url}/healthz`).then(
          () => false,
          () => true,
        );
        if (!refused) await new Promise((resolve) => setTimeout(resolve, 50));
      }
      expect(refused).toBe(true);

      pending!();
      const answered = await response;
      expect(answered.status).toBe(201);
      expect(JSON.parse(answered.body)).toMatchObject({ customerId, name: 'In flight' });

      expect(await exit).toBe(0);
      expect(output).toContain('shutdown complete');
      expect(fs.existsSync(`${dataDir}.lock`)).toBe(false);

      // The database was closed cleanly: the write made during shutdown is there on reopening.
      const reopened = await connectDatabase({ databaseUrl: null, dataDir });
      try {
        const row = await reopened.db
          .selectFrom('customers')
          .select('name')
          .where('customer_id', '=', customerId)
          .executeTakeFirst();
        expect(row).toEqual({ name: 'In flight' });
      } finally {
        await reopened.close();
      }
    } finally {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);
});
