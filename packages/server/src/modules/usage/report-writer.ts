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
 *
 * The batch endpoint's requests join the same queue whole (`writeAll`): batches
 * in flight at once are written by one statement, so a counter that several of
 * them add to is updated, and locked, once for all of them.
 */
import type { Executor } from '../../db/transaction.js';
import { writeReports, type BatchedReport, type NoticeOf } from './repo.js';

/** Reports that are answered together: one single report, or the reports of one batch request (keys distinct). */
interface Waiting {
  reports: readonly BatchedReport[];
  /** With the ids of the reports of its flush that were not recorded. */
  resolve: (lost: Set<string>) => void;
  reject: (error: unknown) => void;
}

export interface ReportWriterOptions {
  /** Statements in flight at once; more reports wait for the next batch. */
  concurrency?: number;
  /** The most reports one statement writes (a batch request larger than that is written alone, whole). */
  maxBatch?: number;
}

/** How many times a flush whose statement deadlocked is tried again (another writer took counters in another order). */
const DEADLOCK_RETRIES = 3;
const DEADLOCK = '40P01';

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
    this.maxBatch = options.maxBatch ?? 4000;
  }

  /** Resolves once the report is committed: true, or false when its client key was used before. */
  async write(report: BatchedReport): Promise<boolean> {
    return !(await this.writeAll([report])).has(report.id);
  }

  /**
   * Writes reports whose client keys are distinct, with whatever else is waiting;
   * resolves once they are committed, with the ids of those not recorded (their
   * client key was used before) among them and others. All of them, or none, are committed.
   */
  writeAll(reports: readonly BatchedReport[]): Promise<Set<string>> {
    if (reports.length === 0) return Promise.resolve(new Set());
    return new Promise((resolve, reject) => {
      this.queue.push({ reports, resolve, reject });
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
    let size = 0;
    for (const waiting of this.queue) {
      const own = waiting.reports.flatMap((r) => (r.clientKey === null ? [] : [`${r.environmentId}:${r.clientKey}`]));
      const full = batch.length > 0 && size + waiting.reports.length > this.maxBatch;
      if (full || own.some((key) => keys.has(key))) {
        left.push(waiting);
        continue;
      }
      for (const key of own) keys.add(key);
      size += waiting.reports.length;
      batch.push(waiting);
    }
    this.queue.splice(0, this.queue.length, ...left);
    return batch;
  }

  private async flush(batch: Waiting[]): Promise<void> {
    try {
      const lost = await this.withDeadlockRetry(() => writeReports(this.db, batch.flatMap((w) => w.reports), this.notice));
      for (const waiting of batch) waiting.resolve(lost);
    } catch (error) {
      if (batch.length === 1) {
        batch[0]!.reject(error);
        return;
      }
      // One request's reports must not fail the others': write each request's on their own, and let each answer for itself.
      await Promise.all(
        batch.map((waiting) => this.withDeadlockRetry(() => writeReports(this.db, waiting.reports, this.notice)).then(waiting.resolve, waiting.reject)),
      );
    }
  }

  private async withDeadlockRetry<T>(work: () => Promise<T>): Promise<T> {
    for (let attempt = 0; ; attempt++) {
      try {
        return await work();
      } catch (error) {
        if ((error as { code?: string }).code !== DEADLOCK || attempt >= DEADLOCK_RETRIES) throw error;
      }
    }
  }
}
