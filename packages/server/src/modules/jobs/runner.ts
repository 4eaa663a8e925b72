import { randomUUID } from 'node:crypto';
import os from 'node:os';
import type { FastifyBaseLogger } from 'fastify';
import type { Registry } from 'prom-client';
import type { Db } from '../../db/connect.js';
import { inTransaction } from '../../db/transaction.js';
import { leaseHolderOf } from '../../db/lease-holder.js';
import type { Clock } from '../../lib/clock.js';
import { backoffAfter, DEFAULT_RETRY, type RetryPolicy } from './backoff.compute.js';
import { JobRunMetrics } from './metrics.js';
import {
  insertJob,
  makeDueNow,
  releaseClaimedJobs,
  releaseRunningJobs,
  settleAndClaimJobs,
  settleJob,
  settleSucceededJobs,
  type JobRow,
  type Outcome,
  type Succeeded,
} from './repo.js';

export interface JobContext {
  jobId: number;
  /** This attempt, counted from 1. */
  attempt: number;
  log: FastifyBaseLogger;
}

export interface JobHandler {
  /** Does the work; a returned text is logged. Throwing fails the attempt. May run again after a crash: be idempotent. */
  run(payload: Record<string, unknown>, ctx: JobContext): Promise<string | void>;
  retry?: RetryPolicy;
  /** Makes the job recurring: one job of this name stays queued, due this long after the previous one ended. */
  everyMs?: number;
  /** A recurring job made due when a runner starts: its work may be what a process that died left behind. */
  runAtStart?: boolean;
}

export type JobHandlers = Record<string, JobHandler>;

export interface JobRunnerOptions {
  db: Db;
  clock: Clock;
  log: FastifyBaseLogger;
  registry: Registry;
  handlers: JobHandlers;
  /** How long to wait between looks at an empty queue. */
  pollIntervalMs?: number;
  /** How long a claimed job is this runner's: past it, the runner is taken for dead and another runs the job. */
  leaseMs?: number;
  /** Jobs run at once by this runner. */
  concurrency?: number;
  /**
   * No other process can run jobs on this database (the embedded one is held by one process at a time):
   * jobs found running at start belong to a process that died, and run again without waiting for their lease.
   */
  soleRunner?: boolean;
}

export const DEFAULT_POLL_INTERVAL_MS = 1000;
export const DEFAULT_LEASE_MS = 5 * 60 * 1000;
const DEFAULT_CONCURRENCY = 4;
const MAX_ERROR_LENGTH = 4000;
/** How much of its lease a succeeded job must have left for its outcome to wait for the next claim. */
const LEASE_MARGIN_MS = 60_000;

function describeError(error: unknown): string {
  const text = error instanceof Error ? (error.stack ?? error.message) : String(error);
  return text.slice(0, MAX_ERROR_LENGTH);
}

/**
 * Runs the jobs of the database whose handlers it has, when they are due by its clock:
 * polling once started, or every due job at once through runDue().
 */
