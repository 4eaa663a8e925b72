import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import { inject } from 'vitest';
import { loadConfig, type Config } from '../src/config.js';
import { buildApp } from '../src/app.js';
import { connectDatabase, type DatabaseHandle } from '../src/db/connect.js';
import { migrate } from '../src/db/migrate.js';
import { systemClock, type Clock } from '../src/lib/clock.js';
import { Registry } from 'prom-client';
import { backgroundJobs } from '../src/job-handlers/tasks.js';
import { entitlementChangesFor } from '../src/edge-cache/change-feed.js';
import { WebhookDispatcher } from '../src/modules/webhooks/dispatcher.js';
import { webhookSecretBox } from '../src/modules/webhooks/secret-box.js';
import { JobRunner } from '../src/modules/jobs/runner.js';
import { createLogger } from '../src/logger.js';
import type { App } from '../src/http/route-types.js';
import type { ResponseCheck, ResponseMismatch } from '../src/http/response-check.js';
import { createOrganization, createPartnerWithKey, revokeKey } from '../src/modules/tenancy/service.js';
import type { FastifyBaseLogger } from 'fastify';
import type { Redis } from 'ioredis';

export interface TestOrg {
  organizationId: string;
  sandbox: { serverKey: string; clientKey: string };
  production: { serverKey: string; clientKey: string };
}

export interface Response<T = any> {
  status: number;
  body: T;
  text: string;
  headers: Headers;
}

export interface RequestOptions {
  key?: string | null;
  body?: unknown;
  rawBody?: string;
  headers?: Record<string, string>;
}

export interface TestServer {
  /** Root URL, e.g. http://127.0.0.1:PORT (production); `${url}/sandbox` is sandbox. */
  url: string;
  app: App;
  database: DatabaseHandle;
  config: Config;
  createOrg(name?: string): Promise<TestOrg>;
  createPartnerKey(): Promise<string>;
  revoke(keyOrPrefix: string): Promise<void>;
  request<T = any>(method: string, path: string, options?: RequestOptions): Promise<Response<T>>;
  /**
   * Runs the background jobs due by the server's clock, as a worker would (test
   * servers run none on their own): by default the billing engine's (test clock
   * advances and subscriptions' due items). On a shared database, other tests' jobs
   * of those names may run here too, as they would on any worker. Returns how many ran.
   */
  runJobs(names?: string[]): Promise<number>;
  /**
   * Makes every webhook delivery due by the server's clock, as a worker's dispatcher
   * would (test servers run none on their own), waiting for each attempt to be
   * recorded. Only the deliveries of organizations made by this server's createOrg():
   * on a shared database, another test's server (with its own clock, schedule and
   * timeout) never makes this one's attempts, nor this one theirs.
   */
  deliverWebhooks(): Promise<number>;
  close(): Promise<void>;
}

export interface TestServerOptions {
  env?: Record<string, string>;
  clock?: Clock;
  redis?: Redis | null;
  /** Share one database between servers (for cross-process behaviour). */
  database?: DatabaseHandle;
  /** Where the server (and its webhook dispatcher) log; a silent logger by default. */
  logger?: FastifyBaseLogger;
  /**
   * What is told of an answer that does not match the document (decision 0112); by default the
   * server's own record, which fails its close(). BILLOW_TEST_RESPONSE_CHECK=off turns the check off.
   */
  responseCheck?: ResponseCheck;
}

/** The jobs a test server's runJobs() runs unless told otherwise: the billing engine's. */
const BILLING_JOBS = ['advance-test-clock', 'bill-subscription'];

let migratedDump: Promise<Blob | undefined> | undefined;

/** The migrated embedded database that the global setup saved, read once per worker. */
function migratedPgliteDump(): Promise<Blob | undefined> {
  migratedDump ??= (async () => {
    const file = inject('pgliteTemplate');
    return file ? new Blob([await fs.promises.readFile(file)]) : undefined;
  })();
  return migratedDump;
}

