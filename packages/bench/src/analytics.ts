/**
 * The analytics scenario (issue 30, item 3), over the lists scenario's data: a series of
 * 24 months by day, by week and by month, and the default year by month, each answers in
 * under 300 ms at p95 (one request at a time, as a person switching charts makes them).
 * The first request prices the terms log the seeding left (90,000 subscriptions that count)
 * and is timed on its own: the job does that work in production, as changes come.
 */
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
  ];
}

export interface AnalyticsMeasured {
  catchUpSeconds: number;
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
  const movements = await withClient(options.databaseUrl, async (client) => {
    const result = await client.query<{ n: string }>('SELECT count(*)::text AS n FROM analytics_mrr_movements WHERE environment_id = $1', [options.environmentId]);
    await client.query('VACUUM ANALYZE analytics_mrr_movements');
    return Number(result.rows[0]?.n ?? 0);
  });
  const timings: ListTiming[] = [];
  for (const query of analyticsQueries(Date.now())) {
    say(`Measuring analytics, ${query.label}`);
    timings.push(await timeQuery(options.baseUrl, options.serverKey, query, options.warmup, options.requests));
  }
  return { catchUpSeconds, movements, timings };
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
    ],
  );
  const row = (t: ListTiming) => [t.label, String(t.requests), ms(t.p50Ms), ms(t.p95Ms), ms(t.maxMs), (t.p95Ms / ANALYTICS_TARGET_P95_MS).toFixed(2)];
  const figures = table(['MRR series (GET /analytics/mrr/)', 'requests', 'p50 ms', 'p95 ms', 'max ms', 'p95 / 300 ms'], measured.timings.map(row));
  const worst = measured.timings.reduce((a, b) => (b.p95Ms > a.p95Ms ? b : a));
  const target = `Every MRR series under ${ANALYTICS_TARGET_P95_MS} ms at p95: the slowest, ${worst.label}, ${ms(worst.p95Ms)} ms -> ${verdict(worst.p95Ms < ANALYTICS_TARGET_P95_MS)}`;
  return ['', volume, '', figures, '', 'Targets (analytics)', `  ${target}`, ''].join('\n');
}
