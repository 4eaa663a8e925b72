/**
 * Durable jobs (decision 0027) through the real database: enqueued in the caller's
 * transaction, retried with backoff until dead, taken over when their process died,
 * run once by racing runners, recurring, measured at /metrics, and waited for on stop.
 * Each test runs jobs of its own names: on PostgreSQL the database is shared by every test file.
 */
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { Registry } from 'prom-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectDatabase, type DatabaseHandle } from '../src/db/connect.js';
import { migrate } from '../src/db/migrate.js';
import { backgroundJobs } from '../src/job-handlers/tasks.js';
import { ManualClock } from '../src/lib/clock.js';
import { claimDueJobs } from '../src/modules/jobs/repo.js';
import { JobRunner, type JobHandler, type JobHandlers } from '../src/modules/jobs/runner.js';
import { enqueueJob, listJobs, retryDeadJob } from '../src/modules/jobs/service.js';
import { openTestDatabase, startTestServer, uniqueId, type TestServer } from './harness.js';

const POSTGRES_URL = process.env.DATABASE_URL || null;
const START = new Date('2026-03-01T00:00:00Z');
const MINUTE = 60_000;

let server: TestServer;
let clock: ManualClock;

beforeAll(async () => {
  clock = new ManualClock(START);
  server = await startTestServer({ clock });
});
afterAll(() => server.close());

function runner(handlers: JobHandlers, options: { db?: DatabaseHandle; registry?: Registry; leaseMs?: number; concurrency?: number } = {}) {
  return new JobRunner({
    db: (options.db ?? server.database).db,
    clock,
    log: server.app.log,
    registry: options.registry ?? new Registry(),
    handlers,
    leaseMs: options.leaseMs,
    concurrency: options.concurrency,
  });
}

async function jobsNamed(name: string) {
  return server.database.db.selectFrom('jobs').selectAll().where('name', '=', name).orderBy('id').execute();
}

const succeeding = (): JobHandler & { payloads: Record<string, unknown>[] } => {
  const payloads: Record<string, unknown>[] = [];
  return { payloads, run: async (payload) => void payloads.push(payload) };
};

describe('enqueueing', () => {
  it('queues a job only if the transaction that enqueues it commits', async () => {
    const name = uniqueId('job');
    const rolledBack = server.database.db.transaction().execute(async (tx) => {
      await enqueueJob(tx, { name, payload: { n: 1 } });
      throw new Error('the change failed');
    });
    await expect(rolledBack).rejects.toThrow('the change failed');
    expect(await jobsNamed(name)).toEqual([]);

    await server.database.db.transaction().execute((tx) => enqueueJob(tx, { name, payload: { n: 2 } }));
    const handler = succeeding();
    expect(await runner({ [name]: handler }).runDue()).toBe(1);
    expect(handler.payloads).toEqual([{ n: 2 }]);
  });

  it('runs a job no earlier than its runAt by the injected clock', async () => {
    const name = uniqueId('job');
    await enqueueJob(server.database.db, { name, runAt: new Date(clock.now().getTime() + 10 * MINUTE) });
    const handler = succeeding();
    const jobs = runner({ [name]: handler });
    clock.advance(10 * MINUTE - 1);
    expect(await jobs.runDue()).toBe(0);
    clock.advance(1);
    expect(await jobs.runDue()).toBe(1);
    expect(handler.payloads).toHaveLength(1);
  });

  it('never queues the same key twice while one is waiting, and queues it again once it ran', async () => {
    const name = uniqueId('job');
    const key = `renew:${randomUUID()}:2026-04-01`;
    const first = await enqueueJob(server.database.db, { name, key });
    const second = await enqueueJob(server.database.db, { name, key });
    expect(first).toEqual(expect.any(Number));
    expect(second).toBeNull();
    await runner({ [name]: succeeding() }).runDue();
    expect(await enqueueJob(server.database.db, { name, key })).toEqual(expect.any(Number));
    expect((await jobsNamed(name)).map((job) => job.state)).toEqual(['succeeded', 'pending']);
  });
});

