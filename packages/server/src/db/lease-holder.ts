/**
 * Who holds a lease (an Idempotency-Key's claim, a job, a payment intent): each database
 * handle takes a session advisory lock of its own for its lifetime, on a connection of its
 * own, and leases name that lock's key. The lock dies with the connection, so a lease whose
 * holder's lock is free belongs to a process that is gone, and can be taken over at once
 * instead of after its expiry (decision 0051). PGlite runs the same statements on its one
 * session: a new process opens a new session, in which no earlier holder's lock exists.
 */
import pg from 'pg';
import { sql, type RawBuilder } from 'kysely';

/** The first half of every holder lock's key ('Bill'), so that no other use of advisory locks is taken for one. */
const HOLDER_CLASS = 0x42696c6c;
const MAX_KEY = 2 ** 31 - 1;

export interface LeaseHolder {
  /** The key of this handle's lock: what its leases record as their holder. */
  id: number;
  release(): Promise<void>;
}

/** A database handle's pool (connect.ts's Db), held by identity only: this file needs nothing else of it. */
type Handle = object;

const holders = new WeakMap<Handle, number>();

/** The holder id of the handle whose pool `db` is; null for a database that was not connected through connectDatabase. */
export function leaseHolderOf(db: Handle): number | null {
  return holders.get(db) ?? null;
}

type Run = (text: string, values: unknown[]) => Promise<{ rows: { taken: boolean }[] }>;

async function lockAFreeKey(run: Run): Promise<number> {
  for (;;) {
    const id = 1 + Math.floor(Math.random() * MAX_KEY);
    const { rows } = await run('SELECT pg_try_advisory_lock($1::int, $2::int) AS taken', [HOLDER_CLASS, id]);
    if (rows[0]?.taken) return id;
  }
}

const RELOCK_MS = 1000;

/**
 * On PostgreSQL: a connection kept open for the handle's lifetime, holding the lock. When the
 * connection is cut (a restart of PostgreSQL, a failover to a promoted replica), the lock is
 * taken again, under the same key, on a new connection: until then this process's leases look
 * abandoned, and whoever takes one over fences this process out of it; after, the leases it
 * takes are its own again, wherever the database now runs.
 */
export async function holdOnPostgres(db: Handle, url: string): Promise<LeaseHolder> {
  let released = false;
  let current: pg.Client | null = null;
  let timer: NodeJS.Timeout | null = null;
  const later = () => {
    if (released || timer) return;
    timer = setTimeout(() => {
      timer = null;
      relock();
    }, RELOCK_MS);
    timer.unref();
  };
  const connect = async (): Promise<pg.Client> => {
    const client = new pg.Client({ connectionString: url });
    client.on('error', () => undefined);
    client.once('end', () => {
      if (current !== client) return;
      current = null;
      later();
    });
    await client.connect();
    return client;
  };
  const relock = () => {
    connect()
      .then(async (client) => {
        const { rows } = await client.query<{ taken: boolean }>('SELECT pg_try_advisory_lock($1::int, $2::int) AS taken', [HOLDER_CLASS, id]);
        if (!released && rows[0]?.taken) current = client;
        else {
          await client.end();
          later();
        }
      })
      .catch(later);
  };
  const first = await connect();
  current = first;
  const id = await lockAFreeKey((text, values) => first.query(text, values));
  holders.set(db, id);
  return {
    id,
    release: async () => {
      released = true;
      if (timer) clearTimeout(timer);
      await current?.end().catch(() => undefined);
    },
  };
}

/** On PGlite: the lock on its one session, which ends with the process. */
export async function holdOnPglite(db: Handle, run: Run): Promise<LeaseHolder> {
  const id = await lockAFreeKey(run);
  holders.set(db, id);
  return { id, release: async () => undefined };
}

/** True when the lease holder in `column` (an integer column) is a handle that is gone: no session holds its lock. */
export function holderGone(column: RawBuilder<unknown>): RawBuilder<boolean> {
  return sql<boolean>`(${column} IS NOT NULL AND ${column} NOT IN (
    SELECT objid::bigint FROM pg_locks
     WHERE locktype = 'advisory' AND classid = ${sql.lit(HOLDER_CLASS)} AND objsubid = 2 AND granted
       AND database = (SELECT oid FROM pg_database WHERE datname = current_database())))`;
}
