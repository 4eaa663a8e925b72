/**
 * The renewal scenario: one worker, in this process, renews every subscription due
 * at one instant, as a production worker does: a JobRunner with Billow's real
 * background jobs and its default settings, polling, with a clock set just past
 * the instant. The billing sweep queues a job per due subscription; the run ends
 * when none is due and no bill-subscription job is left. Then every subscription
 * is checked for exactly one renewal invoice and one charge.
 */
import fs from 'node:fs';
import { Session } from 'node:inspector/promises';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { FastifyBaseLogger } from 'fastify';
import pg from 'pg';
import { Registry } from 'prom-client';
import {
  BILL_SUBSCRIPTION_JOB,
  JobRunner,
  backgroundJobs,
  connectDatabase,
  createLogger,
  loadConfig,
  type Clock,
  type JobHandlers,
} from '@billow/server/bench-support';
import type { BenchOptions } from './options.js';
import type { RenewalSeed } from './renewal-seed.js';
import { cpuSecondsOf } from './processes.js';

/** How long the run may take before the bench gives up on it. */
const GIVE_UP_MS = 15 * 60 * 1000;
const LOOK_EVERY_MS = 100;

export interface ExactlyOnce {
  subscriptions: number;
  /** Subscriptions with exactly one invoice for the period that begins at the instant, paid. */
  oneInvoice: number;
  /** Subscriptions with exactly one CHARGE transaction for that invoice's order, succeeded. */
  oneCharge: number;
  /** Subscriptions still due at the instant (their period still ends there). */
  stillDue: number;
  /** Renewal invoices in all (more than the subscriptions means one was renewed twice). */
  invoices: number;
  charges: number;
  /** Renewal invoices with a number, and the distinct numbers among them. */
  numbered: number;
  distinctNumbers: number;
  /** The environment's numbered invoices, and the numbers its counters handed out (equal: no gap). */
  numberedInAll: number;
  numbersHandedOut: number;
}

export interface RenewalResults {
  subscriptions: number;
  throughApi: number;
  concurrency: number;
  sweepIntervalMs: number;
  /** From the first claim to the end of the last bill-subscription job. */
  wallSeconds: number;
  /** bill-subscription jobs that ran, and the handler's duration of each. */
  jobs: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
  /** Jobs that failed or died (each retried or left for a person). */
  failedJobs: number;
  check: ExactlyOnce;
  cpuSeconds: number;
  /** CPU of the database's backends (PostgreSQL's side of the run), when /proc shows them (a local server); else null. */
  databaseCpuSeconds: number | null;
  /** Statements the worker ran through Kysely, and transactions the database committed or rolled back, during the run. */
  queries: number;
  transactions: number;
}

/** The real time moved on by a fixed offset: `at` now, running on as real time does. */
function clockFrom(at: Date): Clock {
  const offset = at.getTime() - Date.now();
  return { now: () => new Date(Date.now() + offset) };
}

/** The handlers with the bill-subscription job's runs timed. */
function timed(handlers: JobHandlers): { handlers: JobHandlers; durations: number[]; lastEnd: () => number } {
  const durations: number[] = [];
  let last = 0;
  const bill = handlers[BILL_SUBSCRIPTION_JOB]!;
  const run: typeof bill.run = async (payload, ctx) => {
    const started = performance.now();
    try {
      return await bill.run(payload, ctx);
    } finally {
      last = performance.now();
      durations.push(last - started);
    }
  };
  return { handlers: { ...handlers, [BILL_SUBSCRIPTION_JOB]: { ...bill, run } }, durations, lastEnd: () => last };
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1)]!;
}

