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
  /** 10,000 customers of the environment (seeded), one stream each. */
  customerIds: string[];
  shape: LoadShape;
  say: (line: string) => void;
}

/** What one set of 10,000 streams held by B costs, and what the changes and the check do meanwhile. */
export interface HeldStreams {
  open: number;
  idleMb: number;
  withStreamsMb: number;
  /** The three changes of 10 customers while the streams are open. */
  latencies: number[];
  /** CPU milliseconds B spent per change (its answer computed once, written to every stream that wants it). */
  cpuMsPerChange: number;
  check: Measurement;
}

export interface StreamResults {
  latencies: { report: number[]; plan: number[]; cancel: number[] };
  cpuMsPerChange: number;
  checkNs: number;
  /** The cached Edge check before any stream was opened, in the same run. */
  checkWithout: Measurement;
  /** One stream per customer, as each end user's page would hold (a change goes to one of them). */
  customerStreams: HeldStreams;
  /** 10,000 streams of the whole environment: every change goes to each. */
  environmentStreams: HeldStreams;
}

type Api = (method: string, path: string, body?: unknown) => Promise<Record<string, unknown>>;

/** Billow's production API with a server key (any answer not 2xx fails the run), each answer as a record. */
const apiOf = (baseUrl: string, key: string): Api => billowApi(baseUrl, key) as unknown as Api;

const FREE = [{ priceType: 'FREE', currency: 'USD', chargeCatalogPrice: [{ charges: [{ chargePeriod: 'MONTHLY', priceData: { amount: 0 } }] }] }];

/** A meter and two plans granting 100 and 1,000 of it. */
type Plans = { meter: string; small: string; large: string };

