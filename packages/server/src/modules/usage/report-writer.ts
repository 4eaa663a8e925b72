/**
 * Group commit for usage reports. Reports that arrive while earlier ones are
 * being written wait, and are then written together: one statement records
 * them all, adds each counter's sum to it (counters locked in key order, so
 * concurrent batches cannot deadlock) and announces the customers, in one
 * transaction. Every caller is answered only after the commit that holds its
 * report, so nothing acknowledged can be lost; under load a batch costs one
 * round trip, one plan and one WAL flush for all of its reports, and a hot
 * counter is locked once per batch instead of once per report.
 *
 * At low load a report finds no write in flight and is written at once, alone.
 *
 * Only reports that add to a counter are batched: DELTAs whose counter needs
 * nothing carried over from a replaced subscription. The service writes the
 * others (SET, carried-over usage, meters with alerts) on their own.
 */
import { sql, type RawBuilder } from 'kysely';
import { PREPARED } from '../../db/prepared.js';
import type { Executor } from '../../db/transaction.js';
import type { SqlText } from '../../edge/change-feed.js';

export interface BatchedReport {
  id: string;
  environmentId: string;
  /** The seller's customerId, for the announcement. */
  customerId: string;
  customerPk: string;
  featureId: string;
  subscriptionId: string;
  value: number;
  resourceId: string | null;
  clientKey: string | null;
  periodStart: Date;
  periodEnd: Date | null;
  /** The rollover a new counter starts with. */
  rollover: number;
  at: Date;
}

/** An SQL expression announcing a change to a customer's usage, given its environment and customer ids (values or SQL). */
export type NoticeOf = (environmentId: SqlText, customerId: SqlText) => RawBuilder<unknown>;

interface Waiting {
  report: BatchedReport;
  resolve: (recorded: boolean) => void;
  reject: (error: unknown) => void;
}

export interface ReportWriterOptions {
  /** Statements in flight at once; more reports wait for the next batch. */
  concurrency?: number;
  /** The most reports one statement writes. */
  maxBatch?: number;
}

const REPORT_KEY_CONSTRAINT = 'usage_reports_client_key';

/**
 * Writes `reports` in one statement; returns the ids of those recorded (a
 * report whose client key the environment already has is not).
 */
export async function writeReports(db: Executor, reports: readonly BatchedReport[], notice: NoticeOf | null): Promise<Set<string>> {
  const rows = JSON.stringify(
    reports.map((r) => ({
      id: r.id,
      environment_id: r.environmentId,
      customer: r.customerId,
      customer_pk: r.customerPk,
      feature_id: r.featureId,
      subscription_id: r.subscriptionId,
      value: r.value,
      resource_id: r.resourceId,
      client_key: r.clientKey,
      period_start: r.periodStart.toISOString(),
      period_end: r.periodEnd?.toISOString() ?? null,
      rollover: r.rollover,
      at: r.at.toISOString(),
    })),
  );
  const announce = notice ? notice(sql<string>`changed.environment_id`, sql<string>`changed.customer`) : sql`NULL`;
  const { rows: recorded } = await sql<{ id: string }>`${PREPARED}
    WITH input AS (
      SELECT * FROM jsonb_to_recordset(${rows}::jsonb) AS i(
        id uuid, environment_id uuid, customer text, customer_pk uuid, feature_id uuid, subscription_id uuid, value bigint,
        resource_id text, client_key text, period_start timestamptz, period_end timestamptz, rollover bigint, at timestamptz)
    ), report AS (
      INSERT INTO usage_reports (id, environment_id, customer_id, feature_id, subscription_id, behaviour, value,
                                 resource_id, client_idempotency_key, reported_at, created_at)
      SELECT id, environment_id, customer_pk, feature_id, subscription_id, 'DELTA', value, resource_id, client_key, at, at FROM input
      ON CONFLICT ON CONSTRAINT ${sql.id(REPORT_KEY_CONSTRAINT)} DO NOTHING
      RETURNING id
    ), counted AS (
      INSERT INTO usage_counters (environment_id, subscription_id, feature_id, period_start, period_end, value, rollover, alerts_sent, updated_at)
      SELECT i.environment_id, i.subscription_id, i.feature_id, i.period_start, max(i.period_end), sum(i.value)::bigint,
             max(i.rollover), '[]'::jsonb, max(i.at)
        FROM input i JOIN report r ON r.id = i.id
       GROUP BY i.environment_id, i.subscription_id, i.feature_id, i.period_start
       ORDER BY i.subscription_id, i.feature_id, i.period_start
      ON CONFLICT (subscription_id, feature_id, period_start)
      DO UPDATE SET value = usage_counters.value + EXCLUDED.value, updated_at = EXCLUDED.updated_at
      RETURNING 1
    ), changed AS (
      SELECT DISTINCT i.environment_id, i.customer FROM input i JOIN report r ON r.id = i.id
    ), announced AS (
      SELECT ${announce} FROM changed
    )
    SELECT id FROM report
    UNION ALL
    SELECT NULL FROM announced`.execute(db);
  return new Set(recorded.flatMap((row) => (row.id ? [row.id] : [])));
}

export class ReportWriter {
  private readonly queue: Waiting[] = [];
  private inFlight = 0;
  private readonly concurrency: number;
  private readonly maxBatch: number;

  constructor(
    private readonly db: Executor,
    private readonly notice: NoticeOf | null,
    options: ReportWriterOptions = {},
  ) {
    this.concurrency = options.concurrency ?? 2;
    this.maxBatch = options.maxBatch ?? 500;
  }

  /** Resolves once the report is committed: true, or false when its client key was used before. */
  write(report: BatchedReport): Promise<boolean> {
    return new Promise((resolve, reject) => {
      this.queue.push({ report, resolve, reject });
      this.pump();
    });
  }

  private pump(): void {
    while (this.inFlight < this.concurrency && this.queue.length > 0) {
      const batch = this.takeBatch();
      this.inFlight++;
      void this.flush(batch).finally(() => {
        this.inFlight--;
        this.pump();
      });
    }
  }

  /** The oldest waiting reports, up to maxBatch, leaving a second use of one client key for a later batch. */
  private takeBatch(): Waiting[] {
    const batch: Waiting[] = [];
    const keys = new Set<string>();
    const left: Waiting[] = [];
    for (const waiting of this.queue) {
      const key = waiting.report.clientKey === null ? null : `${waiting.report.environmentId}:${waiting.report.clientKey}`;
      if (batch.length >= this.maxBatch || (key !== null && keys.has(key))) {
        left.push(waiting);
        continue;
      }
      if (key !== null) keys.add(key);
      batch.push(waiting);
    }
    this.queue.splice(0, this.queue.length, ...left);
    return batch;
  }

  private async flush(batch: Waiting[]): Promise<void> {
    try {
      const recorded = await writeReports(this.db, batch.map((w) => w.report), this.notice);
      for (const waiting of batch) waiting.resolve(recorded.has(waiting.report.id));
    } catch (error) {
      if (batch.length === 1) {
        batch[0]!.reject(error);
        return;
      }
      // One report must not fail the others: write each on its own, and let each answer for itself.
      await Promise.all(
        batch.map((waiting) =>
          writeReports(this.db, [waiting.report], this.notice).then(
            (recorded) => waiting.resolve(recorded.has(waiting.report.id)),
            waiting.reject,
          ),
        ),
      );
    }
  }
}
