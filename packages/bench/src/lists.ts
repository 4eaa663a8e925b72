/**
 * The lists scenario (issue 29, item 4): with 100,000 customers and 1,000,000 orders in
 * PostgreSQL, each list or search page the dashboard asks for answers within 200 ms at
 * p95. Requests go one at a time, as a person paging through a list makes them, against
 * `billow start`; the figure is the time to the whole answer, measured here.
 */
import { FIRST_NAMES, LAST_NAMES, type ListsSeed } from './lists-seed.js';
import { table, verdict } from './report.js';

export const LISTS_TARGET_P95_MS = 200;

export interface ListQuery {
  label: string;
  /** False for a figure printed beside the judged ones, not held to the ceiling. */
  judged?: boolean;
  /** A new path each time (another page, another term), so no answer is the last one again. */
  path: (i: number) => string;
}

export interface ListTiming {
  label: string;
  requests: number;
  p50Ms: number;
  p95Ms: number;
  maxMs: number;
  /** One answer's count: how many rows the list or search holds (a floor when `capped`). */
  count: number;
  /** The answer's count stopped at the cap (count=capped, decision 0089): more rows exist. */
  capped: boolean;
  judged: boolean;
}

const pick = <T>(items: readonly T[], i: number): T => items[(i * 7919) % items.length]!;
/** Pages 1 to 100 of a list, in a scattered order. */
const page = (i: number) => 1 + ((i * 37) % 100);

/**
 * The pages and searches measured, each with its own parameters: as the dashboard asks for
 * them, with count=capped (decision 0089); and, beside them, not judged, the two longest lists
 * as a client of the reference asks for them (10 a page), with the exact count of a million rows.
 */
export function listQueries(seed: Pick<ListsSeed, 'customers' | 'plans'>): ListQuery[] {
  const customerNumber = (i: number) => 1 + ((i * 7919) % seed.customers);
  const emailOf = (n: number) => `${FIRST_NAMES[n % FIRST_NAMES.length]!.toLowerCase()}.${LAST_NAMES[Math.floor(n / FIRST_NAMES.length) % LAST_NAMES.length]!.toLowerCase()}${n}`;
  // The dashboard's pages: 20 rows each, and the count capped.
  const capped = (query: ListQuery): ListQuery => ({ ...query, path: (i) => `${query.path(i)}&page_size=20&count=capped` });
  return [
    ...[
      { label: 'customers, newest first, pages 1-100', path: (i: number) => `/customers/?page=${page(i)}` },
      { label: 'customers, sorted by name, pages 1-100', path: (i: number) => `/customers/?sort=name&page=${page(i)}` },
      { label: 'customers, search by email prefix', path: (i: number) => `/customers/?search=${encodeURIComponent(emailOf(customerNumber(i)))}` },
      { label: 'customers, search by name', path: (i: number) => `/customers/?search=${encodeURIComponent(`${pick(FIRST_NAMES, i)} ${pick(LAST_NAMES, i + 3)}`)}` },
      { label: 'orders, newest paid first, pages 1-100', path: (i: number) => `/orders/?page=${page(i)}` },
      { label: 'orders, sorted by total, pages 1-100', path: (i: number) => `/orders/?sort=total&page=${page(i)}` },
      { label: 'orders, search by customer name', path: (i: number) => `/orders/?search=${encodeURIComponent(`${pick(FIRST_NAMES, i)} ${pick(LAST_NAMES, i + 3)}`)}` },
      { label: 'invoices, newest first, pages 1-100', path: (i: number) => `/invoices/?page=${page(i)}` },
      { label: 'invoices, search by customer name', path: (i: number) => `/invoices/?search=${encodeURIComponent(`${pick(FIRST_NAMES, i)} ${pick(LAST_NAMES, i + 5)}`)}` },
      { label: 'invoices, search by number', path: (i: number) => `/invoices/?search=BENCH-${String(1000 + ((i * 7919) % 900_000)).padStart(8, '0')}` },
      { label: "subscriptions, every customer's, newest first", path: (i: number) => `/subscriptions/?sort=createdOn&page=${page(i)}` },
      { label: 'subscriptions past_due, newest first', path: (i: number) => `/subscriptions/?status=past_due&sort=createdOn&page=${1 + (i % 20)}` },
      { label: 'subscriptions of a plan, active', path: (i: number) => `/subscriptions/?plan=${seed.plans[i % 2]}&status=active&sort=createdOn&page=${page(i)}` },
    ].map(capped),
    { label: 'orders, exact count (reference client), not judged', judged: false, path: (i) => `/orders/?page=${page(i)}` },
    { label: 'invoices, exact count (reference client), not judged', judged: false, path: (i) => `/invoices/?page=${page(i)}` },
  ];
}

