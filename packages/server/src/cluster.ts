/**
 * `billow start --workers N` (decision 0040): N server processes on one port,
 * through node:cluster. The primary prepares the database (migrations, the demo
 * organization), forks the workers, prints the summary once all of them listen,
 * and on SIGTERM or SIGINT stops them all gracefully. It serves nothing itself.
 *
 * Each worker is a whole Billow (startBillow) with its own pool, caches and
 * LISTEN connection: the change feed keeps their caches coherent, as between
 * separate servers. Background work (jobs, webhook delivery) runs in worker 1
 * only; the durable job claims would make more safe, but they would only poll.
 * PostgreSQL only: the embedded database is held by one process.
 */
import cluster, { type Worker } from 'node:cluster';
import type { FastifyBaseLogger } from 'fastify';
import { openDatabase } from './admin.js';
import { ensureDemoOrganization } from './bootstrap.js';
import { ConfigError, type Config, type Role } from './config.js';
import { migrate } from './db/migrate.js';
import type { Clock } from './lib/clock.js';
import { displayUrl, summary } from './start-summary.js';

const WORKER_INDEX = 'BILLOW_WORKER_INDEX';
/**
 * Workers start with a young generation of 32 MB semi-spaces (V8's default tops out
 * at 16 MB): a cached check makes its garbage in Node's HTTP objects, and fewer
 * scavenges cut about 12% of its CPU (decision 0041). Node flags given by the
 * operator (NODE_OPTIONS, or on the command line) win.
 */
export const YOUNG_GENERATION_FLAG = '--max-semi-space-size=32';

/** The Node flags a worker starts with: ours, unless the operator set the semi-space size. */
export function workerExecArgv(execArgv: readonly string[], nodeOptions = process.env.NODE_OPTIONS ?? ''): string[] {
  const given = [...execArgv, nodeOptions].some((flag) => /--max[-_]semi[-_]space[-_]size/.test(flag));
  return given ? [...execArgv] : [...execArgv, YOUNG_GENERATION_FLAG];
}

/** A worker that dies after start-up is replaced after this pause. */
const RESTART_DELAY_MS = 1000;

export interface ClusterOptions {
  workers: number;
  role: Role;
  config: Config;
  clock: Clock;
  logger: FastifyBaseLogger;
  print: (text: string) => void;
}

/** In a process forked by `startCluster`: which worker it is (from 1), else null. */
export function clusterWorkerIndex(): number | null {
  if (!cluster.isWorker) return null;
  const index = Number(process.env[WORKER_INDEX]);
  return Number.isInteger(index) && index > 0 ? index : null;
}

/** Why N workers cannot run with this configuration, or null. */
export function clusterRefusal(workers: number, role: Role, config: Config): string | null {
  if (!config.databaseUrl) {
    return `--workers ${workers} needs PostgreSQL (set DATABASE_URL): the embedded database can be opened by one process only; start one process (no --workers), or move to PostgreSQL`;
  }
  if (role === 'worker') return '--workers applies to roles that serve an API (all, api, core, edge); run one --role worker process per machine';
  return null;
}

/** Migrations and the demo organization, once, before any worker starts (they would all try). */
async function prepare(options: ClusterOptions) {
  const database = await openDatabase(options.config);
  try {
    await migrate(database.db, (line) => options.logger.info(line));
    const firstStart = await ensureDemoOrganization(database.db, options.clock, options.config);
    return { firstStart, database: { kind: database.kind, location: database.location } };
  } finally {
    await database.close();
  }
}

export async function startCluster(options: ClusterOptions): Promise<{ url: string; shutdown(reason?: string): Promise<void> }> {
  const refusal = clusterRefusal(options.workers, options.role, options.config);
  if (refusal) throw new ConfigError(refusal);
  const { firstStart, database } = await prepare(options);
  const { logger } = options;
  const workers = new Map<number, Worker>();
  let stopping = false;
  let ready = false;

  cluster.setupPrimary({ execArgv: workerExecArgv(process.execArgv) });
  const fork = (index: number): Promise<number> =>
    new Promise((resolve, reject) => {
      const worker = cluster.fork({ [WORKER_INDEX]: String(index) });
      workers.set(index, worker);
      worker.once('listening', (address) => resolve(address.port));
      worker.once('exit', (code, signal) => {
        if (workers.get(index) === worker) workers.delete(index);
        if (stopping) return;
        if (!ready) return reject(new Error(`worker ${index} exited (${code ?? signal}) before it was listening`));
        logger.error({ worker: index, code, signal }, 'a worker exited; starting another');
        setTimeout(() => void fork(index).catch((error: unknown) => logger.error({ err: error }, 'restarting a worker failed')), RESTART_DELAY_MS);
      });
    });

  /** Resolves true when every worker stopped cleanly (exit code 0). */
  const stopAll = (reason: string): Promise<boolean> => {
    stopping = true;
    logger.info({ reason }, 'stopping every worker');
    const exits = [...workers.values()].map(
      (worker) => new Promise<boolean>((resolve) => (worker.isDead() ? resolve(false) : worker.once('exit', (code) => resolve(code === 0)))),
    );
    for (const worker of workers.values()) worker.process.kill('SIGTERM');
    // Each worker has its own shutdown timeout; past it (and a margin), none is left behind.
    const force = setTimeout(() => {
      for (const worker of workers.values()) worker.process.kill('SIGKILL');
    }, options.config.shutdownTimeoutMs + 2000);
    return Promise.all(exits).then((clean) => {
      clearTimeout(force);
      return clean.every(Boolean);
    });
  };

  let ports: number[];
  try {
    ports = await Promise.all(Array.from({ length: options.workers }, (_, i) => fork(i + 1)));
  } catch (error) {
    await stopAll('a worker failed to start');
    throw error;
  }
  ready = true;
  let closing: Promise<boolean> | null = null;
  const stop = (reason: string) => (closing ??= stopAll(reason));
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    process.once(signal, () => void stop(signal).then((clean) => process.exit(clean ? 0 : 1)));
  }
  const url = displayUrl(options.config, ports[0] ?? options.config.port);
  logger.info({ url, role: options.role, workers: options.workers }, 'billow started');
  options.print(summary(url, firstStart, options.config, database, options.role, { workers: options.workers }));
  return { url, shutdown: async (reason = 'shutdown') => void (await stop(reason)) };
}