/** Waits until no subscription of the environment is due at the instant and no bill-subscription job is queued or running. */
async function untilDone(client: pg.Client, seed: RenewalSeed, say: (line: string) => void): Promise<number> {
  const started = Date.now();
  let reported = started;
  for (let looks = 1; ; looks++) {
    const result = await client.query<{ due: number; live: number }>(
      `SELECT (SELECT count(*)::int FROM subscriptions WHERE environment_id = $1 AND status IN ('active', 'past_due') AND current_period_end <= $2) AS due,
              (SELECT count(*)::int FROM jobs WHERE name = $3 AND state IN ('pending', 'running', 'failed')) AS live`,
      [seed.environmentId, seed.instant, BILL_SUBSCRIPTION_JOB],
    );
    const { due, live } = result.rows[0]!;
    if (due === 0 && live === 0) return looks;
    if (Date.now() - reported >= 5000) {
      reported = Date.now();
      say(`  ${Math.round((reported - started) / 1000)} s: ${due} subscriptions still due, ${live} bill-subscription jobs queued or running`);
    }
    if (Date.now() - started > GIVE_UP_MS) throw new Error(`the renewals did not finish within ${GIVE_UP_MS / 60000} minutes`);
    await sleep(LOOK_EVERY_MS);
  }
}

/** One renewal invoice and one charge per subscription, none still due, and every invoice numbered without a gap or a number twice. */
async function checkExactlyOnce(client: pg.Client, seed: RenewalSeed): Promise<ExactlyOnce> {
  const result = await client.query<ExactlyOnce>(
    `WITH renewal AS (
       SELECT s.id,
              count(DISTINCT i.id) FILTER (WHERE i.status = 'PAID') AS paid_invoices,
              count(DISTINCT i.id) AS invoices,
              count(DISTINCT t.id) FILTER (WHERE t.status = 'success' AND t.amount_minor = $3) AS good_charges,
              count(DISTINCT t.id) AS charges,
              bool_or(s.status IN ('active', 'past_due') AND s.current_period_end <= $2) AS due
         FROM subscriptions s
         LEFT JOIN invoices i ON i.subscription_id = s.id AND i.period_start = $2
         LEFT JOIN transactions t ON t.order_id = i.order_id AND t.transaction_type = 'CHARGE'
        WHERE s.environment_id = $1
        GROUP BY s.id)
     SELECT count(*)::int AS subscriptions,
            count(*) FILTER (WHERE invoices = 1 AND paid_invoices = 1)::int AS "oneInvoice",
            count(*) FILTER (WHERE charges = 1 AND good_charges = 1)::int AS "oneCharge",
            count(*) FILTER (WHERE due)::int AS "stillDue",
            sum(invoices)::int AS invoices,
            sum(charges)::int AS charges,
            (SELECT count(number)::int FROM invoices WHERE environment_id = $1 AND period_start = $2) AS numbered,
            (SELECT count(DISTINCT number)::int FROM invoices WHERE environment_id = $1 AND period_start = $2) AS "distinctNumbers",
            (SELECT count(number)::int FROM invoices WHERE environment_id = $1) AS "numberedInAll",
            (SELECT coalesce(sum(last_number), 0)::int FROM invoice_number_counters WHERE environment_id = $1) AS "numbersHandedOut"
       FROM renewal`,
    [seed.environmentId, seed.instant, seed.amountMinor],
  );
  return result.rows[0]!;
}

/** Transactions of the database so far (statistics; the counters lag by at most a few hundred ms). */
async function transactionCount(client: pg.Client): Promise<number> {
  await sleep(1000);
  const result = await client.query<{ n: string }>(
    'SELECT (xact_commit + xact_rollback)::text AS n FROM pg_stat_database WHERE datname = current_database()',
  );
  return Number(result.rows[0]!.n);
}

/** CPU seconds so far of each backend of the database but `client`'s own (autovacuum's workers on it included). */
async function backendCpu(client: pg.Client): Promise<Map<number, number | null>> {
  const result = await client.query<{ pid: number }>('SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()');
  return new Map(result.rows.map((row) => [row.pid, cpuSecondsOf(row.pid)]));
}

/** PostgreSQL's CPU between two looks: each backend's growth (from 0 for one that started between them); null without /proc. */
function databaseCpuBetween(before: Map<number, number | null>, after: Map<number, number | null>): number | null {
  let total = 0;
  for (const [pid, seconds] of after) {
    if (seconds === null) return null;
    total += seconds - (before.get(pid) ?? 0);
  }
  return total;
}

