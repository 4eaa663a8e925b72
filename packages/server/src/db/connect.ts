import fs from 'node:fs';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { createRequire } from 'node:module';
import { Kysely, PostgresDialect, sql, type KyselyConfig } from 'kysely';
import { preparingPool } from './prepared.js';
import pg from 'pg';
import type { Database } from './schema.js';
import { lockDataDirectory, type DirectoryLock } from './lock.js';
import { PGliteDialect } from './pglite-dialect.js';
import { listenPostgres, type NotificationHandler } from './notifications.js';
import { holdOnPglite, holdOnPostgres } from './lease-holder.js';
import { DEFAULT_REPLICA_OPTIONS, ReplicaGate, gatedPool, type ReplicaCounts, type ReplicaOptions } from './replica.js';

export type Db = Kysely<Database>;

export interface DatabaseHandle {
  db: Db;
  /**
   * For reads that a replica may serve (lists, analytics, the Edge's cache misses), never for a
   * write: the replica when one is set and has caught up (decision 0123), else `db` itself.
   */
  reads: Db;
  /** How many reads the replica and the primary served through `reads`, when a replica is set. */
  replicaCounts?: ReplicaCounts;
  /** The replica's redacted URL, when one is set. */
  replicaLocation?: string;
  kind: 'postgres' | 'pglite';
  /** Where the data lives, for messages: a redacted URL or a directory. */
  location: string;
  ping(): Promise<void>;
  /** Calls `handler` for each NOTIFY on `channel`, from any process; returns the unsubscribe. */
  listen(channel: string, handler: NotificationHandler): Promise<() => Promise<void>>;
  /** The embedded database's data directory as an uncompressed tar (PGlite only). */
  dumpDataDir?(): Promise<Blob>;
  close(): Promise<void>;
}

export interface ConnectOptions {
  databaseUrl: string | null;
  /** A streaming replica of `databaseUrl` (DATABASE_REPLICA_URL), for `reads`. */
  replicaUrl?: string | null;
  replicaOptions?: ReplicaOptions;
  /** Directory for the embedded database; `null` keeps it in memory (tests). */
  dataDir: string | null;
  poolSize?: number;
  /**
   * For an in-memory embedded database: start from this dump of a data directory
   * (PGlite's dumpDataDir) instead of an empty cluster. Tests use a migrated one.
   */
  fromDump?: Blob;
  /** Called for each query run (tests count queries with it). */
  onQuery?: () => void;
}

function redact(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return 'postgres';
  }
}

/**
 * bigint columns come back as numbers, as PGlite returns them: amounts are
 * capped far below 2^53 (lib/money.ts), so none loses precision.
 */
const INT8_OID = 20;
const pgTypes = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    oid === INT8_OID ? (value: string) => Number(value) : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
};

function queryLog(onQuery: (() => void) | undefined): KyselyConfig['log'] {
  return onQuery ? (event) => (event.level === 'query' ? onQuery() : undefined) : undefined;
}

function postgresPool(url: string, poolSize: number, readOnly = false): pg.Pool {
  const pool = preparingPool(
    new pg.Pool({
      connectionString: url,
      max: poolSize,
      types: pgTypes,
      // A replica refuses writes anyway; the setting makes any other server used for reads refuse them too.
      ...(readOnly ? { options: '-c default_transaction_read_only=on', connectionTimeoutMillis: 2_000 } : {}),
    }),
  );
  // An idle connection that the server closes (a restart, a failover, DROP DATABASE ... FORCE) is an 'error'
  // event on the pool, which would end the process if unheard. The pool drops that connection; the next
  // query opens a new one, and a query on a dead connection fails on its own with its error.
  pool.on('error', () => undefined);
  // A checked-out client has no listener of the pool's: a server that dies under a running query (a crash,
  // a failover) would end the process with an unheard 'error'. The query fails with the error instead.
  pool.on('connect', (client) => client.on('error', () => undefined));
  return pool;
}

interface Reads {
  reads: Db;
  replicaCounts?: ReplicaCounts;
  end(): Promise<void>;
}

function replicaReads(primary: pg.Pool, options: ConnectOptions, poolSize: number): Reads | null {
  if (!options.replicaUrl) return null;
  const replica = postgresPool(options.replicaUrl, poolSize, true);
  const gate = new ReplicaGate(primary, replica, options.replicaOptions ?? DEFAULT_REPLICA_OPTIONS);
  const reads = new Kysely<Database>({ dialect: new PostgresDialect({ pool: gatedPool(gate, primary, replica) }), log: queryLog(options.onQuery) });
  return { reads, replicaCounts: gate.counts, end: () => replica.end() };
}

