import { checkoutPageLines, type CheckoutPageResult } from './checkout-page.js';
import type { Measurement } from './load.js';
import type { RenewalResults } from './renewals.js';
import type { WebhookPhase, WebhookResults } from './webhooks.js';

export const TARGETS = {
  getShareOfPgCeiling: 0.6,
  getP99Ms: 25,
  /** Issue 32, item 2: a cached answer is judged against the framework itself, scenario (3). */
  checkShareOfJsonCeiling: 0.8,
  checkP99Ms: 3,
  listShareOfJsonCeiling: 0.7,
  /** Issue 16: a create against scenario (4), a read by primary key through pg. */
  postShareOfPgCeiling: 0.35,
  /** Issue 32, item 5: single reports. */
  usagePerSecond: 15_000,
  promotionsShareOfJsonCeiling: 0.8,
  promotionsP99Ms: 5,
} as const;

/** A check, with the server's own p99 (the bound of its /metrics bucket, in ms). */
export type CheckMeasurement = Measurement & { serverP99Ms: number | null };

export interface EdgeResults {
  /** A check of one feature, as hasAccess sends it: the target's measure. */
  entitlements: CheckMeasurement;
  /** All of a customer's entries, as getEntitlements asks: reported, with the same ratios. */
  entitlementList: CheckMeasurement;
  usageHot: Measurement;
  usageSpread: Measurement;
  /** How much the meter's counters grew during each usage scenario's measured run (every report adds 1). */
  counted: { hot: number; spread: number };
  /** GET /promotions with a client key, from fifteen countries, against `--role edge` (scenario 9). */
  promotions: CheckMeasurement;
}

export interface Results {
  get: Measurement;
  post: Measurement;
  jsonCeiling: Measurement;
  pgCeiling: Measurement;
  edge: EdgeResults;
  /** The hosted checkout page's server time (scenario 13). */
  checkoutPage: CheckoutPageResult;
}

function pad(text: string, width: number, align: 'left' | 'right'): string {
  return align === 'left' ? text.padEnd(width) : text.padStart(width);
}

export function table(header: string[], rows: string[][]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: string[]) =>
    cells.map((cell, i) => pad(cell, widths[i] ?? 0, i === 0 ? 'left' : 'right')).join('  ');
  return [line(header), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)].join('\n');
}

export function measurementRow(m: Measurement): string[] {
  return [
    m.label,
    Math.round(m.requestsPerSecond).toLocaleString('en-US'),
    String(m.p50Ms),
    String(m.p975Ms),
    String(m.p99Ms),
    String(m.errors),
    m.serverCpuUsPerRequest === null ? '-' : Math.round(m.serverCpuUsPerRequest).toString(),
  ];
}

const ratio = (a: Measurement, b: Measurement) => a.requestsPerSecond / b.requestsPerSecond;

function cpuRatio(a: Measurement, b: Measurement): string {
  if (a.serverCpuUsPerRequest === null || b.serverCpuUsPerRequest === null) return '-';
  return `${(a.serverCpuUsPerRequest / b.serverCpuUsPerRequest).toFixed(2)}x`;
}
export const verdict = (met: boolean) => (met ? 'met' : 'MISSED');

const percent = (share: number) => `${(share * 100).toFixed(0)}%`;

/** Each target as one line: what was asked, what was measured, met or MISSED. */
function targetLines(results: Results): string[] {
  const lines = [...coreLines(results), ...edgeLines(results), ...promotionLines(results), ...checkoutPageLines(results.checkoutPage)];
  const { edge } = results;
  const usage: Array<[Measurement, number]> = [
    [edge.usageHot, edge.counted.hot],
    [edge.usageSpread, edge.counted.spread],
  ];
  for (const [m, counted] of usage) {
    const name = m.label.replace(/^\((\d)\) Billow /, '($1) ');
    lines.push(
      `${name}: at least ${TARGETS.usagePerSecond.toLocaleString('en-US')}/s: ${Math.round(m.requestsPerSecond).toLocaleString('en-US')}/s -> ` +
        verdict(m.requestsPerSecond >= TARGETS.usagePerSecond),
      `${name}: counter equals the accepted reports: ${counted.toLocaleString('en-US')} counted, ` +
        `${m.accepted.toLocaleString('en-US')} accepted -> ${verdict(counted === m.accepted)}`,
    );
  }
  return lines;
}

