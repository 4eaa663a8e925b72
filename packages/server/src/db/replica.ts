/**
 * Reads that may be served by a streaming replica (decision 0123): lists, analytics, the Edge's
 * cache misses. A read goes to the replica only once the replica has replayed everything the
 * primary had flushed when the read began, so every write acknowledged before it (by this
 * process or any other) is seen; when the replica cannot catch up within a bound, or is down,
 * the read goes to the primary instead.
 */
import type pg from 'pg';
import { setTimeout as sleep } from 'node:timers/promises';

/** A WAL position ('16/B374D848') as a number that orders. */
export function parseLsn(text: string): bigint {
  const [high, low] = text.split('/');
  return (BigInt(`0x${high}`) << 32n) + BigInt(`0x${low}`);
}

/**
 * A value read by a query that starts no earlier than the call. Callers that arrive while a
 * query runs share the next one, so a burst of reads costs two queries, not one each.
 */
export class FreshRead<T> {
  private running: Promise<T> | null = null;
  private queued: Promise<T> | null = null;

  constructor(private readonly fetch: () => Promise<T>) {}

  read(): Promise<T> {
    if (!this.running) return this.start();
    this.queued ??= this.running
      .then(
        () => undefined,
        () => undefined,
      )
      .then(() => {
        this.queued = null;
        return this.running ?? this.start();
      });
    return this.queued;
  }

  private start(): Promise<T> {
    const started: Promise<T> = this.fetch().finally(() => {
      if (this.running === started) this.running = null;
    });
    this.running = started;
    return started;
  }
}

/** A flushed position: every commit acknowledged so far (synchronous commit) lies before it. */
const PRIMARY_FLUSHED = 'SELECT pg_current_wal_flush_lsn()::text AS lsn';
/** What the replica has replayed; once promoted, it is a primary and has everything it holds. */
const REPLICA_REPLAYED =
  'SELECT (CASE WHEN pg_is_in_recovery() THEN pg_last_wal_replay_lsn() ELSE pg_current_wal_flush_lsn() END)::text AS lsn';

/** Through a checked-out client: pool.query's callback form is not one that prepared.ts's clients answer. */
async function lsnOf(pool: pg.Pool, text: string): Promise<bigint> {
  const client = await pool.connect();
  let rows: { lsn: string | null }[];
  try {
    ({ rows } = await client.query<{ lsn: string | null }>(text));
    client.release();
  } catch (error) {
    client.release(error as Error);
    throw error;
  }
  const lsn = rows[0]?.lsn;
  if (!lsn) throw new Error('The server reported no WAL position');
  return parseLsn(lsn);
}

export interface ReplicaOptions {
  /** How long a read waits for the replica to catch up before it goes to the primary. */
  maxWaitMs: number;
  /** How often the replica is asked how far it is while a read waits. */
  pollMs: number;
  /** After an error on the replica, how long reads skip it. */
  restMs: number;
}

export const DEFAULT_REPLICA_OPTIONS: ReplicaOptions = { maxWaitMs: 250, pollMs: 2, restMs: 1000 };

export interface ReplicaCounts {
  /** Reads the replica served. */
  replica: number;
  /** Reads that went to the primary: the replica was behind past the bound, down, or resting after an error. */
  primary: number;
}

/** Decides, for each read, whether the replica may serve it. */
export class ReplicaGate {
  readonly counts: ReplicaCounts = { replica: 0, primary: 0 };
  private replayed = 0n;
  private restingUntil = 0;
  private readonly primaryFlushed: FreshRead<bigint>;
  private readonly replicaReplayed: FreshRead<bigint>;

  constructor(
    primary: pg.Pool,
    replica: pg.Pool,
    private readonly options: ReplicaOptions = DEFAULT_REPLICA_OPTIONS,
  ) {
    this.primaryFlushed = new FreshRead(() => lsnOf(primary, PRIMARY_FLUSHED));
    this.replicaReplayed = new FreshRead(() => lsnOf(replica, REPLICA_REPLAYED));
  }

  /** A failure on a replica connection: reads skip the replica for a while. */
  rest(): void {
    this.restingUntil = Date.now() + this.options.restMs;
  }

  /** True when a read starting now may go to the replica: it has replayed what the primary had flushed. */
  async admits(): Promise<boolean> {
    if (Date.now() < this.restingUntil) return false;
    try {
      const target = await this.primaryFlushed.read();
      const deadline = Date.now() + this.options.maxWaitMs;
      while (this.replayed < target) {
        const replayed = await this.replicaReplayed.read();
        if (replayed > this.replayed) this.replayed = replayed;
        if (this.replayed >= target) break;
        if (Date.now() >= deadline) return false;
        await sleep(this.options.pollMs);
      }
      return true;
    } catch {
      this.rest();
      return false;
    }
  }
}

/**
 * The pool Kysely reads through: each connection it asks for comes from the replica when the
 * gate admits the read, else from the primary.
 */
export function gatedPool(gate: ReplicaGate, primary: pg.Pool, replica: pg.Pool): pg.Pool {
  replica.on('error', () => gate.rest());
  const connect = async () => {
    if (await gate.admits()) {
      try {
        const client = await replica.connect();
        gate.counts.replica++;
        return client;
      } catch {
        gate.rest();
      }
    }
    gate.counts.primary++;
    return primary.connect();
  };
  return { connect, end: async () => undefined } as unknown as pg.Pool;
}
