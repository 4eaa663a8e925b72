/**
 * The webhook scenario's events, written from the bench's own process with the statement
 * Billow's API writes them with (`insertEvents`: the event, its deliveries to every
 * subscribed endpoint and the notification, one statement that commits on its own), so
 * that the live phase can be paced at a rate the API, sharing two cores with the worker,
 * PostgreSQL and the receivers, could not reach (about 200 customers/s through it).
 */
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { connectDatabase, insertEvents, type EventRowInput } from '@billow/server/bench-support';

/** Events in one statement when writing a backlog. */
const BACKLOG_CHUNK = 500;
/** The live producer writes the events due every this many ms, in one statement. */
const TICK_MS = 5;

export interface EventTarget {
  databaseUrl: string;
  organizationId: string;
  environmentId: string;
}

type Database = Awaited<ReturnType<typeof connectDatabase>>;

/** A customer.created event as the API writes it; created_at is the clock just before its statement. */
function customerCreated(target: EventTarget, customerId: string, at: Date): EventRowInput {
  const id = randomUUID();
  const object = { id: randomUUID(), object: 'customer', customer_id: customerId, name: `Webhook customer ${customerId}`, email: `${customerId}@bench.example` };
  return {
    id,
    environmentId: target.environmentId,
    organizationId: target.organizationId,
    type: 'customer.created',
    payload: { id, type: 'customer.created', created_at: at.toISOString(), data: { object } },
    orderingKey: object.id,
    at,
    actor: null,
    customerId,
  };
}

async function withDatabase<T>(url: string, work: (database: Database) => Promise<T>): Promise<T> {
  const database = await connectDatabase({ databaseUrl: url, dataDir: null, poolSize: 1 });
  try {
    return await work(database);
  } finally {
    await database.close();
  }
}

function write(database: Database, target: EventTarget, prefix: string, first: number, count: number): Promise<void> {
  const at = new Date();
  const rows = Array.from({ length: count }, (_, i) => customerCreated(target, `${prefix}-${first + i}`, at));
  return insertEvents(database.db, rows);
}

/** `count` events as fast as they can be written, in statements of BACKLOG_CHUNK. */
export function produceBacklog(target: EventTarget, prefix: string, count: number): Promise<void> {
  return withDatabase(target.databaseUrl, async (database) => {
    for (let written = 0; written < count; written += BACKLOG_CHUNK) await write(database, target, prefix, written + 1, Math.min(BACKLOG_CHUNK, count - written));
  });
}

/**
 * `rate` events a second for `seconds`: every TICK_MS, the events due by then in one
 * statement (a late tick writes more), each committing as its statement ends.
 */
export function produceAtRate(target: EventTarget, prefix: string, rate: number, seconds: number): Promise<void> {
  const total = rate * seconds;
  return withDatabase(target.databaseUrl, async (database) => {
    const started = performance.now();
    let written = 0;
    while (written < total) {
      const due = Math.min(total, Math.floor(((performance.now() - started) * rate) / 1000));
      if (due > written) {
        await write(database, target, prefix, written + 1, due - written);
        written = due;
      }
      await sleep(TICK_MS);
    }
  });
}
