import { PREPARED_END } from '../../db/prepared.js';
import { sql, type QueryCreator, type Selectable } from 'kysely';
import { rowFromJson } from '../../db/json-rows.js';
import type { Executor } from '../../db/transaction.js';
import type { Database, JobState, JobsTable } from '../../db/schema.js';

export type JobRow = Selectable<JobsTable>;

/** States in which a job still has work ahead: at most one such job per name and key. */
const LIVE: JobState[] = ['pending', 'running', 'failed'];
/** States in which a job waits for its `run_at`. */
const WAITING: JobState[] = ['pending', 'failed'];

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
}

/** The claim's UPDATE, on `db` or inside a WITH. */
function claimQuery(db: QueryCreator<Database>, claim: Claim) {
  return db
    .updateTable('jobs')
    .set((eb) => ({
      state: 'running',
      attempts: eb('attempts', '+', 1),
      locked_by: claim.lockedBy,
      locked_until: claim.lockedUntil,
    }))
    .where('id', 'in', (eb) =>
      eb
        .selectFrom('jobs')
        .select('id')
        .where('name', 'in', claim.names)
        .where((w) =>
          w.or([
            w.and([w('state', 'in', WAITING), w.or([w('run_at', 'is', null), w('run_at', '<=', claim.now)])]),
            w.and([w('state', '=', 'running'), w('locked_until', '<=', claim.now)]),
          ]),
        )
        .orderBy(sql`run_at nulls first`)
        .orderBy('id')
        .limit(claim.limit)
        .forUpdate()
        .skipLocked(),
    )
    .returningAll();
}

/**
 * Takes up to `limit` jobs due at `now`, and running jobs whose lease ran out (their
 * process died), for this runner: SKIP LOCKED lets runners claim side by side, never the same job.
 */
export async function claimDueJobs(db: Executor, claim: Claim): Promise<JobRow[]> {
  if (claim.names.length === 0) return [];
  return claimQuery(db, claim).modifyEnd(PREPARED_END).execute();
}

/** A job whose attempt succeeded, to be recorded as settleJob records it. */
export interface Succeeded {
  id: number;
  attempts: number;
  at: Date;
}

const JOB_TIMESTAMPS = ['run_at', 'locked_until', 'created_at', 'finished_at'] as const;

/** The UPDATE that records succeeded attempts (fenced as settleJob), on `db` or inside a WITH. */
function settleSucceededQuery(db: QueryCreator<Database>, done: Succeeded[]) {
  return db
    .updateTable('jobs')
    .from(
      sql<{ id: number; attempts: number; at: Date }>`(SELECT * FROM unnest(${done.map((d) => d.id)}::bigint[], ${done.map((d) => d.attempts)}::int[], ${done.map((d) => d.at)}::timestamptz[]) AS u(id, attempts, at))`.as('d'),
    )
    .set({ state: 'succeeded', locked_by: null, locked_until: null, finished_at: sql`d.at` })
    .whereRef('jobs.id', '=', sql.ref('d.id'))
    .whereRef('jobs.attempts', '=', sql.ref('d.attempts'))
    .where('jobs.state', '=', 'running')
    .returning('jobs.id');
}

/** Records succeeded attempts in one statement; returns the ids recorded (the others were taken over: their lease ran out). */
export async function settleSucceededJobs(db: Executor, done: Succeeded[]): Promise<number[]> {
  if (done.length === 0) return [];
  const rows = await settleSucceededQuery(db, done).modifyEnd(PREPARED_END).execute();
  return rows.map((row) => row.id);
}

/**
 * settleSucceededJobs and claimDueJobs in one statement (one round trip and one commit
 * fewer a batch). The jobs settled are running under this runner's lease, which the
 * claim's condition (a lease that ran out) excludes: no row is changed twice.
 */
export async function settleAndClaimJobs(db: Executor, done: Succeeded[], claim: Claim): Promise<{ settled: number[]; claimed: JobRow[] }> {
  if (done.length === 0) return { settled: [], claimed: await claimDueJobs(db, claim) };
  const row = await db
    .with('settled', (qc) => settleSucceededQuery(qc, done))
    // The claim reads only the jobs table: the first WITH's name is of no use to it.
    .with('claimed', (qc) => claimQuery(qc as unknown as QueryCreator<Database>, { ...claim, names: claim.names.length > 0 ? claim.names : [''] }))
    .selectNoFrom([
      sql<number[]>`(SELECT coalesce(array_agg(id), '{}') FROM settled)`.as('settled'),
      sql<Record<string, unknown>[]>`(SELECT coalesce(jsonb_agg(to_jsonb(c)), '[]'::jsonb) FROM claimed c)`.as('claimed'),
    ])
    .modifyEnd(PREPARED_END)
    .executeTakeFirstOrThrow();
  return { settled: row.settled.map(Number), claimed: row.claimed.map((job) => rowFromJson<JobRow>(job, JOB_TIMESTAMPS)!) };
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
    .set((eb) => ({ state: 'pending', attempts: eb('attempts', '-', 1), locked_by: null, locked_until: null }))
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