describe('claiming', () => {
  it('takes jobs that fell due by their time first (oldest first; a backlog queued for at once must not hold back a recurring sweep), then those queued for at once, then expired leases, and never one not yet due', async () => {
    const name = uniqueId('job');
    const claim = (limit: number, lockedBy: string) =>
      claimDueJobs(server.database.db, { names: [name], now: clock.now(), limit, lockedBy, lockedUntil: new Date(clock.now().getTime() + 5 * MINUTE) });
    const at = (minutes: number) => new Date(clock.now().getTime() + minutes * MINUTE);
    // A job claimed by a process that died: its lease runs out a minute from now.
    await enqueueJob(server.database.db, { name, key: 'abandoned', runAt: at(-3) });
    const [abandoned] = await claimDueJobs(server.database.db, { names: [name], now: clock.now(), limit: 1, lockedBy: 'a-process-that-died', lockedUntil: at(1) });
    expect(abandoned).toMatchObject({ unique_key: 'abandoned', state: 'running' });
    await enqueueJob(server.database.db, { name, key: 'later', runAt: at(1) });
    await enqueueJob(server.database.db, { name, key: 'due-second', runAt: at(-1) });
    await enqueueJob(server.database.db, { name, key: 'now-first' });
    await enqueueJob(server.database.db, { name, key: 'due-first', runAt: at(-2) });
    await enqueueJob(server.database.db, { name, key: 'now-second' });

    const keys = (jobs: { unique_key: string | null }[]) => jobs.map((job) => job.unique_key).sort();
    // One at a time, the order shows; the abandoned job's lease and the later one's time have not come.
    for (const key of ['due-first', 'due-second', 'now-first', 'now-second']) expect(keys(await claim(1, 'runner-a'))).toEqual([key]);
    expect(await claim(10, 'runner-a')).toEqual([]);
    clock.advance(MINUTE);
    const last = await claim(10, 'runner-b');
    expect(keys(last)).toEqual(['abandoned', 'later']);
    expect(last.find((job) => job.unique_key === 'abandoned')).toMatchObject({ attempts: 2, locked_by: 'runner-b' });
    expect(await claim(10, 'runner-b')).toEqual([]);
  });
});