/** Reading and creating a customer, against the bare Fastify + pg route (4). */
function coreLines({ get, post, pgCeiling }: Results): string[] {
  const getShare = ratio(get, pgCeiling);
  const postShare = ratio(post, pgCeiling);
  return [
    `GET /customers (1) at least ${percent(TARGETS.getShareOfPgCeiling)} of (4)'s requests per second: ` +
      `${percent(getShare)} -> ${verdict(getShare >= TARGETS.getShareOfPgCeiling)}`,
    `GET /customers (1) p99 under ${TARGETS.getP99Ms} ms: ${get.p99Ms} ms -> ${verdict(get.p99Ms < TARGETS.getP99Ms)}`,
    `POST /customers (2) at least ${percent(TARGETS.postShareOfPgCeiling)} of (4)'s requests per second: ` +
      `${percent(postShare)} -> ${verdict(postShare >= TARGETS.postShareOfPgCeiling)}`,
  ];
}

/** The entitlement check and list, served from cache: against the bare Fastify JSON route (3). */
function edgeLines({ jsonCeiling, edge }: Results): string[] {
  const check = edge.entitlements;
  const checkShare = ratio(check, jsonCeiling);
  const listShare = ratio(edge.entitlementList, jsonCeiling);
  return [
    `Entitlement check (5) at least ${percent(TARGETS.checkShareOfJsonCeiling)} of (3)'s requests per second: ` +
      `${percent(checkShare)} -> ${verdict(checkShare >= TARGETS.checkShareOfJsonCeiling)}`,
    `Entitlement check (5) p99 at most ${TARGETS.checkP99Ms} ms: ${check.p99Ms} ms -> ` +
      verdict(check.p99Ms <= TARGETS.checkP99Ms) +
      ` (autocannon's 1 ms histogram; inside Billow, p99 under ${check.serverP99Ms ?? '?'} ms)`,
    `Entitlement list (6) at least ${percent(TARGETS.listShareOfJsonCeiling)} of (3)'s requests per second: ` +
      `${percent(listShare)} -> ${verdict(listShare >= TARGETS.listShareOfJsonCeiling)}`,
  ];
}

/** Issue 13's targets for GET /promotions: against the bare Fastify JSON route (3), and its p99. */
function promotionLines({ jsonCeiling, edge }: Results): string[] {
  const m = edge.promotions;
  const share = ratio(m, jsonCeiling);
  return [
    `GET /promotions (9) at least ${percent(TARGETS.promotionsShareOfJsonCeiling)} of (3)'s requests per second: ` +
      `${percent(share)} -> ${verdict(share >= TARGETS.promotionsShareOfJsonCeiling)}`,
    `GET /promotions (9) p99 under ${TARGETS.promotionsP99Ms} ms: ${m.p99Ms} ms -> ${verdict(m.p99Ms < TARGETS.promotionsP99Ms)}` +
      ` (inside Billow, p99 under ${m.serverP99Ms ?? '?'} ms)`,
  ];
}

