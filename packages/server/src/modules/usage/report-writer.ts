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
import type { Executor } from '../../db/transaction.js';
import { writeReports, type BatchedReport, type NoticeOf } from './repo.js';

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