describe('failures', () => {
  it('retries a failing job with doubling waits, then keeps it dead with its error; a retry by hand runs it again', async () => {
    const name = uniqueId('job');
    let failing = true;
    let calls = 0;
    const registry = server.app.billow.registry;
    const handler: JobHandler = {
      retry: { attempts: 3, backoffMs: 1000 },
      run: async () => {
        calls++;
        if (failing) throw new Error(`provider unreachable (call ${calls})`);
      },
    };
    const jobs = runner({ [name]: handler }, { registry });
    const id = (await enqueueJob(server.database.db, { name }))!;
    expect(await jobs.runDue()).toBe(1);
    const [afterFirst] = await jobsNamed(name);
    expect(afterFirst).toMatchObject({ state: 'failed', attempts: 1, run_at: new Date(clock.now().getTime() + 1000) });
    expect(afterFirst!.last_error).toContain('provider unreachable (call 1)');

    clock.advance(999);
    expect(await jobs.runDue()).toBe(0);
    clock.advance(1);
    expect(await jobs.runDue()).toBe(1);
    expect((await jobsNamed(name))[0]).toMatchObject({ state: 'failed', attempts: 2, run_at: new Date(clock.now().getTime() + 2000) });
    clock.advance(2000);
    expect(await jobs.runDue()).toBe(1);
    const [dead] = await jobsNamed(name);
    expect(dead).toMatchObject({ state: 'dead', attempts: 3, finished_at: clock.now() });
    expect(dead!.last_error).toContain('provider unreachable (call 3)');
    clock.advance(60 * MINUTE);
    expect(await jobs.runDue()).toBe(0);
    expect(calls).toBe(3);

    expect((await listJobs(server.database.db, { state: 'dead' })).map((job) => job.id)).toContain(id);
    failing = false;
    expect(await retryDeadJob(server.database.db, id)).toMatchObject({ id, state: 'pending', attempts: 0 });
    await expect(retryDeadJob(server.database.db, id)).rejects.toThrow('is pending, not dead');
    expect(await jobs.runDue()).toBe(1);
    expect((await jobsNamed(name))[0]).toMatchObject({ state: 'succeeded', attempts: 1 });

    const metrics = (await server.request('GET', '/metrics')).text;
    expect(metrics).toContain(`billow_job_runs_total{name="${name}",outcome="failed"} 2`);
    expect(metrics).toContain(`billow_job_runs_total{name="${name}",outcome="dead"} 1`);
    expect(metrics).toContain(`billow_job_runs_total{name="${name}",outcome="succeeded"} 1`);
    expect(metrics).toContain(`billow_job_duration_seconds_count{name="${name}"} 4`);
  });

  it('runs again a job whose process died, once its lease ran out', async () => {
    const name = uniqueId('job');
    await enqueueJob(server.database.db, { name, payload: { invoice: 'INV-1' } });
    // What a process that claimed the job and died leaves behind.
    const [claimed] = await claimDueJobs(server.database.db, {
      names: [name],
      now: clock.now(),
      limit: 1,
      lockedBy: 'a-process-that-died',
      lockedUntil: new Date(clock.now().getTime() + 5 * MINUTE),
    });
    expect(claimed).toMatchObject({ state: 'running', attempts: 1 });
    const handler = succeeding();
    const jobs = runner({ [name]: handler }, { leaseMs: 5 * MINUTE });
    clock.advance(5 * MINUTE - 1);
    expect(await jobs.runDue()).toBe(0);
    clock.advance(1);
    expect(await jobs.runDue()).toBe(1);
    expect(handler.payloads).toEqual([{ invoice: 'INV-1' }]);
    expect((await jobsNamed(name))[0]).toMatchObject({ state: 'succeeded', attempts: 2, locked_by: null });
  });

  // Only the embedded database has a sole runner; on a shared PostgreSQL it would release other tests' jobs.
  it.skipIf(POSTGRES_URL)('as the sole runner of its database (embedded), runs at start the jobs a dead process left running', async () => {
    const name = uniqueId('job');
    await enqueueJob(server.database.db, { name });
    await claimDueJobs(server.database.db, { names: [name], now: clock.now(), limit: 1, lockedBy: 'a-process-that-died', lockedUntil: new Date(clock.now().getTime() + 5 * MINUTE) });
    const handler = succeeding();
    const jobs = new JobRunner({ db: server.database.db, clock, log: server.app.log, registry: new Registry(), handlers: { [name]: handler }, soleRunner: true });
    await jobs.start();
    await expect.poll(() => handler.payloads.length, { timeout: 5000, interval: 20 }).toBe(1);
    await jobs.stop();
    expect((await jobsNamed(name))[0]).toMatchObject({ state: 'succeeded', attempts: 2 });
  });

  it('shows queue depth by name and state at /metrics', async () => {
    const name = uniqueId('job');
    for (let i = 0; i < 3; i++) await enqueueJob(server.database.db, { name });
    await enqueueJob(server.database.db, { name, runAt: new Date(clock.now().getTime() + MINUTE) });
    let metrics = (await server.request('GET', '/metrics')).text;
    expect(metrics).toContain(`billow_job_queue_depth{name="${name}",state="pending"} 4`);
    await runner({ [name]: succeeding() }).runDue();
    metrics = (await server.request('GET', '/metrics')).text;
    expect(metrics).toContain(`billow_job_queue_depth{name="${name}",state="pending"} 1`);
  });
});