/** The database tests run on: PostgreSQL when DATABASE_URL is set, else an in-memory PGlite. */
export async function openTestDatabase(options: { onQuery?: () => void } = {}): Promise<DatabaseHandle> {
  const databaseUrl = process.env.DATABASE_URL || null;
  const fromDump = databaseUrl ? undefined : await migratedPgliteDump();
  // On PostgreSQL, the reads a replica may serve go through the replica gate to a read-only pool of the same
  // database (decision 0123): every suite then checks that none of them writes.
  const database = await connectDatabase({ databaseUrl, replicaUrl: databaseUrl, dataDir: null, poolSize: 5, fromDump, onQuery: options.onQuery });
  // Applies nothing when the copy or the shared database is current; a no-op check otherwise.
  await migrate(database.db);
  return database;
}

let workerDatabase: Promise<DatabaseHandle> | undefined;

/**
 * On the embedded database, the test servers of one worker share one database, as all share
 * one on PostgreSQL (tests make their own organizations and scope by them): opening a copy of
 * the migrated template cost about a second of CPU per server. Closing it is left to the
 * worker's exit. A test that needs a database of its own calls openTestDatabase().
 */
function sharedEmbeddedDatabase(): Promise<DatabaseHandle> | null {
  if (process.env.DATABASE_URL) return null;
  workerDatabase ??= openTestDatabase().then((database) => ({ ...database, close: async () => undefined }));
  return workerDatabase;
}

