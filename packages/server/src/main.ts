import type { FastifyBaseLogger } from 'fastify';
import type { Redis } from 'ioredis';
import { buildApp } from './app.js';
import { ensureDemoOrganization, type FirstStart } from './bootstrap.js';
import { loadConfig, type Config, type Role } from './config.js';
import type { DatabaseHandle } from './db/connect.js';
import { openDatabase } from './admin.js';
import { migrate } from './db/migrate.js';
import { runsBackgroundWork } from './edge-cache/roles.js';
import { clusterWorkerIndex, startCluster } from './cluster.js';
import { displayUrl, summary } from './start-summary.js';
import { backgroundJobs } from './job-handlers/tasks.js';
import { entitlementChangesFor } from './edge-cache/change-feed.js';
import { JobRunner } from './modules/jobs/runner.js';
import { WebhookDispatcher } from './modules/webhooks/dispatcher.js';
import { webhookSecretBox } from './modules/webhooks/secret-box.js';
import { sandboxInboxUrl } from './modules/mail/queries.js';
import { systemClock, type Clock } from './lib/clock.js';
import { createLogOutput } from './logger.js';
import { armFailpoints } from './lib/failpoints.js';
import type { App } from './http/route-types.js';

/** ioredis (some 20 MB and 70 ms to load) loads only when REDIS_URL is set. */
async function connectRedis(url: string): Promise<Redis> {
  const { Redis } = await import('ioredis');
  return new Redis(url, { maxRetriesPerRequest: 2, enableOfflineQueue: true });
}

export interface StartOptions {
  role?: Role;
  config?: Config;
  clock?: Clock;
  /** Server processes sharing the port (PostgreSQL only; see cluster.ts). */
  workers?: number;
  /** Where the start-up summary goes (stdout by default). */
  print?: (text: string) => void;
}

export interface RunningBillow {
  url: string;
  shutdown(reason?: string): Promise<void>;
}


/**
 * Stops accepting connections and waits for the requests in flight. Node closes the
 * connections that are idle when closing starts, but a keep-alive connection whose
 * request finishes later would stay open until the client lets go (or the keep-alive
 * timeout, far longer than the shutdown timeout): close each as soon as it falls idle.
 */
async function closeGracefully(app: App): Promise<void> {
  const sweep = setInterval(() => app.server.closeIdleConnections(), 50);
  try {
    await app.close();
  } finally {
    clearInterval(sweep);
  }
}

interface Running {
  app: App;
  /** Null when the role runs no background work. */
  jobs: JobRunner | null;
  webhooks: WebhookDispatcher | null;
  redis: Redis | null;
  database: DatabaseHandle;
}

/** Finishes the requests in flight and the running jobs (claiming no more), then closes connections; once. */
function gracefulShutdown(running: Running, logger: FastifyBaseLogger, timeoutMs: number): (reason?: string) => Promise<void> {
  let closing: Promise<void> | null = null;
  return (reason = 'shutdown') => {
    closing ??= (async () => {
      logger.info({ reason }, 'shutting down: no new requests, finishing those in flight');
      const timer = setTimeout(() => {
        logger.error('shutdown took too long; exiting');
        process.exit(1);
      }, timeoutMs);
      timer.unref();
      // Jobs stop being claimed at once; those running finish while the requests in flight do.
      await Promise.all([closeGracefully(running.app), running.jobs?.stop(), running.webhooks?.stop()]);
      await running.redis?.quit().catch(() => undefined);
      await running.database.close();
      clearTimeout(timer);
      logger.info('shutdown complete');
    })();
    return closing;
  };
}

function exitOnSignals(shutdown: (reason: string) => Promise<void>, logger: FastifyBaseLogger): void {
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    process.once(signal, () => {
      shutdown(signal).then(
        () => process.exit(0),
        (error: unknown) => {
          logger.error({ err: error }, 'shutdown failed');
          process.exit(1);
        },
      );
    });
  }
}

function jobRunner(app: App, database: DatabaseHandle, clock: Clock, config: Config, logger: FastifyBaseLogger): JobRunner {
  const media = app.billow.media;
  const handlers = backgroundJobs(database.db, clock, {
    sweepMedia: () => media.sweep(),
    pendingUpdateTtlMs: config.pendingUpdateTtlMs,
    paymentRecoveryAfterMs: config.paymentRecoveryAfterMs,
    jobRetentionMs: config.jobs.retentionMs,
    webhookLogRetentionMs: config.webhooks.logRetentionMs,
    billing: config.billing,
    mail: config.mail,
    publicUrl: config.publicUrl,
    entitlementChanges: entitlementChangesFor(app.billow.entitlementCache, app.billow.reportRoutes),
  });
  const { pollIntervalMs, leaseMs } = config.jobs;
  return new JobRunner({
    db: database.db,
    clock,
    log: logger,
    registry: app.billow.registry,
    handlers,
    pollIntervalMs,
    leaseMs,
    // Renewals run as a job per subscription: this many at once, each in its own transactions.
    concurrency: config.billing.concurrency,
    // The embedded database is locked by this process: no other can be running its jobs.
    soleRunner: database.kind === 'pglite',
  });
}

