/**
 * The analytics scenario (issue 30, item 3), over the lists scenario's data: a series of
 * 24 months by day, by week and by month, and the default year by month, and the cash
 * series of 24 months by day and by month, each answers in under 300 ms at p95 (one request
 * at a time, as a person switching charts makes them).
 * The first request prices the terms log the seeding left (90,000 subscriptions that count)
 * and is timed on its own: the job does that work in production, as changes come.
 */
import type pg from 'pg';
import { withClient } from './database.js';
import { timeQuery, type ListQuery, type ListTiming } from './lists.js';
import { table, verdict } from './report.js';

export const ANALYTICS_TARGET_P95_MS = 300;

const DAY_MS = 86_400_000;
const date = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** Series ending on one of the last 30 days, so that no answer is the one before it again. */
function analyticsQueries(now: number): ListQuery[] {
  const end = (i: number) => date(now - (i % 30) * DAY_MS);
  const start = (i: number) => date(now - (i % 30) * DAY_MS - 730 * DAY_MS);
  return [
    { label: '24 months by day (730 periods)', path: (i) => `/analytics/mrr/?interval=day&start=${start(i)}&end=${end(i)}` },
    { label: '24 months by week', path: (i) => `/analytics/mrr/?interval=week&start=${start(i)}&end=${end(i)}` },
    { label: '24 months by month', path: (i) => `/analytics/mrr/?interval=month&start=${start(i)}&end=${end(i)}` },
    { label: 'the last 12 months by month (the default)', path: (i) => `/analytics/mrr/?end=${end(i)}` },
    { label: 'cash, 24 months by day (730 periods)', path: (i) => `/analytics/cash/?interval=day&start=${start(i)}&end=${end(i)}` },
    { label: 'cash, 24 months by month', path: (i) => `/analytics/cash/?interval=month&start=${start(i)}&end=${end(i)}` },
  ];
}

export interface AnalyticsMeasured {
  catchUpSeconds: number;
  /** The first cash series, which folds the cash log the seeding left into day rollups. */
  cashCatchUpSeconds: number;
  cashDays: number;
  movements: number;
  timings: ListTiming[];
}

export async function measureAnalytics(
  options: { baseUrl: string; serverKey: string; databaseUrl: string; environmentId: string; warmup: number; requests: number },
  say: (line: string) => void,
): Promise<AnalyticsMeasured> {
  say('Analytics: the first series prices the terms log the seeding left');
  const started = performance.now();
  const first = await fetch(`${options.baseUrl}/api/v1/analytics/mrr/`, { headers: { authorization: `Bearer ${options.serverKey}` } });
  if (first.status !== 200) throw new Error(`GET /analytics/mrr/ answered ${first.status}: ${await first.text()}`);
  const catchUpSeconds = (performance.now() - started) / 1000;
  say('Analytics: the first cash series folds the cash log the seeding left');
  const cashStarted = performance.now();
  const cash = await fetch(`${options.baseUrl}/api/v1/analytics/cash/`, { headers: { authorization: `Bearer ${options.serverKey}` } });
  if (cash.status !== 200) throw new Error(`GET /analytics/cash/ answered ${cash.status}: ${await cash.text()}`);
  const cashCatchUpSeconds = (performance.now() - cashStarted) / 1000;
  const count = async (client: pg.Client, table: string) => {
    const result = await client.query<{ n: string }>(`SELECT count(*)::text AS n FROM ${table} WHERE environment_id = $1`, [options.environmentId]);
    await client.query(`VACUUM ANALYZE ${table}`);
    return Number(result.rows[0]?.n ?? 0);
  };
  const [movements, cashDays] = await withClient(options.databaseUrl, async (client) => [await count(client, 'analytics_mrr_movements'), await count(client, 'analytics_cash_days')]);
  const timings: ListTiming[] = [];
  for (const query of analyticsQueries(Date.now())) {
    say(`Measuring analytics, ${query.label}`);
    timings.push(await timeQuery(options.baseUrl, options.serverKey, query, options.warmup, options.requests));
  }
  return { catchUpSeconds, cashCatchUpSeconds, cashDays, movements, timings };
}

const ms = (value: number) => value.toFixed(1);

/** The figures, each p95 against the 300 ms ceiling, and the target with met or MISSED. */
export function formatAnalyticsReport(measured: AnalyticsMeasured, subscriptions: number, invoices: number): string {
  const volume = table(
    ['analytics data (the lists data)', 'amount'],
    [
      ['subscriptions', subscriptions.toLocaleString('en-US')],
      ['invoices', invoices.toLocaleString('en-US')],
      ['MRR movements kept', measured.movements.toLocaleString('en-US')],
      ['first series, pricing the whole seeded log', `${measured.catchUpSeconds.toFixed(1)} s`],
      ['cash days kept (per currency, in the books of the whole business, each plan and each product)', measured.cashDays.toLocaleString('en-US')],
      ['first cash series, folding the whole seeded cash log', `${measured.cashCatchUpSeconds.toFixed(1)} s`],
    ],
  );
  const row = (t: ListTiming) => [t.label, String(t.requests), ms(t.p50Ms), ms(t.p95Ms), ms(t.maxMs), (t.p95Ms / ANALYTICS_TARGET_P95_MS).toFixed(2)];
  const figures = table(['series (GET /analytics/mrr/ and /analytics/cash/)', 'requests', 'p50 ms', 'p95 ms', 'max ms', 'p95 / 300 ms'], measured.timings.map(row));
  const worst = measured.timings.reduce((a, b) => (b.p95Ms > a.p95Ms ? b : a));
  const target = `Every series under ${ANALYTICS_TARGET_P95_MS} ms at p95: the slowest, ${worst.label}, ${ms(worst.p95Ms)} ms -> ${verdict(worst.p95Ms < ANALYTICS_TARGET_P95_MS)}`;
  return ['', volume, '', figures, '', 'Targets (analytics)', `  ${target}`, ''].join('\n');
}
