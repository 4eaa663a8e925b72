import { PREPARED, PREPARED_END } from '../../db/prepared.js';
import { sql, type Selectable } from 'kysely';
import { rowFromJson } from '../../db/json-rows.js';
import { holderGone } from '../../db/lease-holder.js';
import type { Executor } from '../../db/transaction.js';
import type { JobState, JobsTable } from '../../db/schema.js';

export type JobRow = Selectable<JobsTable>;

/** States in which a job still has work ahead: at most one such job per name and key. */
const LIVE: JobState[] = ['pending', 'running', 'failed'];

export interface NewJobRow {
  name: string;
  payload: Record<string, unknown>;
  uniqueKey: string | null;
  runAt: Date | null;
}

/** The new job's id, or null when a live job of the same name and key exists. */
export async function insertJob(db: Executor, job: NewJobRow): Promise<number | null> {
  const inserted = await db
    .insertInto('jobs')
    .values({ name: job.name, payload: JSON.stringify(job.payload), unique_key: job.uniqueKey, state: 'pending', run_at: job.runAt })
    .onConflict((oc) =>
      oc.columns(['name', 'unique_key']).where('unique_key', 'is not', null).where('state', 'in', LIVE).doNothing(),
    )
    .returning('id')
    .executeTakeFirst();
  return inserted?.id ?? null;
}

/**
 * Several jobs in one statement (each as insertJob would insert it, a live job of the same
 * name and key left alone); returns how many were inserted. Keep a call's rows few enough
 * for PostgreSQL's 65,535 parameters (5 a row).
 */
export async function insertJobs(db: Executor, jobs: NewJobRow[]): Promise<number> {
  if (jobs.length === 0) return 0;
  const inserted = await db
    .insertInto('jobs')
    .values(jobs.map((job) => ({ name: job.name, payload: JSON.stringify(job.payload), unique_key: job.uniqueKey, state: 'pending', run_at: job.runAt })))
    .onConflict((oc) =>
      oc.columns(['name', 'unique_key']).where('unique_key', 'is not', null).where('state', 'in', LIVE).doNothing(),
    )
    .returning('id')
    .execute();
  return inserted.length;
}

export interface Claim {
  names: string[];
  now: Date;
  limit: number;
  lockedBy: string;
  lockedUntil: Date;
  /** The runner's lease holder (db/lease-holder.ts); none: its jobs are taken over only when their lease runs out. */
  holder?: number | null;
}

/**
 * The claim's CTEs, ending with `claimed` (the jobs taken, whole rows): the first `limit`
 * by (run_at nulls first, id) of the jobs due at once, those due by now, and running ones
 * whose lease ran out or whose holder is gone (its process died), each branch read in that order along its own index
 * (jobs_claim_order, jobs_leased) and stopped at `limit`, never sorting the queue.
 * Of the three, jobs with a time come first: a recurring job that fell due (the billing
 * sweep, payment recovery) or a retry never waits behind a backlog queued for at once
 * (ten thousand receipts after a renewal run held the sweep back for over a minute).
 * SKIP LOCKED lets runners claim side by side, never the same job.
 */
function claimCtes(claim: Claim) {
  const names = sql`name = ANY(${claim.names}::text[])`;
  const order = sql`ORDER BY run_at NULLS FIRST, id LIMIT ${claim.limit}`;
  const timedFirst = sql`ORDER BY run_at NULLS LAST, id LIMIT ${claim.limit}`;
  return sql`claim_now AS (
      SELECT id, run_at FROM jobs WHERE state IN ('pending', 'failed') AND run_at IS NULL AND ${names} ${order} FOR UPDATE SKIP LOCKED),
    claim_due AS (
      SELECT id, run_at FROM jobs WHERE state IN ('pending', 'failed') AND run_at <= ${claim.now} AND ${names} ${order} FOR UPDATE SKIP LOCKED),
    claim_leased AS (
      SELECT id, run_at FROM jobs WHERE state = 'running' AND (locked_until <= ${claim.now} OR ${holderGone(sql.ref('holder'))})
         AND ${names} ${order} FOR UPDATE SKIP LOCKED),
    claimed AS (
      UPDATE jobs SET state = 'running', attempts = attempts + 1, locked_by = ${claim.lockedBy}, locked_until = ${claim.lockedUntil},
             holder = ${claim.holder ?? null}
       WHERE id IN (SELECT id FROM (SELECT * FROM claim_now UNION ALL SELECT * FROM claim_due UNION ALL SELECT * FROM claim_leased) c ${timedFirst})
       RETURNING jobs.*)`;
}

/**
 * Takes up to `limit` jobs due at `now`, and running jobs whose lease ran out (their
 * process died), for this runner: SKIP LOCKED lets runners claim side by side, never the same job.
 */
export async function claimDueJobs(db: Executor, claim: Claim): Promise<JobRow[]> {
  if (claim.names.length === 0) return [];
  const { rows } = await sql<JobRow>`${PREPARED}WITH ${claimCtes(claim)} SELECT * FROM claimed`.execute(db);
  return rows;
}

/** A job whose attempt succeeded, to be recorded as settleJob records it. */
export interface Succeeded {
  id: number;
  attempts: number;
  at: Date;
}

const JOB_TIMESTAMPS = ['run_at', 'locked_until', 'created_at', 'finished_at'] as const;

/** The CTE `settled`: the succeeded attempts recorded (fenced as settleJob), their ids returned. */
function settledCte(done: Succeeded[]) {
  return sql`settled AS (
      UPDATE jobs SET state = 'succeeded', locked_by = NULL, locked_until = NULL, holder = NULL, finished_at = d.at
        FROM unnest(${done.map((d) => d.id)}::bigint[], ${done.map((d) => d.attempts)}::int[], ${done.map((d) => d.at)}::timestamptz[]) AS d(id, attempts, at)
       WHERE jobs.id = d.id AND jobs.attempts = d.attempts AND jobs.state = 'running'
       RETURNING jobs.id)`;
}