/** The table of figures, the ratios, and the targets with met or MISSED. */
export function formatReport(results: Results): string {
  const { get, post, jsonCeiling, pgCeiling, edge } = results;
  const figures = table(
    ['scenario', 'req/s', 'p50 ms', 'p97.5 ms', 'p99 ms', 'errors', 'server CPU µs/req'],
    [get, post, jsonCeiling, pgCeiling, edge.entitlements, edge.entitlementList, edge.usageHot, edge.usageSpread, edge.promotions].map(
      measurementRow,
    ),
  );
  const ratios = table(
    ['ratio', 'value'],
    [
      ['req/s, GET (1) / Fastify + pg (4)', ratio(get, pgCeiling).toFixed(2)],
      ['req/s, GET (1) / Fastify JSON (3)', ratio(get, jsonCeiling).toFixed(2)],
      ['req/s, POST (2) / Fastify + pg (4)', ratio(post, pgCeiling).toFixed(2)],
      ['server CPU per request, GET (1) / (4)', cpuRatio(get, pgCeiling)],
      ['req/s, entitlements (5) / Fastify + pg (4)', ratio(edge.entitlements, pgCeiling).toFixed(2)],
      ['req/s, entitlements (5) / Fastify JSON (3)', ratio(edge.entitlements, jsonCeiling).toFixed(2)],
      ['req/s, entitlement list (6) / Fastify JSON (3)', ratio(edge.entitlementList, jsonCeiling).toFixed(2)],
      ['server CPU per request, entitlements (5) / (3)', cpuRatio(edge.entitlements, jsonCeiling)],
      [`req/s, usage DELTA one counter (7) / ${TARGETS.usagePerSecond.toLocaleString('en-US')} target`, (edge.usageHot.requestsPerSecond / TARGETS.usagePerSecond).toFixed(2)],
      [`req/s, usage DELTA 1000 customers (8) / ${TARGETS.usagePerSecond.toLocaleString('en-US')} target`, (edge.usageSpread.requestsPerSecond / TARGETS.usagePerSecond).toFixed(2)],
      ['req/s, promotions (9) / Fastify JSON (3)', ratio(edge.promotions, jsonCeiling).toFixed(2)],
      ['server CPU per request, promotions (9) / (3)', cpuRatio(edge.promotions, jsonCeiling)],
    ],
  );
  const targets = targetLines(results);
  return ['', figures, '', ratios, '', 'Targets', ...targets.map((t) => `  ${t}`), ''].join('\n');
}

/** Issue 32, item 3. */
export const RENEWAL_TARGETS = { perSecond: 500, ceilingSeconds: 20 } as const;