describe('polling', () => {
  it('keeps its concurrency busy and records each success once, with a later claim or before it waits', async () => {
    const name = uniqueId('job');
    for (let n = 0; n < 25; n++) await enqueueJob(server.database.db, { name, payload: { n } });
    let running = 0;
    let most = 0;
    const handler: JobHandler & { payloads: Record<string, unknown>[] } = {
      payloads: [],
      run: async (payload) => {
        most = Math.max(most, ++running);
        await new Promise((resolve) => setTimeout(resolve, 5 + Number(payload.n) % 7));
        running--;
        handler.payloads.push(payload);
      },
    };
    const jobs = new JobRunner({ db: server.database.db, clock, log: server.app.log, registry: new Registry(), handlers: { [name]: handler }, pollIntervalMs: 20, concurrency: 4 });
    await jobs.start();
    await expect.poll(async () => (await jobsNamed(name)).filter((job) => job.state === 'succeeded').length, { timeout: 10_000, interval: 50 }).toBe(25);
    await jobs.stop();
    expect(handler.payloads.map((p) => p.n).sort((a, b) => Number(a) - Number(b))).toEqual([...Array(25).keys()]);
    expect(most).toBeLessThanOrEqual(4);
    expect((await jobsNamed(name)).every((job) => job.attempts === 1 && job.locked_by === null && job.finished_at !== null)).toBe(true);
  });
});

describe('stopping', () => {
  it('waits for a running job, and claims nothing more', async () => {
    const name = uniqueId('job');
    let release!: () => void;
    let started!: () => void;
    const running = new Promise<void>((resolve) => (started = resolve));
    const handler: JobHandler = {
      run: () => {
        started();
        return new Promise((resolve) => (release = resolve));
      },
    };
    await enqueueJob(server.database.db, { name });
    await enqueueJob(server.database.db, { name, runAt: new Date(clock.now().getTime() + 1) });
    const jobs = new JobRunner({ db: server.database.db, clock, log: server.app.log, registry: new Registry(), handlers: { [name]: handler }, pollIntervalMs: 10, concurrency: 1 });
    await jobs.start();
    await running;
    let stopped = false;
    const stopping = jobs.stop().then(() => (stopped = true));
    clock.advance(MINUTE);
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect(stopped).toBe(false);
    release();
    await stopping;
    expect((await jobsNamed(name)).map((job) => job.state)).toEqual(['succeeded', 'pending']);
  });
});

/** On PostgreSQL, a database of its own (recurring jobs are shared by name); on PGlite every test database is its own. */
async function isolatedDatabase(): Promise<{ database: DatabaseHandle; drop(): Promise<void> }> {
  if (!POSTGRES_URL) {
    const database = await openTestDatabase();
    return { database, drop: () => database.close() };
  }
  const name = `billow_jobs_${randomUUID().replaceAll('-', '').slice(0, 12)}`;
  const admin = async (text: string) => {
    const client = new pg.Client({ connectionString: POSTGRES_URL });
    await client.connect();
    await client.query(text).finally(() => client.end());
  };
  await admin(`CREATE DATABASE ${name}`);
  const url = new URL(POSTGRES_URL);
  url.pathname = `/${name}`;
  const database = await connectDatabase({ databaseUrl: url.toString(), dataDir: null, poolSize: 5 });
  await migrate(database.db);
  return {
    database,
    drop: async () => {
      await database.close();
      await admin(`DROP DATABASE ${name}`);
    },
  };
}