/** fetch() will not send a custom Host header; node:http will. */
function viaNodeHttp(
  target: string,
  method: string,
  headers: Record<string, string>,
  body: string | undefined,
): Promise<{ status: number; headers: Headers; text(): Promise<string> }> {
  return new Promise((resolve, reject) => {
    const req = http.request(target, { method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        const responseHeaders = new Headers();
        for (const [name, value] of Object.entries(res.headers)) {
          if (value !== undefined) responseHeaders.set(name, Array.isArray(value) ? value.join(', ') : value);
        }
        const text = Buffer.concat(chunks).toString('utf8');
        resolve({ status: res.statusCode ?? 0, headers: responseHeaders, text: async () => text });
      });
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** Builds Billow in-process and listens on a free loopback port: tests talk real HTTP. */
/** The body's text; of a stream that stays open (text/event-stream), its first chunk, then the stream is closed. */
async function textOf(res: globalThis.Response): Promise<string> {
  if (!res.headers.get('content-type')?.startsWith('text/event-stream') || !res.body) return res.text();
  const reader = res.body.getReader();
  const first = await reader.read();
  await reader.cancel();
  return first.value ? new TextDecoder().decode(first.value) : '';
}

export async function startTestServer(options: TestServerOptions = {}): Promise<TestServer> {
  const config = loadConfig({
    BILLOW_RATE_LIMIT_MAX: '100000',
    BILLOW_AUTH_FAILURE_LIMIT_MAX: '100000',
    LOG_LEVEL: 'silent',
    ...options.env,
  } as NodeJS.ProcessEnv);
  const clock = options.clock ?? systemClock;
  const shared = options.database ? null : await sharedEmbeddedDatabase();
  const ownsDatabase = !options.database && !shared;
  const database = options.database ?? shared ?? (await openTestDatabase());
  const logger = options.logger ?? (createLogger(config.logLevel) as unknown as FastifyBaseLogger);
  const mismatches: ResponseMismatch[] = [];
  const responseCheck = process.env.BILLOW_TEST_RESPONSE_CHECK === 'off' ? undefined : (options.responseCheck ?? recordedIn(mismatches));
  const app = await buildApp({ config, database, clock, logger, redis: options.redis ?? null, responseCheck });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  const url = `http://127.0.0.1:${port}`;

  let closing: Promise<void> | undefined;
  const organizations = new Set<string>();

  async function request<T>(method: string, path: string, opts: RequestOptions = {}): Promise<Response<T>> {
    const headers: Record<string, string> = { ...opts.headers };
    if (opts.key) headers.authorization = `Bearer ${opts.key}`;
    let body: string | undefined;
    if (opts.rawBody !== undefined) body = opts.rawBody;
    else if (opts.body !== undefined) {
      body = JSON.stringify(opts.body);
      headers['content-type'] ??= 'application/json';
    }
    const res = headers.host
      ? await viaNodeHttp(`${url}${path}`, method, headers, body)
      : await fetch(`${url}${path}`, { method, headers, body });
    const text = await textOf(res);
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : null;
    } catch {
      // not JSON
    }
    return { status: res.status, body: parsed as T, text, headers: res.headers };
  }

  const runJobs = (names = BILLING_JOBS) => {
    const all = backgroundJobs(database.db, clock, {
      sweepMedia: () => app.billow.media.sweep(),
      pendingUpdateTtlMs: config.pendingUpdateTtlMs,
      paymentRecoveryAfterMs: config.paymentRecoveryAfterMs,
      jobRetentionMs: config.jobs.retentionMs,
      webhookLogRetentionMs: config.webhooks.logRetentionMs,
      billing: config.billing,
      mail: config.mail,
      publicUrl: config.publicUrl,
      entitlementChanges: entitlementChangesFor(app.billow.entitlementCache),
    });
    const handlers = Object.fromEntries(names.map((name) => [name, all[name]!]));
    return new JobRunner({ db: database.db, clock, log: logger, registry: new Registry(), handlers }).runDue();
  };

  const dispatcher = new WebhookDispatcher({
    db: database.db,
    clock,
    log: logger,
    registry: new Registry(),
    config: config.webhooks,
    secretBox: webhookSecretBox(database.db, clock, config.secret),
    organizations: () => [...organizations],
  });

  return {
    url,
    app,
    database,
    config,
    runJobs,
    deliverWebhooks: () => dispatcher.runDue(),
    createOrg: async (name = `Test ${randomUUID().slice(0, 8)}`) => {
      const org = await createOrganization(database.db, clock, { name });
      organizations.add(org.organizationId);
      return org;
    },
    createPartnerKey: async () => (await createPartnerWithKey(database.db, clock, 'Test partner')).partnerKey,
    revoke: async (keyOrPrefix) => {
      const { hash } = await revokeKey(database.db, clock, keyOrPrefix);
      app.billow.keyCache.forget(hash);
    },
    request,
    // Idempotent: a test may close a server early and its cleanup close it again.
    close: () =>
      (closing ??= (async () => {
        // A response a test left unread keeps its connection busy, and close() would wait for it forever.
        const force = setTimeout(() => app.server.closeAllConnections(), 2_000);
        try {
          await app.close();
        } finally {
          clearTimeout(force);
        }
        if (ownsDatabase) await database.close();
        if (mismatches.length > 0) throw new Error(`answers that do not match the OpenAPI document:\n${mismatches.map(describeMismatch).join('\n')}`);
      })()),
  };
}

const describeMismatch = (found: ResponseMismatch) => `${found.method} ${found.route} ${found.status}: ${found.problem}`;

/**
 * The test servers' record of answers the document refuses: each is answered 500 where it
 * happens (the test that asked sees it), written to stderr, and fails the server's close().
 */
function recordedIn(mismatches: ResponseMismatch[]): ResponseCheck {
  return {
    mismatch: (found) => {
      mismatches.push(found);
      console.error(`response mismatch: ${describeMismatch(found)}`);
    },
  };
}

/** The id of an organization's sandbox or production environment, for tests that read or write rows directly. */
export async function environmentIdOf(server: TestServer, organizationId: string, kind: 'sandbox' | 'production'): Promise<string> {
  const row = await server.database.db
    .selectFrom('environments')
    .select('id')
    .where('organization_id', '=', organizationId)
    .where('kind', '=', kind)
    .executeTakeFirstOrThrow();
  return row.id;
}

/** Path prefix of an environment's base URL. */
export const prefixOf = (environment: 'sandbox' | 'production') => (environment === 'sandbox' ? '/sandbox' : '');

export const uniqueId = (label = 'id') => `${label}-${randomUUID().slice(0, 12)}`;