/** The renewal run's figures, its two targets and the exactly-once check, with met or MISSED. */
export function formatRenewalReport(r: RenewalResults): string {
  const rate = r.subscriptions / r.wallSeconds;
  const { check } = r;
  const exact =
    check.oneInvoice === r.subscriptions && check.oneCharge === r.subscriptions && check.stillDue === 0 &&
    check.invoices === r.subscriptions && check.charges === r.subscriptions;
  const numberedOnce =
    check.numbered === r.subscriptions && check.distinctNumbers === r.subscriptions && check.numberedInAll === check.numbersHandedOut;
  const figures = table(
    ['renewal run', 'value'],
    [
      ['subscriptions due at one instant', `${r.subscriptions.toLocaleString('en-US')} (${r.throughApi} through the API, the rest copied)`],
      ['worker', `1 JobRunner, concurrency ${r.concurrency}, sweep every ${r.sweepIntervalMs} ms`],
      ['wall time, first claim to last renewal', `${r.wallSeconds.toFixed(1)} s`],
      ['renewals per second', rate.toFixed(0)],
      ['bill-subscription jobs run', r.jobs.toLocaleString('en-US')],
      ['per renewal (job handler), p50 / p99 / max', `${r.p50Ms.toFixed(1)} / ${r.p99Ms.toFixed(1)} / ${r.maxMs.toFixed(1)} ms`],
      ['jobs retried, failed or dead', String(r.failedJobs)],
      ['worker CPU (this process)', `${r.cpuSeconds.toFixed(1)} s, ${((r.cpuSeconds * 1e6) / r.subscriptions).toFixed(0)} µs per renewal`],
      [
        'PostgreSQL CPU (the database\'s backends)',
        r.databaseCpuSeconds === null ? 'not measured (no /proc)' : `${r.databaseCpuSeconds.toFixed(1)} s, ${((r.databaseCpuSeconds * 1e6) / r.subscriptions).toFixed(0)} µs per renewal`,
      ],
      [
        'statements / transactions per renewal',
        `${(r.queries / r.subscriptions).toFixed(1)} / ${(r.transactions / r.subscriptions).toFixed(1)}`,
      ],
      [`ratio, renewals/s / ${RENEWAL_TARGETS.perSecond} target`, (rate / RENEWAL_TARGETS.perSecond).toFixed(2)],
      [`ratio, wall time / ${RENEWAL_TARGETS.ceilingSeconds} s ceiling`, (r.wallSeconds / RENEWAL_TARGETS.ceilingSeconds).toFixed(2)],
    ],
  );
  const targets = [
    `Renewals at least ${RENEWAL_TARGETS.perSecond}/s with one worker: ${rate.toFixed(0)}/s -> ${verdict(rate >= RENEWAL_TARGETS.perSecond)}`,
    `${r.subscriptions.toLocaleString('en-US')} renewals within ${RENEWAL_TARGETS.ceilingSeconds} s: ${r.wallSeconds.toFixed(1)} s -> ` +
      verdict(r.wallSeconds <= RENEWAL_TARGETS.ceilingSeconds),
    `Each renewed exactly once: ${check.oneInvoice} with one paid renewal invoice, ${check.oneCharge} with one charge, ` +
      `${check.invoices} invoices and ${check.charges} charges in all, ${check.stillDue} still due -> ${verdict(exact)}`,
    `Each renewal invoice numbered once, none skipped: ${check.numbered} numbered, ${check.distinctNumbers} distinct numbers; ` +
      `${check.numberedInAll} numbered invoices in the environment, ${check.numbersHandedOut} numbers handed out -> ${verdict(numberedOnce)}`,
  ];
  return ['', figures, '', 'Targets (renewals)', ...targets.map((t) => `  ${t}`), ''].join('\n');
}

/** Issue 32, item 4: deliveries a second of one worker, and commit to receipt at 1,000 events/s. */
export const WEBHOOK_TARGETS = { deliveriesPerSecond: 3000, eventsPerSecond: 1000, p50Ms: 50, p99Ms: 250 } as const;
/** The live producer counts as having reached its rate at this share of it. */
const RATE_REACHED = 0.95;

const ms = (value: number) => `${Math.round(value).toLocaleString('en-US')} ms`;
const perSecond = (n: number, seconds: number) => Math.round(n / seconds);
const cpuPerDelivery = (phase: WebhookPhase) =>
  phase.workerCpuSeconds === null ? '-' : `${phase.workerCpuSeconds.toFixed(2)} s, ${((phase.workerCpuSeconds * 1e6) / phase.expected).toFixed(0)} µs per delivery`;
/** Events a second of the live phase: between its first and last commit. */
const liveRate = (live: WebhookPhase) => (live.producedSeconds > 0 ? (live.events - 1) / live.producedSeconds : 0);