async function seedPlans(api: Api): Promise<Plans> {
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
async function changeLatencies(api: Api, cache: EntitlementCache, plans: Plans, n: string) {
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

/** Opens the change streams of `paths` to `baseUrl` from a child process, resolving once each has answered; close() ends them. */
async function openStreams(baseUrl: string, key: string, paths: string[]): Promise<{ open: number; close(): void }> {
  const child = fork(HOLDER, [], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const close = () => void child.kill('SIGKILL');
  try {
    child.send({ baseUrl, key, paths });
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

/** B's CPU milliseconds per change over `work`, which makes `changes` changes. */
async function cpuMsPer<T>(pid: number, changes: (result: T) => number, work: () => Promise<T>): Promise<{ result: T; cpuMs: number }> {
  const before = cpuSecondsOf(pid) ?? NaN;
  const result = await work();
  return { result, cpuMs: (((cpuSecondsOf(pid) ?? NaN) - before) * 1000) / changes(result) };
}

type Context = { setup: StreamSetup; api: Api; cache: EntitlementCache; plans: Plans; measureCheck: (label: string) => Promise<Measurement> };

/** Opens the streams of `paths` to B, reads its memory, times 30 changes and the cached check, and closes them. */
async function holding(context: Context, kind: string, paths: string[]): Promise<HeldStreams> {
  const { setup, api, cache, plans } = context;
  await sleep(2_000);
  const idleMb = residentMbOf(setup.b.pid) ?? NaN;
  setup.say(`  opening ${paths.length.toLocaleString('en-US')} ${kind} streams to B (${Math.round(idleMb)} MB before)`);
  const streams = await openStreams(setup.b.baseUrl, setup.serverKey, paths);
  try {
    await sleep(2_000);
    const withStreamsMb = residentMbOf(setup.b.pid) ?? NaN;
    setup.say(`  ${streams.open} streams open: ${Math.round(withStreamsMb)} MB; changes again, and the cached Edge check`);
    const { result: latencies, cpuMs } = await cpuMsPer(setup.b.pid, (values: number[]) => values.length, async () => {
      const values: number[] = [];
      for (let i = 0; i < 10; i++) values.push(...Object.values(await changeLatencies(api, cache, plans, `${kind}-${i}`)));
      return values;
    });
    const check = await context.measureCheck(`cached Edge check on B, ${kind} streams open`);
    return { open: streams.open, idleMb, withStreamsMb, latencies, cpuMsPerChange: cpuMs, check };
  } finally {
    streams.close();
  }
}

export async function measureStream(setup: StreamSetup): Promise<StreamResults> {
  const { b, say } = setup;
  const api = apiOf(setup.a.baseUrl, setup.serverKey);
  const plans = await seedPlans(api);
  const cache = new Billow({ apiKey: setup.serverKey, baseUrl: b.baseUrl, maxRetries: 0 }).entitlementCache();
  try {
    await cache.check('nobody-yet').catch(() => undefined);
    while (!cache.stats().following) await sleep(20);
    say(`Stream scenario: ${CUSTOMERS} customers, each a usage report, a plan change and a cancellation through A, seen in a cache following B`);
    const latencies = { report: [] as number[], plan: [] as number[], cancel: [] as number[] };
    const { cpuMs: cpuMsPerChange } = await cpuMsPer(b.pid, () => 3 * CUSTOMERS, async () => {
      for (let i = 0; i < CUSTOMERS; i++) {
        const one = await changeLatencies(api, cache, plans, String(i));
        latencies.report.push(one.report);
        latencies.plan.push(one.plan);
        latencies.cancel.push(one.cancel);
      }
    });
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
    const context: Context = { setup, api, cache, plans, measureCheck };
    const customerPaths = setup.customerIds.map((id) => `/api/v1/entitlements/changes/${encodeURIComponent(id)}/`);
    const customerStreams = await holding(context, 'customer', customerPaths);
    const environmentStreams = await holding(context, 'environment', customerPaths.map(() => '/api/v1/entitlements/changes/'));
    return { latencies, cpuMsPerChange, checkNs, checkWithout, customerStreams, environmentStreams };
  } finally {
    cache.close();
  }
}

const ms = (value: number) => value.toFixed(1);

/** `baseMb`: B before any stream was opened (memory the first streams took is not all given back when they close). */
function heldLines(name: string, held: HeldStreams, baseMb: number, checkP99TargetMs: number): string[] {
  const extraMb = held.withStreamsMb - baseMb;
  const p99 = percentile(held.latencies, 99);
  return [
    `${held.open.toLocaleString('en-US')} ${name} on one process under ${STREAM_TARGETS.extraMb} MB extra: ` +
      `${Math.round(baseMb)} MB before any stream -> ${Math.round(held.withStreamsMb)} MB, ${Math.round(extraMb)} MB extra -> ` +
      verdict(held.open >= STREAM_TARGETS.streams && extraMb < STREAM_TARGETS.extraMb),
    `Change visible within ${STREAM_TARGETS.changeP99Ms} ms at p99 with the ${name} open: ${ms(p99)} ms (p50 ${ms(percentile(held.latencies, 50))} ms; ` +
      `B's CPU ${held.cpuMsPerChange.toFixed(1)} ms per change) -> ${verdict(p99 <= STREAM_TARGETS.changeP99Ms)}`,
    `Cached Edge check p99 at most ${checkP99TargetMs} ms with the ${name} open: ${held.check.p99Ms} ms ` +
      `(${Math.round(held.check.requestsPerSecond).toLocaleString('en-US')} req/s) -> ${verdict(held.check.p99Ms <= checkP99TargetMs)}`,
  ];
}

export function formatStreamReport(r: StreamResults, checkP99TargetMs: number): string {
  const all = [...r.latencies.report, ...r.latencies.plan, ...r.latencies.cancel];
  const rows = (
    [
      ['usage report', r.latencies.report],
      ['plan change', r.latencies.plan],
      ['cancellation', r.latencies.cancel],
      ['all three', all],
      ['all three, 10,000 customer streams open', r.customerStreams.latencies],
      ['all three, 10,000 environment streams open', r.environmentStreams.latencies],
    ] as const
  ).map(([name, values]) => [name, String(values.length), ms(percentile(values, 50)), ms(percentile(values, 99)), ms(Math.max(...values))]);
  const p99 = percentile(all, 99);
  return [
    '',
    'Stream scenario (issue 32, item 1): a change made through process A, visible in an SDK cache following process B',
    table(['change', 'n', 'p50 ms', 'p99 ms', 'max ms'], rows),
    `Cached Edge check on B before any stream: p99 ${r.checkWithout.p99Ms} ms, ${Math.round(r.checkWithout.requestsPerSecond).toLocaleString('en-US')} req/s; ` +
      `B's CPU per change with one stream: ${r.cpuMsPerChange.toFixed(1)} ms (each customer's first HTTP check included)`,
    '',
    `Change visible on another process within ${STREAM_TARGETS.changeP99Ms} ms at p99: ${ms(p99)} ms -> ${verdict(p99 <= STREAM_TARGETS.changeP99Ms)}`,
    `In-process check (hasAccessNow) under ${STREAM_TARGETS.checkNs} ns: ${r.checkNs.toFixed(0)} ns per check over ${SYNC_CHECKS.toLocaleString('en-US')} -> ${verdict(r.checkNs < STREAM_TARGETS.checkNs)}`,
    ...heldLines('customer streams', r.customerStreams, r.customerStreams.idleMb, checkP99TargetMs),
    ...heldLines('environment streams', r.environmentStreams, r.customerStreams.idleMb, checkP99TargetMs),
  ].join('\n');
}