const percentile = (sorted: readonly number[], share: number) => sorted[Math.min(sorted.length - 1, Math.ceil(sorted.length * share) - 1)]!;

/** `requests` answers of one query, after `warmup` unmeasured ones; any answer that is not 200 fails the run. */
export async function timeQuery(url: string, key: string, query: ListQuery, warmup: number, requests: number): Promise<ListTiming> {
  const times: number[] = [];
  let count = 0;
  let capped = false;
  for (let i = 0; i < warmup + requests; i++) {
    const started = performance.now();
    const response = await fetch(`${url}/api/v1${query.path(i)}`, { headers: { authorization: `Bearer ${key}` } });
    const body = (await response.json()) as { count?: number; countCapped?: boolean };
    const ms = performance.now() - started;
    if (response.status !== 200) throw new Error(`${query.path(i)} answered ${response.status}: ${JSON.stringify(body)}`);
    if (i >= warmup) times.push(ms);
    count = body.count ?? 0;
    capped = body.countCapped === true;
  }
  times.sort((a, b) => a - b);
  return {
    label: query.label,
    requests,
    p50Ms: percentile(times, 0.5),
    p95Ms: percentile(times, 0.95),
    maxMs: times.at(-1)!,
    count,
    capped,
    judged: query.judged !== false,
  };
}

/** The Home page's figures over the same data (GET /overview/, decisions 0080 and 0090), held to the same ceiling. */
export const OVERVIEW_QUERY: ListQuery = { label: 'overview (Home figures, MRR of 90,000)', path: () => '/overview/' };

export async function measureLists(
  options: { baseUrl: string; serverKey: string; seed: ListsSeed; warmup: number; requests: number },
  say: (line: string) => void,
): Promise<{ lists: ListTiming[]; overview: ListTiming }> {
  const lists: ListTiming[] = [];
  for (const query of listQueries(options.seed)) {
    say(`Measuring ${query.label}`);
    lists.push(await timeQuery(options.baseUrl, options.serverKey, query, options.warmup, options.requests));
  }
  say(`Measuring ${OVERVIEW_QUERY.label}`);
  const overview = await timeQuery(options.baseUrl, options.serverKey, OVERVIEW_QUERY, options.warmup, options.requests);
  return { lists, overview };
}

const ms = (value: number) => value.toFixed(1);

/** The figures, the ratio of each p95 to the 200 ms ceiling, and the target with met or MISSED. */
export function formatListsReport(seed: ListsSeed, measured: { lists: readonly ListTiming[]; overview: ListTiming }, wallSeconds: number): string {
  const timings = measured.lists;
  const rows = (t: ListTiming) => `${t.capped ? 'more than ' : ''}${t.count.toLocaleString('en-US')}`;
  const row = (t: ListTiming) => [t.label, String(t.requests), rows(t), ms(t.p50Ms), ms(t.p95Ms), ms(t.maxMs), (t.p95Ms / LISTS_TARGET_P95_MS).toFixed(2)];
  const volume = table(
    ['lists data (PostgreSQL, one environment)', 'rows'],
    [
      ['customers', seed.customers.toLocaleString('en-US')],
      ['subscriptions (one per customer, 2 plans)', seed.subscriptions.toLocaleString('en-US')],
      ['orders', seed.orders.toLocaleString('en-US')],
      ['invoices (one per order)', seed.invoices.toLocaleString('en-US')],
      ['seeded in (API templates + set-based SQL + VACUUM ANALYZE)', `${seed.seedSeconds.toFixed(0)} s`],
      ['whole scenario (database created to dropped)', `${wallSeconds.toFixed(0)} s`],
    ],
  );
  const figures = table(
    ['list or search page (one request at a time)', 'requests', 'rows', 'p50 ms', 'p95 ms', 'max ms', 'p95 / 200 ms'],
    [...timings.map(row), row(measured.overview).map((cell, i) => (i === 2 ? '-' : cell))],
  );
  const judged = [...timings.filter((t) => t.judged), measured.overview];
  const worst = judged.reduce((a, b) => (b.p95Ms > a.p95Ms ? b : a));
  const targets = [
    `Every list or search page of the dashboard and the overview under ${LISTS_TARGET_P95_MS} ms at p95: the slowest, ${worst.label}, ${ms(worst.p95Ms)} ms -> ` +
      verdict(worst.p95Ms < LISTS_TARGET_P95_MS),
  ];
  return ['', volume, '', figures, '', 'Targets (lists)', ...targets.map((t) => `  ${t}`), ''].join('\n');
}