function webhookFigures(r: WebhookResults): string {
  const { backlog, live } = r;
  return table(
    ['webhook run', 'value'],
    [
      ['endpoints (receivers in the bench process, answering 200)', String(r.receivers)],
      ['worker', 'billow start --role worker, default settings: woken by commits, poll every 250 ms, concurrency 128'],
      ['backlog: events / deliveries', `${backlog.events.toLocaleString('en-US')} / ${backlog.expected.toLocaleString('en-US')}`],
      ['backlog: worker process start (spawn to /healthz)', `${backlog.workerStartSeconds?.toFixed(2) ?? '?'} s`],
      ['backlog: wall time, worker started to last delivery', `${backlog.wallSeconds.toFixed(2)} s`],
      ['backlog: deliveries per second', String(perSecond(backlog.expected, backlog.wallSeconds))],
      ['backlog: worker CPU (its start not included)', cpuPerDelivery(backlog)],
      ['live: events / deliveries', `${live.events.toLocaleString('en-US')} / ${live.expected.toLocaleString('en-US')}`],
      ['live: events written over (first to last commit), events per second', `${live.producedSeconds.toFixed(2)} s, ${Math.round(liveRate(live))}/s`],
      ['live: wall time, first commit to last delivery', `${live.wallSeconds.toFixed(2)} s`],
      ['live: event commit to receipt, p50 / p99 / max', `${ms(live.latency.p50Ms)} / ${ms(live.latency.p99Ms)} / ${ms(live.latency.maxMs)}`],
      ['live: worker CPU', cpuPerDelivery(live)],
      ['ratio, backlog deliveries per second / 3,000 target', (backlog.expected / backlog.wallSeconds / WEBHOOK_TARGETS.deliveriesPerSecond).toFixed(2)],
      ['ratio, live p50 / 50 ms target', (live.latency.p50Ms / WEBHOOK_TARGETS.p50Ms).toFixed(2)],
      ['ratio, live p99 / 250 ms target', (live.latency.p99Ms / WEBHOOK_TARGETS.p99Ms).toFixed(2)],
    ],
  );
}

/** The webhook run's figures, its two targets and the none-lost check, with met or MISSED. */
export function formatWebhookReport(r: WebhookResults): string {
  const { backlog, live, check } = r;
  const expected = backlog.expected + live.expected;
  const delivered = backlog.delivered + live.delivered;
  const duplicates = backlog.duplicates + live.duplicates;
  const logged = check.deliveries === expected && check.succeeded === expected && check.successfulAttempts === r.receipts;
  const backlogRate = perSecond(backlog.expected, backlog.wallSeconds);
  const rate = liveRate(live);
  const targets = [
    `At least ${WEBHOOK_TARGETS.deliveriesPerSecond.toLocaleString('en-US')} deliveries/s (backlog of ${backlog.expected.toLocaleString('en-US')}): ` +
      `${backlogRate.toLocaleString('en-US')}/s -> ${verdict(backlogRate >= WEBHOOK_TARGETS.deliveriesPerSecond)}`,
    `Live events written at ${WEBHOOK_TARGETS.eventsPerSecond.toLocaleString('en-US')}/s (at least ${RATE_REACHED * 100}% of it): ` +
      `${Math.round(rate).toLocaleString('en-US')}/s -> ${verdict(rate >= RATE_REACHED * WEBHOOK_TARGETS.eventsPerSecond)}`,
    `Commit to receipt p50 at most ${WEBHOOK_TARGETS.p50Ms} ms: ${ms(live.latency.p50Ms)} -> ${verdict(live.latency.p50Ms <= WEBHOOK_TARGETS.p50Ms)}`,
    `Commit to receipt p99 at most ${WEBHOOK_TARGETS.p99Ms} ms: ${ms(live.latency.p99Ms)} -> ${verdict(live.latency.p99Ms <= WEBHOOK_TARGETS.p99Ms)}`,
    `None lost: ${delivered.toLocaleString('en-US')} of ${expected.toLocaleString('en-US')} (endpoint, event) pairs received -> ${verdict(delivered === expected)}`,
    `None duplicated: ${duplicates} receipts of the same webhook-id again at the same receiver -> ${verdict(duplicates === 0)}`,
    `Logged: ${check.succeeded} of ${check.deliveries} deliveries succeeded, ${check.attempts} attempts logged ` +
      `(${check.successfulAttempts} successful, for ${r.receipts} receipts), ${check.retried} retried -> ${verdict(logged)}`,
  ];
  return ['', webhookFigures(r), '', 'Targets (webhooks)', ...targets.map((t) => `  ${t}`), ''].join('\n');
}