async function failedJobs(client: pg.Client): Promise<number> {
  const result = await client.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM jobs WHERE name = $1 AND (state IN ('failed', 'dead') OR attempts > 1)`,
    [BILL_SUBSCRIPTION_JOB],
  );
  return result.rows[0]!.n;
}

/** Runs `work` under a V8 CPU profile of this process, written to `dir`, when a directory is given. */
async function profiled<T>(dir: string | null, work: () => Promise<T>, say: (line: string) => void): Promise<T> {
  if (!dir) return work();
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.start');
  try {
    return await work();
  } finally {
    const { profile } = await session.post('Profiler.stop');
    fs.mkdirSync(dir, { recursive: true });
    const file = path.join(path.resolve(dir), `renewals-${process.pid}.cpuprofile`);
    fs.writeFileSync(file, JSON.stringify(profile));
    say(`  CPU profile of the renewal run written to ${file}`);
    session.disconnect();
  }
}

/** One worker renews the seeded subscriptions; returns the figures and the exactly-once check. */
export async function measureRenewals(
  databaseUrl: string,
  seed: RenewalSeed,
  options: Pick<BenchOptions, 'cpuProfileDir' | 'renewalConcurrency'>,
  say: (line: string) => void,
): Promise<RenewalResults> {
  // Billow's defaults, as a worker started with only DATABASE_URL runs them (and the concurrency, if the bench is told one).
  const concurrency = options.renewalConcurrency === null ? {} : { BILLOW_BILLING_CONCURRENCY: String(options.renewalConcurrency) };
  const config = loadConfig({ DATABASE_URL: databaseUrl, LOG_LEVEL: 'warn', ...concurrency });
  // As openDatabase(config) opens it, counting the statements Kysely runs (BEGIN and COMMIT are not among them).
  let queries = 0;
  const database = await connectDatabase({ databaseUrl, dataDir: null, onQuery: () => void queries++ });
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const clock = clockFrom(new Date(seed.instant.getTime() + 1000));
    const all = backgroundJobs(database.db, clock, {
      sweepMedia: async () => 0,
      pendingUpdateTtlMs: config.pendingUpdateTtlMs,
      paymentRecoveryAfterMs: config.paymentRecoveryAfterMs,
      jobRetentionMs: config.jobs.retentionMs,
      billing: config.billing,
    });
    const { handlers, durations, lastEnd } = timed(all);
    const log = createLogger('warn') as unknown as FastifyBaseLogger;
    const runner = new JobRunner({
      db: database.db,
      clock,
      log,
      registry: new Registry(),
      handlers,
      pollIntervalMs: config.jobs.pollIntervalMs,
      leaseMs: config.jobs.leaseMs,
      concurrency: config.billing.concurrency,
    });
    say(`  one worker: concurrency ${config.billing.concurrency}, sweep every ${config.billing.sweepIntervalMs} ms, poll every ${config.jobs.pollIntervalMs} ms`);
    const transactionsBefore = await transactionCount(client);
    const cpuBefore = process.cpuUsage();
    const databaseBefore = await backendCpu(client);
    const started = performance.now();
    const looks = await profiled(
      options.cpuProfileDir,
      async () => {
        await runner.start();
        const looked = await untilDone(client, seed, say);
        await runner.stop();
        return looked;
      },
      say,
    );
    const cpu = process.cpuUsage(cpuBefore);
    // Before the pool closes: a backend that ended during the run is not counted (the pool keeps them open while busy).
    const databaseCpuSeconds = databaseCpuBetween(databaseBefore, await backendCpu(client));
    // Less the bench's own looks at the progress, each a transaction of its own.
    const transactions = (await transactionCount(client)) - transactionsBefore - looks;
    const sorted = [...durations].sort((a, b) => a - b);
    return {
      subscriptions: seed.subscriptions,
      throughApi: seed.throughApi,
      concurrency: config.billing.concurrency,
      sweepIntervalMs: config.billing.sweepIntervalMs,
      wallSeconds: (lastEnd() - started) / 1000,
      jobs: durations.length,
      p50Ms: percentile(sorted, 0.5),
      p99Ms: percentile(sorted, 0.99),
      maxMs: sorted.at(-1) ?? 0,
      failedJobs: await failedJobs(client),
      check: await checkExactlyOnce(client, seed),
      cpuSeconds: (cpu.user + cpu.system) / 1e6,
      databaseCpuSeconds,
      queries,
      transactions,
    };
  } finally {
    await client.end();
    await database.close();
  }
}