export class JobRunner {
  private readonly id = `${os.hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  private readonly names: string[];
  private readonly metrics: JobRunMetrics;
  private readonly running = new Set<Promise<void>>();
  /** Jobs claimed by the polling loop and not started yet: they start as running ones end. */
  private waiting: JobRow[] = [];
  /** Succeeded attempts of the polling loop not recorded yet: recorded with its next claim, or before it waits idle. */
  private succeeded: (Succeeded & { name: string })[] = [];
  private loop: Promise<void> | null = null;
  private wake: (() => void) | null = null;
  private stopped = false;

  constructor(private readonly options: JobRunnerOptions) {
    this.names = Object.keys(options.handlers);
    this.metrics = new JobRunMetrics(options.registry);
  }

  /** Queues the recurring jobs that are not queued yet (after releasing abandoned jobs, as sole runner), then polls until stop(). */
  async start(): Promise<void> {
    if (this.options.soleRunner) {
      const released = await releaseRunningJobs(this.options.db, this.options.clock.now());
      if (released > 0) this.options.log.warn({ jobs: released }, 'jobs left running by a process that stopped will run again');
    }
    await this.scheduleRecurring();
    this.loop = this.poll();
  }

  /** Claims nothing more, gives back the jobs claimed but not started, waits for the jobs that are running, and records them. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.wake?.();
    await this.loop;
    await Promise.allSettled([...this.running]);
    await this.recordSucceeded();
  }

  /** Runs every job due now by the clock, including those that become due meanwhile (retries), until none is left. */
  async runDue(): Promise<number> {
    let total = 0;
    for (let ran = await this.runBatch(); ran > 0; ran = await this.runBatch()) total += ran;
    return total;
  }

  /** One queued job per recurring name, due at once unless one is queued already (by this or another process). */
  async scheduleRecurring(): Promise<void> {
    for (const [name, handler] of Object.entries(this.options.handlers)) {
      if (!handler.everyMs) continue;
      const queued = await insertJob(this.options.db, { name, payload: {}, uniqueKey: name, runAt: null });
      if (queued === null && handler.runAtStart) await makeDueNow(this.options.db, name);
    }
  }

  private get concurrency(): number {
    return this.options.concurrency ?? DEFAULT_CONCURRENCY;
  }

  /**
   * Keeps `concurrency` jobs running, and up to as many more claimed and waiting: a job that
   * ends starts a waiting one at once, and the loop claims again once half of the jobs in
   * hand have started (one claim per half a concurrency of jobs, none run late by a batch's
   * slowest job). With nothing due it looks again after the poll interval, or when a job
   * ends (which may have queued more).
   */
  private async poll(): Promise<void> {
    const threshold = Math.ceil(this.concurrency / 2);
    while (!this.stopped) {
      const room = 2 * this.concurrency - this.running.size - this.waiting.length;
      let drained = false;
      if (room >= threshold) {
        try {
          const claimed = await this.claim(room);
          drained = claimed.length < room;
          this.waiting.push(...claimed);
        } catch (err) {
          this.options.log.error({ err }, 'could not claim jobs');
          drained = true;
        }
        this.startWaiting();
        // More may be due: claim again as soon as there is room.
        if (!drained && 2 * this.concurrency - this.running.size - this.waiting.length >= threshold) continue;
      }
      const idle = drained || this.running.size === 0;
      if (idle) await this.recordSucceeded();
      await this.pause(idle);
    }
    await this.giveBack();
  }

  /** Waits for a job to end, or for the poll interval when `idle` (nothing more was due). */
  private pause(idle: boolean): Promise<void> {
    if (this.stopped) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = idle ? setTimeout(() => this.wake?.(), this.options.pollIntervalMs ?? DEFAULT_POLL_INTERVAL_MS) : null;
      timer?.unref();
      this.wake = () => {
        if (timer) clearTimeout(timer);
        this.wake = null;
        resolve();
      };
    });
  }

  /** Starts waiting jobs while fewer than `concurrency` run. */
  private startWaiting(): void {
    while (!this.stopped && this.running.size < this.concurrency && this.waiting.length > 0) {
      const job = this.waiting.shift()!;
      void this.track(this.runOne(job, true)).finally(() => {
        this.startWaiting();
        this.wake?.();
      });
    }
  }

  /** Jobs claimed but not started when the runner stops go back to the queue as they were. */
  private async giveBack(): Promise<void> {
    const jobs = this.waiting;
    this.waiting = [];
    if (jobs.length === 0) return;
    try {
      await releaseClaimedJobs(this.options.db, jobs, this.id);
    } catch (err) {
      this.options.log.error({ err }, 'could not give back claimed jobs; they run again when their lease ends');
    }
  }

  /** Claims up to `limit` jobs, recording in the same statement the attempts that succeeded since the last claim. */
  private async claim(limit: number): Promise<JobRow[]> {
    const now = this.options.clock.now();
    const done = this.succeeded;
    this.succeeded = [];
    const { settled, claimed } = await settleAndClaimJobs(this.options.db, done, {
      names: this.names,
      now,
      limit,
      lockedBy: this.id,
      lockedUntil: new Date(now.getTime() + (this.options.leaseMs ?? DEFAULT_LEASE_MS)),
      holder: leaseHolderOf(this.options.db),
    }).catch((error: unknown) => {
      this.succeeded.unshift(...done);
      throw error;
    });
    this.warnTakenOver(done, settled);
    return claimed;
  }

  /** Records the succeeded attempts not recorded yet, in one statement. */
  private async recordSucceeded(): Promise<void> {
    const done = this.succeeded;
    this.succeeded = [];
    if (done.length === 0) return;
    try {
      this.warnTakenOver(done, await settleSucceededJobs(this.options.db, done));
    } catch (err) {
      this.options.log.error({ err }, 'could not record the outcome of jobs; they run again when their lease ends');
    }
  }

  private warnTakenOver(done: (Succeeded & { name: string })[], settled: number[]): void {
    const recorded = new Set(settled);
    for (const job of done) {
      if (!recorded.has(job.id)) this.options.log.warn({ job: job.name, jobId: job.id }, 'a job outlived its lease and was taken over by another runner');
    }
  }

  /** runDue's step: claims up to `concurrency` jobs and runs them all. */
  private async runBatch(): Promise<number> {
    if (this.stopped) return 0;
    const jobs = await this.claim(this.concurrency);
    await Promise.all(jobs.map((job) => this.track(this.runOne(job))));
    return jobs.length;
  }

  private track(work: Promise<void>): Promise<void> {
    this.running.add(work);
    return work.finally(() => this.running.delete(work));
  }

  /**
   * Runs a claimed job and records its outcome; `deferred` (the polling loop): a success of a
   * job that is not recurring, well within its lease, is recorded with the loop's next claim.
   */
  private async runOne(job: JobRow, deferred = false): Promise<void> {
    const handler = this.options.handlers[job.name]!;
    const policy = handler.retry ?? DEFAULT_RETRY;
    const log = this.options.log.child({ job: job.name, jobId: job.id, attempt: job.attempts });
    const started = performance.now();
    let outcome: Outcome;
    if (job.attempts > policy.attempts) {
      // Claimed again after its lease ran out, past its last attempt: its process died each time.
      outcome = { state: 'dead', at: this.options.clock.now(), error: 'the process running its last attempt stopped (its lease ran out)' };
    } else {
      try {
        const summary = await handler.run(job.payload, { jobId: job.id, attempt: job.attempts, log });
        if (summary) log.info(summary);
        outcome = { state: 'succeeded', at: this.options.clock.now() };
      } catch (err) {
        const failed = this.afterFailure(job, policy, err);
        if (failed.state === 'dead') log.error({ err }, 'job failed on its last attempt: dead');
        else log.warn({ err, retryAt: failed.retryAt }, 'job failed; it will be retried');
        outcome = failed;
      }
    }
    this.metrics.record(job.name, outcome.state, (performance.now() - started) / 1000);
    if (deferred && outcome.state === 'succeeded' && !handler.everyMs && this.wellWithinLease(job, outcome.at)) {
      this.succeeded.push({ id: job.id, attempts: job.attempts, at: outcome.at, name: job.name });
      return;
    }
    await this.settle(job, handler, outcome).catch((err: unknown) =>
      log.error({ err }, 'could not record the outcome of a job; it runs again when its lease ends'),
    );
  }

  /** A minute or more of the job's lease left: its success can wait for the next claim. */
  private wellWithinLease(job: JobRow, at: Date): boolean {
    return job.locked_until !== null && job.locked_until.getTime() - at.getTime() > LEASE_MARGIN_MS;
  }

  private afterFailure(job: JobRow, policy: RetryPolicy, error: unknown): Exclude<Outcome, { state: 'succeeded' }> {
    const now = this.options.clock.now();
    if (job.attempts >= policy.attempts) return { state: 'dead', at: now, error: describeError(error) };
    return { state: 'failed', retryAt: new Date(now.getTime() + backoffAfter(policy, job.attempts)), error: describeError(error) };
  }

  /**
   * Records the outcome and, for a recurring job that ended, queues its next run in the same
   * transaction; any other outcome is one statement, which needs no transaction of its own.
   */
  private async settle(job: JobRow, handler: JobHandler, outcome: Outcome): Promise<void> {
    const everyMs = outcome.state === 'failed' ? 0 : (handler.everyMs ?? 0);
    const settled =
      everyMs > 0
        ? await inTransaction(this.options.db, async (tx) => {
            if (!(await settleJob(tx, job, outcome))) return false;
            const runAt = new Date(this.options.clock.now().getTime() + everyMs);
            await insertJob(tx, { name: job.name, payload: job.payload, uniqueKey: job.unique_key ?? job.name, runAt });
            return true;
          })
        : await settleJob(this.options.db, job, outcome);
    if (!settled) this.options.log.warn({ job: job.name, jobId: job.id }, 'a job outlived its lease and was taken over by another runner');
  }
}
