/**
 * Issue 16's scale scenarios (decision 0040): the entitlement check with one and
 * with two worker processes (`billow start --workers N`) in the same run, and
 * the batch usage endpoint, 1,000 reports a request, with the counters checked
 * afterwards. Their figures and targets are printed in a table of their own.
 */
import { readFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { meterTotals, reportTotals, transactionCount } from './database.js';
import { billowApi, seedEdgeCatalog, subscribeAll } from './edge-seed.js';
import { measure, shuffledGets, numberedPost, type LoadShape, type Measurement } from './load.js';
import { cpuSecondsOf } from './processes.js';
import { measurementRow, table, verdict } from './report.js';

/** Issue 32, item 5: 100,000 reports a second batched. */
export const SCALE_TARGETS = { batchReportsPerSecond: 100_000, batchSize: 1000 } as const;
/** Batches in flight at once: each already holds a thousand reports. */
const BATCH_CONNECTIONS = 8;

export interface ScaleServer {
  baseUrl: string;
  /** The server's process id: the cluster's primary when it has workers. */
  pid: number;
  stop(): Promise<void>;
}

export interface ScaleContext {
  shape: LoadShape;
  databaseUrl: string;
  serverKey: string;
  /** The paths of scenario (5): one feature of one of the check customers. */
  checkPaths: string[];
  meter: string;
  /** The customers the batches report on. */
  customers: readonly string[];
  start(label: string, args: string[]): Promise<ScaleServer>;
  say(line: string): void;
}

export interface ScaleResults {
  oneWorker: Measurement;
  twoWorkers: Measurement;
  batch: Measurement;
  /** Reports stored under the measured batches' keys: each accepted one, and no other. */
  batchStored: number;
  /** The meter's counters and the sum of its stored reports, over the batches' customers, once all settled. */
  counters: { counted: number; reported: number };
  transactionsPerReport: number | null;
}

/** CPU seconds of a process and its children (a cluster's primary and its workers). */
function treeCpuSeconds(pid: number): number | null {
  let children: number[] = [];
  try {
    children = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
  } catch {
    // no /proc: the process alone
  }
  let total = 0;
  for (const id of [pid, ...children]) {
    const seconds = cpuSecondsOf(id);
    if (seconds === null) return null;
    total += seconds;
  }
  return total;
}

async function measureCheck(context: ScaleContext, workers: number): Promise<Measurement> {
  const args = workers === 1 ? ['start'] : ['start', '--workers', String(workers)];
  const server = await context.start(`Billow --workers ${workers}`, args);
  try {
    const label = `(${workers === 1 ? 10 : 11}) check as (5), billow start --workers ${workers}`;
    context.say(`Measuring ${label}`);
    return await measure(
      {
        label,
        url: server.baseUrl,
        headers: { authorization: `Bearer ${context.serverKey}` },
        requests: shuffledGets(context.checkPaths),
        serverCpuSeconds: () => treeCpuSeconds(server.pid),
      },
      context.shape,
      context.say,
    );
  } finally {
    await server.stop();
  }
}

/** A batch of `SCALE_TARGETS.batchSize` DELTA 1 reports over the customers, every key new and starting with `prefix()`. */
function batchBody(context: ScaleContext, prefix: () => string) {
  return (n: number) => ({
    reports: Array.from({ length: SCALE_TARGETS.batchSize }, (_, i) => ({
      customerId: context.customers[(n * SCALE_TARGETS.batchSize + i) % context.customers.length],
      featureId: context.meter,
      value: 1,
      behaviour: 'DELTA',
      idempotencyKey: `${prefix()}-${n}-${i}`,
    })),
  });
}

async function measureBatch(context: ScaleContext) {
  const server = await context.start('Billow', ['start']);
  const sumOver = (totals: Map<string, number>) => context.customers.reduce((sum, id) => sum + (totals.get(id) ?? 0), 0);
  const counted = async () => sumOver(await meterTotals(context.databaseUrl, context.meter));
  // The measured batches' keys differ from the warm-up's: a warm-up batch answered late is not taken for one of them.
  const runId = `batch-${process.pid}-${Date.now().toString(36)}`;
  let phase = 'warm-up';
  try {
    const label = `(12) POST /report/usage/batch/, ${SCALE_TARGETS.batchSize} reports a request, ${context.customers.length} customers`;
    context.say(`Measuring ${label} (${BATCH_CONNECTIONS} connections)`);
    let transactionsBefore = 0;
    const measurement = await measure(
      {
        label,
        url: server.baseUrl,
        headers: { authorization: `Bearer ${context.serverKey}`, 'content-type': 'application/json' },
        requests: numberedPost('/api/v1/report/usage/batch/', batchBody(context, () => `${runId}-${phase}`)),
        serverCpuSeconds: () => cpuSecondsOf(server.pid),
        exact: true,
        beforeMeasured: async () => {
          await untilSteady(counted);
          phase = 'measured';
          transactionsBefore = await transactionCount(context.databaseUrl);
        },
      },
      { ...context.shape, connections: BATCH_CONNECTIONS },
      context.say,
    );
    // pg_stat_database is flushed about once a second.
    await sleep(1500);
    const transactions = (await transactionCount(context.databaseUrl)) - transactionsBefore;
    const settled = await untilSteady(counted);
    const stored = await reportTotals(context.databaseUrl, context.meter, `${runId}-measured-`);
    const reports = measurement.accepted * SCALE_TARGETS.batchSize;
    return {
      batch: measurement,
      batchStored: stored.withPrefix,
      counters: { counted: settled, reported: sumOver(stored.perCustomer) },
      transactionsPerReport: reports > 0 ? transactions / reports : null,
    };
  } finally {
    await server.stop();
  }
}

/** The paths of scenario (5): each check customer with each feature, as hasAccess asks. */
export function checkPathsOf(customers: readonly string[], features: readonly string[]): string[] {
  return customers.flatMap((id) => features.map((feature) => `/api/v1/entitlements?customer_id=${encodeURIComponent(id)}&feature_id=${feature}`));
}

/** For `npm run bench -- scale` alone: the Edge catalog and subscriptions, made through a Billow that is then stopped. */
export async function seedScale(
  server: ScaleServer,
  serverKey: string,
  customers: { check: readonly string[]; spread: readonly string[] },
): Promise<{ checkPaths: string[]; meter: string }> {
  try {
    const api = billowApi(server.baseUrl, serverKey);
    const catalog = await seedEdgeCatalog(api);
    await subscribeAll(api, customers.check, catalog.plans);
    await subscribeAll(api, customers.spread, catalog.plans.slice(0, 1));
    return { checkPaths: checkPathsOf(customers.check, catalog.features), meter: catalog.meter };
  } finally {
    await server.stop();
  }
}

/**
 * A batch takes seconds on a loaded machine: the warm-up's last ones may commit
 * after the load generator stopped waiting for them. The counters, once two
 * reads a second apart agree.
 */
async function untilSteady(read: () => Promise<number>): Promise<number> {
  let last = await read();
  for (;;) {
    await sleep(1000);
    const next = await read();
    if (next === last) return next;
    last = next;
  }
}

export async function measureScale(context: ScaleContext): Promise<ScaleResults> {
  const oneWorker = await measureCheck(context, 1);
  const twoWorkers = await measureCheck(context, 2);
  return { oneWorker, twoWorkers, ...(await measureBatch(context)) };
}

export function formatScaleReport(r: ScaleResults): string {
  const perReport = (m: Measurement) => ({
    ...m,
    serverCpuUsPerRequest: m.serverCpuUsPerRequest === null ? null : m.serverCpuUsPerRequest / SCALE_TARGETS.batchSize,
  });
  const figures = table(
    ['scenario', 'req/s', 'p50 ms', 'p97.5 ms', 'p99 ms', 'errors', 'server CPU µs/req'],
    [r.oneWorker, r.twoWorkers, r.batch].map(measurementRow),
  );
  const scaling = r.twoWorkers.requestsPerSecond / r.oneWorker.requestsPerSecond;
  const reportsPerSecond = r.batch.requestsPerSecond * SCALE_TARGETS.batchSize;
  const accepted = r.batch.accepted * SCALE_TARGETS.batchSize;
  const cpu = perReport(r.batch).serverCpuUsPerRequest;
  const ratios = table(
    ['ratio', 'value'],
    [
      ['req/s, check with 2 workers (11) / 1 worker (10): scaling factor', scaling.toFixed(2)],
      ['server CPU per check, (11) / (10) (all processes)', cpuOf(r.twoWorkers, r.oneWorker)],
      ['reports/s, batch (12)', Math.round(reportsPerSecond).toLocaleString('en-US')],
      [`reports/s, batch (12) / ${SCALE_TARGETS.batchReportsPerSecond.toLocaleString('en-US')} target`, (reportsPerSecond / SCALE_TARGETS.batchReportsPerSecond).toFixed(2)],
      ['server CPU per report, batch (12)', cpu === null ? '-' : `${cpu.toFixed(1)} µs`],
      ['transactions per report, batch (12) (pg_stat_database)', r.transactionsPerReport === null ? '-' : r.transactionsPerReport.toFixed(4)],
    ],
  );
  const targets = [
    `Check with 2 workers (11) vs 1 (10): scaling factor ${scaling.toFixed(2)} (reported: on 2 cores the load generator and PostgreSQL share them)`,
    `Batch (12) at least ${SCALE_TARGETS.batchReportsPerSecond.toLocaleString('en-US')} reports/s: ` +
      `${Math.round(reportsPerSecond).toLocaleString('en-US')}/s -> ${verdict(reportsPerSecond >= SCALE_TARGETS.batchReportsPerSecond)}`,
    `Batch (12) every accepted report stored, none other: ${r.batchStored.toLocaleString('en-US')} stored under the measured keys, ` +
      `${accepted.toLocaleString('en-US')} accepted, ${r.batch.errors} requests refused or unanswered -> ${verdict(r.batchStored === accepted && r.batch.errors === 0)}`,
    `Batch (12) counters equal the stored reports (none lost or counted twice): ${r.counters.counted.toLocaleString('en-US')} counted, ` +
      `${r.counters.reported.toLocaleString('en-US')} reported -> ${verdict(r.counters.counted === r.counters.reported)}`,
  ];
  return ['', figures, '', ratios, '', 'Targets (scale)', ...targets.map((t) => `  ${t}`), ''].join('\n');
}

function cpuOf(a: Measurement, b: Measurement): string {
  if (a.serverCpuUsPerRequest === null || b.serverCpuUsPerRequest === null) return '-';
  return `${(a.serverCpuUsPerRequest / b.serverCpuUsPerRequest).toFixed(2)}x`;
}