describe('recurring tasks', () => {
  it('run once per period across two runners, each on its schedule', async () => {
    const { database, drop } = await isolatedDatabase();
    try {
      const runs: Record<string, number> = {};
      const counted = (handlers: JobHandlers): JobHandlers =>
        Object.fromEntries(
          Object.entries(handlers).map(([name, handler]) => [
            name,
            {
              ...handler,
              run: (payload, ctx) => {
                runs[name] = (runs[name] ?? 0) + 1;
                return handler.run(payload, ctx);
              },
            } satisfies JobHandler,
          ]),
        );
      const tasks = () =>
        counted(
          backgroundJobs(database.db, clock, {
            pendingUpdateTtlMs: 23 * 60 * MINUTE,
            paymentRecoveryAfterMs: MINUTE,
            jobRetentionMs: 7 * 24 * 60 * MINUTE,
            sweepMedia: async () => 0,
            // The billing sweep is a recurring task too, but it belongs to the billing engine's tests.
            billing: { sweepIntervalMs: 0, dunningDays: [1] },
          }),
        );
      const [a, b] = [runner(tasks(), { db: database }), runner(tasks(), { db: database })];
      await Promise.all([a.scheduleRecurring(), b.scheduleRecurring()]);
      await Promise.all([a.runDue(), b.runDue()]);
      const once = { 'recover-payments': 1, 'price-analytics': 1, 'purge-idempotency-keys': 1, 'sweep-unused-uploads': 1, 'purge-finished-jobs': 1, 'prune-webhook-logs': 1, 'purge-mail-and-sign-ins': 1 };
      expect(runs).toEqual(once);

      clock.advance(15 * MINUTE);
      await Promise.all([a.runDue(), b.runDue()]);
      expect(runs).toEqual({ ...once, 'recover-payments': 2, 'price-analytics': 2, 'purge-idempotency-keys': 2 });
      clock.advance(45 * MINUTE);
      await Promise.all([a.runDue(), b.runDue()]);
      expect(runs).toEqual({ 'recover-payments': 3, 'price-analytics': 3, 'purge-idempotency-keys': 3, 'sweep-unused-uploads': 2, 'purge-finished-jobs': 2, 'prune-webhook-logs': 2, 'purge-mail-and-sign-ins': 2 });
      const queued = await database.db.selectFrom('jobs').select(['name', 'run_at']).where('state', '=', 'pending').orderBy('name').execute();
      expect(queued).toEqual([
        { name: 'price-analytics', run_at: new Date(clock.now().getTime() + 10_000) },
        { name: 'prune-webhook-logs', run_at: new Date(clock.now().getTime() + 60 * MINUTE) },
        { name: 'purge-finished-jobs', run_at: new Date(clock.now().getTime() + 60 * MINUTE) },
        { name: 'purge-idempotency-keys', run_at: new Date(clock.now().getTime() + 15 * MINUTE) },
        { name: 'purge-mail-and-sign-ins', run_at: new Date(clock.now().getTime() + 60 * MINUTE) },
        { name: 'recover-payments', run_at: new Date(clock.now().getTime() + 30_000) },
        { name: 'sweep-unused-uploads', run_at: new Date(clock.now().getTime() + 60 * MINUTE) },
      ]);
    } finally {
      await drop();
    }
  });
});

describe.skipIf(!POSTGRES_URL)('two runners on one PostgreSQL database', () => {
  it('run each of 200 due jobs exactly once', async () => {
    const name = uniqueId('race');
    const other = await openTestDatabase();
    try {
      for (let i = 0; i < 200; i++) await enqueueJob(server.database.db, { name, payload: { i } });
      const runsOf = new Map<number, number>();
      const byRunner = [0, 0];
      const handler = (runnerIndex: number): JobHandler => ({
        run: async (payload) => {
          const i = payload.i as number;
          runsOf.set(i, (runsOf.get(i) ?? 0) + 1);
          byRunner[runnerIndex]!++;
          await new Promise((resolve) => setTimeout(resolve, 2));
        },
      });
      const a = runner({ [name]: handler(0) }, { concurrency: 5 });
      const b = runner({ [name]: handler(1) }, { db: other, concurrency: 5 });
      const [ranA, ranB] = await Promise.all([a.runDue(), b.runDue()]);
      expect(ranA + ranB).toBe(200);
      expect(byRunner[0]).toBeGreaterThan(0);
      expect(byRunner[1]).toBeGreaterThan(0);
      expect(runsOf.size).toBe(200);
      expect([...runsOf.values()].every((count) => count === 1)).toBe(true);
      expect(new Set((await jobsNamed(name)).map((job) => `${job.state}/${job.attempts}`))).toEqual(new Set(['succeeded/1']));
    } finally {
      await other.close();
    }
  });
});