async function connectPostgres(url: string, options: ConnectOptions): Promise<DatabaseHandle> {
  const poolSize = options.poolSize ?? 10;
  const pool = postgresPool(url, poolSize);
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }), log: queryLog(options.onQuery) });
  const replica = replicaReads(pool, options, poolSize);
  const holder = await holdOnPostgres(db, url);
  return {
    db,
    reads: replica?.reads ?? db,
    ...(replica ? { replicaCounts: replica.replicaCounts, replicaLocation: redact(options.replicaUrl!) } : {}),
    kind: 'postgres',
    location: redact(url),
    ping: async () => {
      await sql`select 1`.execute(db);
    },
    listen: (channel, handler) => listenPostgres(url, channel, handler),
    close: async () => {
      await replica?.end();
      await db.destroy();
      await holder.release();
    },
  };
}

/**
 * PostgreSQL's own default of 128 MB of shared buffers is all touched when PGlite starts, in the
 * process's memory: 16 MB holds a small seller's hot pages, and the operating system's file cache
 * the rest (decision 0116; measured with `npm run bench -- start`).
 */
const EMBEDDED_SETTINGS = ['-c', 'shared_buffers=16MB'];

/**
 * Creates the cluster of a new data directory in a worker thread. PGlite's initdb runs in a
 * WebAssembly memory of its own, some 350 MB that the main thread would hold until a major
 * garbage collection, which an idle server may not run for hours; a worker's memory goes back
 * to the system when it ends (decision 0116).
 */
async function initializeDataDirectory(dataDir: string, startParams: string[]): Promise<void> {
  if (fs.existsSync(path.join(dataDir, 'PG_VERSION'))) return;
  const code = `
    const { workerData } = require('node:worker_threads');
    const { PGlite } = require(workerData.module);
    PGlite.create({ dataDir: workerData.dataDir, startParams: workerData.startParams }).then((pglite) => pglite.close());`;
  const module = createRequire(import.meta.url).resolve('@electric-sql/pglite');
  const worker = new Worker(code, { eval: true, workerData: { module, dataDir, startParams } });
  await new Promise<void>((resolve, reject) => {
    worker.once('error', reject);
    worker.once('exit', (code) => (code === 0 ? resolve() : reject(new Error(`Creating the embedded database in ${dataDir} failed (exit ${code})`))));
  });
}

async function connectPglite(dataDir: string | null, fromDump?: Blob, onQuery?: () => void): Promise<DatabaseHandle> {
  const { PGlite } = await import('@electric-sql/pglite');
  const startParams = [...PGlite.defaultStartParams, ...EMBEDDED_SETTINGS];
  let lock: DirectoryLock | null = null;
  if (dataDir) {
    fs.mkdirSync(path.dirname(dataDir), { recursive: true });
    lock = lockDataDirectory(dataDir);
  }
  try {
    if (dataDir) await initializeDataDirectory(dataDir, startParams);
    const pglite = await PGlite.create({ startParams, ...(dataDir ? { dataDir } : fromDump ? { loadDataDir: fromDump } : {}) });
    const db = new Kysely<Database>({ dialect: new PGliteDialect(pglite), log: queryLog(onQuery) });
    await holdOnPglite(db, (text, values) => pglite.query<{ taken: boolean }>(text, values));
    return {
      db,
      reads: db,
      kind: 'pglite',
      location: dataDir ?? 'memory',
      ping: async () => {
        await sql`select 1`.execute(db);
      },
      // Through a checked-out connection, so LISTEN never lands inside another's transaction.
      listen: (channel, handler) =>
        db.connection().execute(async () => {
          const unlisten = await pglite.listen(channel, (payload) => handler(payload));
          return async () => {
            if (!pglite.closed) await db.connection().execute(() => unlisten());
          };
        }),
      dumpDataDir: () => db.connection().execute(async () => (await pglite.dumpDataDir('none')) as Blob),
      close: async () => {
        await db.destroy();
        lock?.release();
      },
    };
  } catch (error) {
    lock?.release();
    throw error;
  }
}

export function connectDatabase(options: ConnectOptions): Promise<DatabaseHandle> {
  return options.databaseUrl
    ? connectPostgres(options.databaseUrl, options)
    : connectPglite(options.dataDir, options.fromDump, options.onQuery);
}