/** Records succeeded attempts in one statement; returns the ids recorded (the others were taken over: their lease ran out). */
export async function settleSucceededJobs(db: Executor, done: Succeeded[]): Promise<number[]> {
  if (done.length === 0) return [];
  const { rows } = await sql<{ id: number }>`${PREPARED}WITH ${settledCte(done)} SELECT id FROM settled`.execute(db);
  return rows.map((row) => Number(row.id));
}

/**
 * settleSucceededJobs and claimDueJobs in one statement (one round trip and one commit
 * fewer a batch). The jobs settled are running under this runner's lease, which the
 * claim's condition (a lease that ran out) excludes: no row is changed twice.
 */
export async function settleAndClaimJobs(db: Executor, done: Succeeded[], claim: Claim): Promise<{ settled: number[]; claimed: JobRow[] }> {
  if (done.length === 0) return { settled: [], claimed: await claimDueJobs(db, claim) };
  const { rows } = await sql<{ settled: number[]; claimed: Record<string, unknown>[] }>`${PREPARED}WITH ${settledCte(done)},
    ${claimCtes(claim)}
    SELECT (SELECT coalesce(array_agg(id), '{}') FROM settled) AS settled,
           (SELECT coalesce(jsonb_agg(to_jsonb(c)), '[]'::jsonb) FROM claimed c) AS claimed`.execute(db);
  const row = rows[0]!;
  return { settled: row.settled.map(Number), claimed: row.claimed.map((job) => rowFromJson<JobRow>(job, JOB_TIMESTAMPS)!) };
}

/** The waiting run of a recurring job, due at once. */
export async function makeDueNow(db: Executor, name: string): Promise<void> {
  await db
    .updateTable('jobs')
    .set({ run_at: null })
    .where('name', '=', name)
    .where('unique_key', '=', name)
    .where('state', 'in', ['pending', 'failed'])
    .execute();
}

/** Makes every running job claimable at once: for a database no other process can be using. */
export async function releaseRunningJobs(db: Executor, now: Date): Promise<number> {
  const result = await db.updateTable('jobs').set({ locked_until: now }).where('state', '=', 'running').executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/**
 * Jobs this runner claimed but never started, back in the queue, their attempt not counted;
 * a job that another runner took over meanwhile (its lease ran out) is left alone.
 */
export async function releaseClaimedJobs(db: Executor, jobs: Pick<JobRow, 'id'>[], lockedBy: string): Promise<void> {
  if (jobs.length === 0) return;
  await db
    .updateTable('jobs')
    .set((eb) => ({ state: 'pending', attempts: eb('attempts', '-', 1), locked_by: null, locked_until: null, holder: null }))
    .where('id', 'in', jobs.map((job) => job.id))
    .where('state', '=', 'running')
    .where('locked_by', '=', lockedBy)
    .execute();
}

export type Outcome =
  | { state: 'succeeded'; at: Date }
  | { state: 'dead'; at: Date; error: string }
  | { state: 'failed'; retryAt: Date; error: string };

/**
 * Records how a claimed attempt ended. Fenced on the attempt: false when the lease ran
 * out meanwhile and another runner took the job over.
 */
export async function settleJob(db: Executor, job: Pick<JobRow, 'id' | 'attempts'>, outcome: Outcome): Promise<boolean> {
  const result = await db
    .updateTable('jobs')
    .set({
      state: outcome.state,
      locked_by: null,
      locked_until: null,
      holder: null,
      ...(outcome.state === 'failed' ? { run_at: outcome.retryAt } : { finished_at: outcome.at }),
      ...(outcome.state === 'succeeded' ? {} : { last_error: outcome.error }),
    })
    .where('id', '=', job.id)
    .where('attempts', '=', job.attempts)
    .where('state', '=', 'running')
    .modifyEnd(PREPARED_END)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export async function listJobs(db: Executor, filter: { states: JobState[]; limit: number }): Promise<JobRow[]> {
  return db.selectFrom('jobs').selectAll().where('state', 'in', filter.states).orderBy('id', 'desc').limit(filter.limit).execute();
}

export async function findJob(db: Executor, id: number): Promise<JobRow | undefined> {
  return db.selectFrom('jobs').selectAll().where('id', '=', id).executeTakeFirst();
}

/** A dead job back in the queue, due at once, with its attempts counted afresh; its last error stays for reference. */
export async function requeueDeadJob(db: Executor, id: number): Promise<JobRow | undefined> {
  return db
    .updateTable('jobs')
    .set({ state: 'pending', attempts: 0, run_at: null, finished_at: null })
    .where('id', '=', id)
    .where('state', '=', 'dead')
    .returningAll()
    .executeTakeFirst();
}

export async function purgeSucceededJobs(db: Executor, finishedBefore: Date): Promise<number> {
  const result = await db.deleteFrom('jobs').where('state', '=', 'succeeded').where('finished_at', '<', finishedBefore).executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** Jobs that are not done, by name and state (one aggregate over the partial indexes' rows). */
export async function countUnfinishedJobs(db: Executor): Promise<{ name: string; state: JobState; count: number }[]> {
  const rows = await db
    .selectFrom('jobs')
    .select(['name', 'state', (eb) => eb.fn.countAll<number>().as('count')])
    .where('state', '<>', 'succeeded')
    .groupBy(['name', 'state'])
    .execute();
  return rows.map((row) => ({ ...row, count: Number(row.count) }));
}
