import type { Db } from '../../db/connect.js';
import { inTransaction, isUniqueViolation, type Executor } from '../../db/transaction.js';
import type { JobState } from '../../db/schema.js';
import type { Clock } from '../../lib/clock.js';
import { JobError } from './errors.js';
import * as repo from './repo.js';

export interface NewJob {
  name: string;
  payload?: Record<string, unknown>;
  /** When it becomes due, by the runner's clock; absent: at once. */
  runAt?: Date;
  /** While a job of this name and key is pending, running or failed (to be retried), no second one is queued. */
  key?: string;
}

/**
 * Queues background work in the caller's transaction: it exists only if that commits.
 * Returns the job's id, or null when the same work (name and key) is already queued.
 */
export function enqueueJob(tx: Executor, job: NewJob): Promise<number | null> {
  return repo.insertJob(tx, { name: job.name, payload: job.payload ?? {}, uniqueKey: job.key ?? null, runAt: job.runAt ?? null });
}

/** Rows a statement of enqueueJobs inserts at most (5 parameters a row, under PostgreSQL's 65,535). */
const ROWS_PER_INSERT = 1000;

/** Queues several jobs in the caller's transaction, a thousand a statement; returns how many were queued (as enqueueJob, each). */
export async function enqueueJobs(tx: Executor, jobs: NewJob[]): Promise<number> {
  let queued = 0;
  for (let i = 0; i < jobs.length; i += ROWS_PER_INSERT) {
    const rows = jobs.slice(i, i + ROWS_PER_INSERT).map((job) => ({
      name: job.name,
      payload: job.payload ?? {},
      uniqueKey: job.key ?? null,
      runAt: job.runAt ?? null,
    }));
    queued += await repo.insertJobs(tx, rows);
  }
  return queued;
}

/** A job as the CLI shows it. */
export interface JobView {
  id: number;
  name: string;
  state: JobState;
  key: string | null;
  attempts: number;
  runAt: string | null;
  lastError: string | null;
  createdAt: string;
  finishedAt: string | null;
  payload: Record<string, unknown>;
}

function view(row: repo.JobRow): JobView {
  return {
    id: row.id,
    name: row.name,
    state: row.state,
    key: row.unique_key,
    attempts: row.attempts,
    runAt: row.run_at?.toISOString() ?? null,
    lastError: row.last_error,
    createdAt: row.created_at.toISOString(),
    finishedAt: row.finished_at?.toISOString() ?? null,
    payload: row.payload,
  };
}

export const LISTED_STATES = ['dead', 'failed', 'pending', 'running'] as const;
export type ListedState = (typeof LISTED_STATES)[number];

/** The newest jobs in the given state, or in every state but succeeded. */
export async function listJobs(db: Db, options: { state?: ListedState; limit?: number } = {}): Promise<JobView[]> {
  const states = options.state ? [options.state] : [...LISTED_STATES];
  return (await repo.listJobs(db, { states, limit: options.limit ?? 100 })).map(view);
}

/** Puts a dead job back in the queue, due at once, with a fresh count of attempts. */
export async function retryDeadJob(db: Db, id: number): Promise<JobView> {
  try {
    return await inTransaction(db, async (tx) => {
      const requeued = await repo.requeueDeadJob(tx, id);
      if (requeued) return view(requeued);
      const job = await repo.findJob(tx, id);
      if (!job) throw new JobError('not_found', `No job with id ${id}`);
      throw new JobError('not_dead', `Job ${id} is ${job.state}, not dead: only dead jobs are retried by hand`);
    });
  } catch (error) {
    if (!isUniqueViolation(error, 'jobs_live_unique_key')) throw error;
    throw new JobError('already_queued', `Job ${id} was not requeued: a job with the same name and key is already queued`);
  }
}

/** Deletes the jobs that succeeded longer than `retentionMs` ago by the clock; dead jobs stay until retried. */
export function purgeSucceededJobs(db: Db, clock: Clock, retentionMs: number): Promise<number> {
  return repo.purgeSucceededJobs(db, new Date(clock.now().getTime() - retentionMs));
}
