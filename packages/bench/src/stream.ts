/**
 * The stream scenario (issue 32, item 1): entitlements answered inside the seller's app.
 * Two Billow processes on one PostgreSQL database; the SDK's entitlement cache follows the
 * change stream of process B while changes (a usage report, a plan change, a cancellation)
 * are made through process A: the time from A's answer to the change being visible in the
 * cache. Then the synchronous check's cost, and 10,000 streams held open by B: its extra
 * memory, and its cached Edge check meanwhile.
 */
import { fork } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { Billow, type CheckEntitlementsResponse, type EntitlementCache } from '@billow/sdk';
import { measure, shuffledGets, type LoadShape, type Measurement } from './load.js';
import { billowApi } from './edge-seed.js';
import { cpuSecondsOf, residentMbOf } from './processes.js';
import { table, verdict } from './report.js';

export const STREAM_TARGETS = { changeP99Ms: 100, checkNs: 1000, streams: 10_000, extraMb: 200 } as const;

/** Customers that each go through a report, a plan change and a cancellation: three latencies each. */
const CUSTOMERS = 60;
const SYNC_CHECKS = 10_000_000;

export interface StreamServer {
  baseUrl: string;
  pid: number;
}

export interface StreamSetup {
  /** Where the changes are made. */
  a: StreamServer;
  /** Whose stream the cache follows, and which holds the 10,000 streams. */
  b: StreamServer;
  serverKey: string;
  clientKey: string;
  shape: LoadShape;
  say: (line: string) => void;
}

export interface StreamResults {
  latencies: { report: number[]; plan: number[]; cancel: number[] };
  /** The same three changes while B holds the 10,000 streams. */
  loadedLatencies: number[];
  /** CPU milliseconds process B spent per change (computing the answer once, writing it to each stream), without and with the 10,000 streams. */
  cpuMsPerChange: { without: number; loaded: number };
  checkNs: number;
  streams: number;
  idleMb: number;
  withStreamsMb: number;
  check: Measurement;
  /** The same check before the streams were opened, in the same run. */
  checkWithout: Measurement;
}

type Api = (method: string, path: string, body?: unknown) => Promise<Record<string, unknown>>;

/** Billow's production API with a server key (any answer not 2xx fails the run), each answer as a record. */
const apiOf = (baseUrl: string, key: string): Api => billowApi(baseUrl, key) as unknown as Api;

const FREE = [{ priceType: 'FREE', currency: 'USD', chargeCatalogPrice: [{ charges: [{ chargePeriod: 'MONTHLY', priceData: { amount: 0 } }] }] }];

/** A meter and two plans granting 100 and 1,000 of it. */
async function seedPlans(api: Api): Promise<{ meter: string; small: string; large: string }> {
  const product = await api('POST', '/catalog/products/', { name: 'Stream bench', taxCode: 'saas' });
  const meter = `stream-calls-${Date.now().toString(36)}`;
  const feature = await api('POST', '/catalog/features/', {
    name: 'Stream calls', identifier: meter, featureType: 'METER',
    featureDetails: { featureSubType: 'PRE_AGGREGATED_USAGE', units: { singular: 'call', plural: 'calls' } },
  });
  const plans: string[] = [];
  for (const value of [100, 1000]) {
    const plan = await api('POST', '/catalog/plans/', { name: `Stream ${value}`, product: product.id });
    const identifier = plan.identifier as string;
    await api('POST', `/catalog/plans/${identifier}/features/`, { planEntitlements: [{ feature: feature.id, details: { value, hardLimit: true } }] });
    await api('POST', `/catalog/plans/${identifier}/prices/bulk/`, { prices: FREE });
    await api('POST', `/catalog/plans/${identifier}/publish/`, {});
    plans.push(identifier);
  }
  return { meter, small: plans[0]!, large: plans[1]! };
}

/** Resolves with the time `visible(answer)` first held in the cache, polled at every turn of the event loop. */
async function seenAt(cache: EntitlementCache, customerId: string, visible: (answer: CheckEntitlementsResponse) => boolean): Promise<number> {
  const deadline = performance.now() + 10_000;
  for (;;) {
    const answer = cache.peek(customerId);
    if (answer && visible(answer)) return performance.now();
    if (performance.now() > deadline) throw new Error(`the change of ${customerId} never reached the cache`);
    await new Promise((resolve) => setImmediate(resolve));
  }
}

/** Milliseconds from A's answer to the change being visible in the cache (0 when the stream was first). */
async function timedChange(change: () => Promise<unknown>, seen: Promise<number>): Promise<number> {
  const answered = await change().then(() => performance.now());
  return Math.max(0, (await seen) - answered);
}