function webhookDispatcher(app: App, database: DatabaseHandle, clock: Clock, config: Config, logger: FastifyBaseLogger): WebhookDispatcher {
  return new WebhookDispatcher({
    db: database.db,
    clock,
    log: logger,
    registry: app.billow.registry,
    config: config.webhooks,
    secretBox: webhookSecretBox(database.db, clock, config.secret),
    listen: (channel, handler) => database.listen(channel, handler),
  });
}

/**
 * Connections the kernel completes while the process is busy (a burst of clients, a
 * long synchronous step of the embedded database). Node's default of 511 dropped the
 * rest of a 1,000-connection burst, and a dropped connection is retried by its
 * client only after 1, 3, 7… s: a health probe waited 4 to 22 s that way. The kernel
 * caps it at net.core.somaxconn (4096 on current Linux).
 */
const LISTEN_BACKLOG = 4096;

/** config -> dependencies -> buildApp -> listen, with graceful shutdown on SIGTERM and SIGINT. */
export async function startBillow(options: StartOptions = {}): Promise<RunningBillow> {
  const config = options.config ?? loadConfig();
  const role = options.role ?? 'all';
  const clock = options.clock ?? systemClock;
  const output = createLogOutput(config.logLevel, config.logFormat);
  const logger = output.logger as unknown as FastifyBaseLogger;
  armFailpoints(config.failpoints);
  const worker = clusterWorkerIndex();
  if ((options.workers ?? 1) > 1 && worker === null) {
    return startCluster({ workers: options.workers ?? 1, role, config, clock, logger, print: options.print ?? output.print });
  }
  // In a cluster, the primary prepared the database and prints the summary; worker 1 alone runs background work.
  const background = runsBackgroundWork(role) && (worker === null || worker === 1);
  const database = await openDatabase(config);
  let redis: Redis | null = null;
  let app: App | null = null;
  try {
    await migrate(database.db, (line) => logger.info(line));
    const firstStart: FirstStart = worker === null ? await ensureDemoOrganization(database.db, clock, config) : { kind: 'existing' };
    if (!config.secret && database.kind === 'postgres' && (worker ?? 1) === 1) {
      logger.warn('BILLOW_SECRET is not set: webhook secrets are sealed with a key kept in the same database (set it for protection at rest)');
    }
    redis = config.redisUrl ? await connectRedis(config.redisUrl) : null;
    app = await buildApp({ config, database, clock, logger, role, redis });
    await app.listen({ port: config.port, host: config.host, backlog: LISTEN_BACKLOG });
    const jobs = background ? jobRunner(app, database, clock, config, logger) : null;
    await jobs?.start();
    const webhooks = background && config.webhooks.pollIntervalMs > 0 ? webhookDispatcher(app, database, clock, config, logger) : null;
    await webhooks?.start();
    const shutdown = gracefulShutdown({ app, jobs, webhooks, redis, database }, logger, config.shutdownTimeoutMs);
    // Before the summary announces the server: whoever reads it may signal at once.
    exitOnSignals(shutdown, logger);
    // A worker whose primary is gone (killed, not stopped) must not live on, holding the port and its jobs.
    if (worker !== null) process.once('disconnect', () => void shutdown('the cluster primary exited').finally(() => process.exit(0)));
    const address = app.server.address();
    const port = typeof address === 'object' && address ? address.port : config.port;
    const url = displayUrl(config, port);
    logger.info({ url, role, database: database.kind, ...(worker === null ? {} : { worker }) }, 'billow started');
    // Last, once listening: the start-up log lines above it, the requests' below it.
    if (worker === null) {
      const sandboxInbox = firstStart.kind === 'existing' ? null : await sandboxInboxUrl(database.db, clock, config.secret, firstStart.credentials.organizationId, url);
      (options.print ?? output.print)(summary(url, firstStart, config, database, role, { sandboxInbox }));
    }
    return { url, shutdown };
  } catch (error) {
    await app?.close().catch(() => undefined);
    await redis?.quit().catch(() => undefined);
    await database.close().catch(() => undefined);
    throw error;
  }
}
