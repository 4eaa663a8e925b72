import { Counter, Gauge, Histogram, type Registry } from 'prom-client';
import type { Db } from '../../db/connect.js';
import { countUnfinishedJobs } from './repo.js';

export type RunOutcome = 'succeeded' | 'failed' | 'dead';

/** Queue depth at /metrics: one grouped count, run when the metrics are read. */
export function registerQueueDepth(registry: Registry, db: Db): void {
  new Gauge({
    name: 'billow_job_queue_depth',
    help: 'Jobs not yet succeeded, by job name and state (pending, running, failed, dead)',
    labelNames: ['name', 'state'],
    registers: [registry],
    async collect() {
      // An unreachable database must not take the other metrics down with it: the gauge is left empty.
      const rows = await countUnfinishedJobs(db).catch(() => []);
      this.reset();
      for (const row of rows) this.set({ name: row.name, state: row.state }, row.count);
    },
  });
}

/** Each process that runs jobs counts their attempts and times them; several runners share the series. */
export class JobRunMetrics {
  private readonly runs: Counter<'name' | 'outcome'>;
  private readonly duration: Histogram<'name'>;

  constructor(registry: Registry) {
    this.runs =
      (registry.getSingleMetric('billow_job_runs_total') as Counter<'name' | 'outcome'> | undefined) ??
      new Counter({
        name: 'billow_job_runs_total',
        help: 'Job attempts by job name and outcome: succeeded, failed (to be retried) or dead (out of attempts)',
        labelNames: ['name', 'outcome'],
        registers: [registry],
      });
    this.duration =
      (registry.getSingleMetric('billow_job_duration_seconds') as Histogram<'name'> | undefined) ??
      new Histogram({
        name: 'billow_job_duration_seconds',
        help: 'Time each job attempt took, by job name',
        labelNames: ['name'],
        buckets: [0.005, 0.025, 0.1, 0.5, 1, 5, 30, 120],
        registers: [registry],
      });
  }

  record(name: string, outcome: RunOutcome, seconds: number): void {
    this.runs.inc({ name, outcome });
    this.duration.observe({ name }, seconds);
  }
}