/** A report, a plan change and a cancellation of one new customer, each timed. */
async function changeLatencies(api: Api, cache: EntitlementCache, plans: { meter: string; small: string; large: string }, n: string) {
  const customerId = `stream-${n}-${Date.now().toString(36)}`;
  await api('POST', '/customers/', { customerId });
  const created = await api('POST', '/subscriptions/create/', { customerId, planIdentifier: plans.small, chargePeriod: 'MONTHLY' });
  await cache.check(customerId);
  const meterOf = (answer: CheckEntitlementsResponse) => answer.entitlements.find((entry) => entry.featureId === plans.meter);
  const report = await timedChange(
    () => api('POST', '/report/usage/', { customerId, featureId: plans.meter, value: 1, behaviour: 'DELTA' }),
    seenAt(cache, customerId, (answer) => meterOf(answer)?.currentUsage === 1),
  );
  let changed: Record<string, unknown> = {};
  const plan = await timedChange(
    async () => (changed = await api('POST', `/subscriptions/${created.id as string}/update/`, { planIdentifier: plans.large, chargePeriod: 'MONTHLY' })),
    seenAt(cache, customerId, (answer) => meterOf(answer)?.usageLimit === 1000),
  );
  const cancel = await timedChange(
    () => api('POST', `/subscriptions/${changed.subscriptionId as string}/cancel/`, { cancellationType: 'IMMEDIATE' }),
    seenAt(cache, customerId, (answer) => answer.entitlements.length === 0),
  );
  return { report, plan, cancel };
}

/** Nanoseconds per synchronous check of a cached customer. */
function syncCheckNs(cache: EntitlementCache, customerId: string, featureId: string): number {
  let granted = 0;
  for (let i = 0; i < 100_000; i++) if (cache.hasAccessNow(customerId, featureId)) granted++;
  const started = process.hrtime.bigint();
  for (let i = 0; i < SYNC_CHECKS; i++) if (cache.hasAccessNow(customerId, featureId)) granted++;
  const ns = Number(process.hrtime.bigint() - started) / SYNC_CHECKS;
  if (granted === 0) throw new Error('the synchronous check never granted access');
  return ns;
}

const HOLDER = fileURLToPath(new URL('./stream-holder.js', import.meta.url));

/** Opens `count` change streams to `baseUrl` from a child process, resolving once each has answered; close() ends them. */
async function openStreams(baseUrl: string, key: string, count: number): Promise<{ open: number; close(): void }> {
  const child = fork(HOLDER, [baseUrl, key, String(count)], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const close = () => void child.kill('SIGKILL');
  try {
    const [message] = (await once(child, 'message')) as [{ open?: number; error?: string }];
    if (message.error !== undefined || message.open === undefined) throw new Error(`the streams could not be opened: ${message.error ?? '?'}`);
    return { open: message.open, close };
  } catch (error) {
    close();
    throw error;
  }
}

const percentile = (values: readonly number[], p: number) => {
  const sorted = [...values].sort((x, y) => x - y);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? NaN;
};

export async function measureStream(setup: StreamSetup): Promise<StreamResults> {
  const { a, b, say } = setup;
  const api = apiOf(a.baseUrl, setup.serverKey);
  const plans = await seedPlans(api);
  const cache = new Billow({ apiKey: setup.serverKey, baseUrl: b.baseUrl, maxRetries: 0 }).entitlementCache();
  try {
    await cache.check('nobody-yet').catch(() => undefined);
    while (!cache.stats().following) await sleep(20);
    say(`Stream scenario: ${CUSTOMERS} customers, each a usage report, a plan change and a cancellation through A, seen in a cache following B`);
    const latencies = { report: [] as number[], plan: [] as number[], cancel: [] as number[] };
    const cpuBefore = cpuSecondsOf(b.pid) ?? NaN;
    for (let i = 0; i < CUSTOMERS; i++) {
      const one = await changeLatencies(api, cache, plans, String(i));
      latencies.report.push(one.report);
      latencies.plan.push(one.plan);
      latencies.cancel.push(one.cancel);
    }
    const cpuMsPerChange = { without: (((cpuSecondsOf(b.pid) ?? NaN) - cpuBefore) * 1000) / (3 * CUSTOMERS), loaded: NaN };
    const hot = `stream-hot-${Date.now().toString(36)}`;
    await api('POST', '/customers/', { customerId: hot });
    await api('POST', '/subscriptions/create/', { customerId: hot, planIdentifier: plans.large, chargePeriod: 'MONTHLY' });
    await cache.check(hot);
    say(`  timing ${SYNC_CHECKS.toLocaleString('en-US')} synchronous checks`);
    const checkNs = syncCheckNs(cache, hot, plans.meter);

    const measureCheck = (label: string) =>
      measure(
        {
          label,
          url: b.baseUrl,
          headers: { authorization: `Bearer ${setup.clientKey}` },
          requests: shuffledGets([`/api/v1/entitlements/?customer_id=${encodeURIComponent(hot)}&feature_id=${plans.meter}`]),
          serverCpuSeconds: () => null,
        },
        setup.shape,
        say,
      );
    const checkWithout = await measureCheck('cached Edge check on B, no stream open');
    await sleep(2_000);
    const idleMb = residentMbOf(b.pid) ?? NaN;
    say(`  opening ${STREAM_TARGETS.streams.toLocaleString('en-US')} streams to B (${Math.round(idleMb)} MB before)`);
    const streams = await openStreams(b.baseUrl, setup.serverKey, STREAM_TARGETS.streams);
    try {
      await sleep(2_000);
      const withStreamsMb = residentMbOf(b.pid) ?? NaN;
      say(`  ${streams.open} streams open: ${Math.round(withStreamsMb)} MB; changes again, and the cached Edge check`);
      const loadedLatencies: number[] = [];
      const loadedCpuBefore = cpuSecondsOf(b.pid) ?? NaN;
      for (let i = 0; i < 10; i++) {
        const one = await changeLatencies(api, cache, plans, `loaded-${i}`);
        loadedLatencies.push(one.report, one.plan, one.cancel);
      }
      cpuMsPerChange.loaded = (((cpuSecondsOf(b.pid) ?? NaN) - loadedCpuBefore) * 1000) / loadedLatencies.length;
      const check = await measureCheck('cached Edge check on B, 10,000 streams open');
      return { latencies, loadedLatencies, cpuMsPerChange, checkNs, streams: streams.open, idleMb, withStreamsMb, check, checkWithout };
    } finally {
      streams.close();
    }
  } finally {
    cache.close();
  }
}

const ms = (value: number) => value.toFixed(1);

export function formatStreamReport(r: StreamResults, checkP99TargetMs: number): string {
  const all = [...r.latencies.report, ...r.latencies.plan, ...r.latencies.cancel];
  const rows = (
    [
      ['usage report', r.latencies.report],
      ['plan change', r.latencies.plan],
      ['cancellation', r.latencies.cancel],
      ['all three', all],
      ['all three, 10,000 streams open', r.loadedLatencies],
    ] as const
  ).map(([name, values]) => [name, String(values.length), ms(percentile(values, 50)), ms(percentile(values, 99)), ms(Math.max(...values))]);
  const extraMb = r.withStreamsMb - r.idleMb;
  const p99 = percentile(all, 99);
  const loadedP99 = percentile(r.loadedLatencies, 99);
  return [
    '',
    'Stream scenario (issue 32, item 1): a change made through process A, visible in an SDK cache following process B',
    table(['change', 'n', 'p50 ms', 'p99 ms', 'max ms'], rows),
    `Process B's CPU per change (its answer computed once and written to every stream; each customer's first HTTP check included): ` +
      `${r.cpuMsPerChange.without.toFixed(1)} ms with one stream, ${r.cpuMsPerChange.loaded.toFixed(1)} ms with 10,000`,
    '',
    `Change visible on another process within ${STREAM_TARGETS.changeP99Ms} ms at p99: ${ms(p99)} ms -> ${verdict(p99 <= STREAM_TARGETS.changeP99Ms)}`,
    `Change visible within ${STREAM_TARGETS.changeP99Ms} ms at p99 with 10,000 streams open: ${ms(loadedP99)} ms -> ${verdict(loadedP99 <= STREAM_TARGETS.changeP99Ms)}`,
    `In-process check (hasAccessNow) under ${STREAM_TARGETS.checkNs} ns: ${r.checkNs.toFixed(0)} ns per check over ${SYNC_CHECKS.toLocaleString('en-US')} -> ${verdict(r.checkNs < STREAM_TARGETS.checkNs)}`,
    `${r.streams.toLocaleString('en-US')} open streams on one process under ${STREAM_TARGETS.extraMb} MB extra: ` +
      `${Math.round(r.idleMb)} MB -> ${Math.round(r.withStreamsMb)} MB, ${Math.round(extraMb)} MB extra -> ` +
      verdict(r.streams >= STREAM_TARGETS.streams && extraMb < STREAM_TARGETS.extraMb),
    `Cached Edge check p99 at most ${checkP99TargetMs} ms with 10,000 streams open: ${r.check.p99Ms} ms ` +
      `(${Math.round(r.check.requestsPerSecond).toLocaleString('en-US')} req/s; before the streams were opened: ${r.checkWithout.p99Ms} ms, ` +
      `${Math.round(r.checkWithout.requestsPerSecond).toLocaleString('en-US')} req/s) -> ${verdict(r.check.p99Ms <= checkP99TargetMs)}`,
  ].join('\n');
}
