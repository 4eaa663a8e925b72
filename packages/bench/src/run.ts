/**
 * `npm run bench`: Billow's hot paths against bare Fastify ceilings, in one run,
 * on a throw-away PostgreSQL database. Servers run in child processes; the load
 * generator (autocannon) runs here. See docs/performance.md for the method.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { measureCheckoutPage } from './checkout-page.js';
import { benchDatabase, meterTotals, postgresVersion, seedCustomers, type BenchDatabase, type SeededCustomer } from './database.js';
import { billowApi, seedEdgeCatalog, subscribeAll } from './edge-seed.js';
import { measure, numberedPost, shuffledGets, shuffledHeaderGets, type LoadPlan, type LoadShape, type Measurement } from './load.js';
import { BENCH_USAGE, benchOptions, wantsHelp, type BenchOptions } from './options.js';
import {
  cpuSecondsOf,
  freePort,
  killAllChildrenNow,
  runNode,
  startNode,
  stopAllChildren,
  waitUntilServing,
} from './processes.js';
import { seedRenewals } from './renewal-seed.js';
import { measureRenewals } from './renewals.js';
import { TARGETS, formatRenewalReport, formatReport, formatWebhookReport, type EdgeResults, type Results } from './report.js';
import { percentileBound, readBuckets, type Buckets } from './server-latency.js';
import { WebhookReceivers } from './webhook-receivers.js';
import { checkPathsOf, formatScaleReport, measureScale, seedScale } from './scale.js';
import { measureWebhooks } from './webhooks.js';
import { formatListsReport, measureLists } from './lists.js';
import { formatAnalyticsReport, measureAnalytics } from './analytics.js';
import { seedLists } from './lists-seed.js';
import { formatStartReport, measureStarts } from './start.js';
import { STREAM_TARGETS, formatStreamReport, measureStream } from './stream.js';
import { replicationAvailable } from './pg-replication.js';
import { runScaleOut } from './scale-out.js';
import { formatScaleOutReport } from './scale-out-report.js';

const CLI = fileURLToPath(new URL('../../cli/dist/main.js', import.meta.url));
const CEILING_SERVER = fileURLToPath(new URL('./ceiling-server.js', import.meta.url));
/** High enough that the limiter still counts every request but refuses none. */
const RATE_LIMIT_MAX = '1000000000';
const API = '/api/v1';

const say = (line: string) => process.stdout.write(`${line}\n`);

interface Organization {
  organizationId: string;
  serverKey: string;
  clientKey: string;
  sandboxServerKey: string;
}

interface Target {
  baseUrl: string;
  serverCpuSeconds: () => number | null;
}

/** Our environment without Billow's own settings, so every run starts from the same configuration. */
function cleanEnv(): NodeJS.ProcessEnv {
  const env = { ...process.env };
  for (const name of Object.keys(env)) {
    if (name.startsWith('BILLOW_') || name.startsWith('BENCH_')) delete env[name];
  }
  for (const name of ['DATABASE_URL', 'REDIS_URL', 'PORT', 'HOST', 'LOG_LEVEL']) delete env[name];
  return env;
}

function billowEnv(databaseUrl: string, dataDir: string): NodeJS.ProcessEnv {
  // BILLOW_DATA_DIR keeps the credentials file of a first start away from the caller's ./.billow.
  return { ...cleanEnv(), DATABASE_URL: databaseUrl, BILLOW_DATA_DIR: dataDir, LOG_LEVEL: 'warn' };
}

async function createOrganization(env: NodeJS.ProcessEnv): Promise<Organization> {
  const output = await runNode(CLI, ['org', 'create', '--name', 'Bench', '--json'], env);
  type Keys = { serverKey?: string; clientKey?: string };
  const created = JSON.parse(output) as { organizationId?: string; production?: Keys; sandbox?: Keys };
  if (!created.organizationId || !created.production?.serverKey || !created.production.clientKey || !created.sandbox?.serverKey) {
    throw new Error(`Unexpected output of billow org create --json: ${output}`);
  }
  return {
    organizationId: created.organizationId,
    serverKey: created.production.serverKey,
    clientKey: created.production.clientKey,
    sandboxServerKey: created.sandbox.serverKey,
  };
}

/** Starts a server child on a free port and resolves once it serves. */
async function startServing(
  label: string,
  script: string,
  args: string[],
  env: NodeJS.ProcessEnv,
  nodeArgs: string[] = [],
): Promise<Target & { pid: number; stop(): Promise<void> }> {
  const port = await freePort();
  const server = startNode(label, script, args, { ...env, PORT: String(port), HOST: '127.0.0.1' }, nodeArgs);
  try {
    const baseUrl = `http://127.0.0.1:${port}`;
    await waitUntilServing(server, `${baseUrl}/healthz`);
    const pid = server.child.pid ?? 0;
    return { baseUrl, pid, serverCpuSeconds: () => cpuSecondsOf(pid), stop: () => server.stop() };
  } catch (error) {
    await server.stop();
    throw error;
  }
}

/** Starts a server child on a free port, waits until it serves, runs `work`, and stops it. */
async function withServer<T>(
  label: string,
  script: string,
  args: string[],
  env: NodeJS.ProcessEnv,
  work: (target: Target) => Promise<T>,
  nodeArgs: string[] = [],
): Promise<T> {
  const server = await startServing(label, script, args, env, nodeArgs);
  try {
    return await work(server);
  } finally {
    await server.stop();
  }
}

/** One request before the load, so a wrong key or path fails loudly instead of as a column of errors. */
async function probe(url: string, init: RequestInit, expected: number): Promise<void> {
  const response = await fetch(url, init);
  if (response.status !== expected) {
    throw new Error(`${init.method ?? 'GET'} ${url} answered ${response.status}, not ${expected}: ${await response.text()}`);
  }
}

async function run(plan: LoadPlan, shape: LoadShape): Promise<Measurement> {
  say(`Measuring ${plan.label}`);
  return measure(plan, shape, say);
}

async function measureJsonCeiling(shape: LoadShape): Promise<Measurement> {
  say('Starting the bare Fastify JSON server (3)');
  return withServer('bare Fastify JSON', CEILING_SERVER, ['json'], cleanEnv(), async ({ baseUrl, serverCpuSeconds }) => {
    await probe(`${baseUrl}/json`, {}, 200);
    const label = '(3) bare Fastify, fixed JSON';
    return run({ label, url: `${baseUrl}/json`, requests: [{ method: 'GET' }], serverCpuSeconds }, shape);
  });
}

async function measurePgCeiling(shape: LoadShape, databaseUrl: string, customers: SeededCustomer[]): Promise<Measurement> {
  say('Starting the bare Fastify + pg server (4)');
  const env = { ...cleanEnv(), DATABASE_URL: databaseUrl };
  return withServer('bare Fastify + pg', CEILING_SERVER, ['pg'], env, async ({ baseUrl, serverCpuSeconds }) => {
    const paths = customers.map((c) => `/customers/${c.id}`);
    await probe(`${baseUrl}${paths[0]}`, {}, 200);
    const label = '(4) bare Fastify + pg SELECT by pk';
    return run({ label, url: baseUrl, requests: shuffledGets(paths), serverCpuSeconds }, shape);
  });
}

/** Which seeded customers each Edge scenario uses; none is shared, so every counter belongs to one scenario. */
function edgeCustomers(customers: SeededCustomer[], options: BenchOptions) {
  const needed = options.usageCustomers + 1 + options.checkCustomers;
  if (customers.length < needed) {
    throw new Error(`BENCH_CUSTOMERS must be at least ${needed} (usage customers + 1 hot customer + check customers)`);
  }
  const ids = customers.map((c) => c.customerId);
  return {
    spread: ids.slice(0, options.usageCustomers),
    hot: ids[options.usageCustomers] as string,
    check: ids.slice(options.usageCustomers + 1, needed),
  };
}

const pick = <T>(items: readonly T[]): T => items[Math.floor(Math.random() * items.length)] as T;

async function measureCustomers(shape: LoadShape, target: Target, authorization: string, customers: SeededCustomer[]) {
  const paths = customers.map((c) => `${API}/customers/${encodeURIComponent(c.customerId)}/`);
  await probe(`${target.baseUrl}${paths[0]}`, { headers: { authorization } }, 200);
  const get = await run(
    {
      label: '(1) Billow GET /customers/{id}/',
      url: target.baseUrl,
      headers: { authorization },
      requests: shuffledGets(paths),
      serverCpuSeconds: target.serverCpuSeconds,
    },
    shape,
  );
  const runId = `${process.pid}-${Date.now().toString(36)}`;
  const post = await run(
    {
      label: '(2) Billow POST /customers/',
      url: target.baseUrl,
      headers: { authorization, 'content-type': 'application/json' },
      requests: numberedPost(`${API}/customers/`, (n) => ({
        customerId: `post-${runId}-${n}`,
        name: `Posted customer ${n}`,
        email: `posted${n}@bench.example`,
      })),
      serverCpuSeconds: target.serverCpuSeconds,
    },
    shape,
  );
  return { get, post };
}

async function measureEdge(
  shape: LoadShape,
  options: BenchOptions,
  databaseUrl: string,
  target: Target,
  serverKey: string,
  customers: SeededCustomer[],
): Promise<Omit<EdgeResults, 'promotions'> & { promotionId: string; scale: ScaleSeed }> {
  const authorization = `Bearer ${serverKey}`;
  const { spread, hot, check } = edgeCustomers(customers, options);
  const api = billowApi(target.baseUrl, serverKey);
  say('Seeding the Edge scenarios through the API: 20 features, 3 plans granting all of them');
  const catalog = await seedEdgeCatalog(api);
  const promotion = await api('POST', '/promotion-rules/', PROMOTION(catalog.productId));
  say(`  subscribing ${check.length} customers to the 3 plans, and ${spread.length + 1} to the first`);
  await subscribeAll(api, check, catalog.plans);
  await subscribeAll(api, [hot, ...spread], catalog.plans.slice(0, 1));

  // As the official client's hasAccess and getEntitlement ask: one feature of the customer's twenty.
  const checkPaths = checkPathsOf(check, catalog.features);
  // As getEntitlements asks: all sixty entries (three subscriptions, twenty features each).
  const listPaths = check.map((id) => `${API}/entitlements?customer_id=${encodeURIComponent(id)}`);
  await probe(`${target.baseUrl}${checkPaths[0]}`, { headers: { authorization } }, 200);
  const measureCheck = async (label: string, paths: string[]) => {
    const read = () => readBuckets(target.baseUrl, 'GET', `${API}/entitlements/`);
    let before: Buckets = new Map();
    const plan = { label, url: target.baseUrl, headers: { authorization }, requests: shuffledGets(paths), serverCpuSeconds: target.serverCpuSeconds };
    const measurement = await run({ ...plan, beforeMeasured: async () => void (before = await read()) }, shape);
    const total = measurement.accepted;
    const serverP99 = percentileBound(before, await read(), total, 0.99);
    say(`  server-side p99 (Billow's own request timer, /metrics buckets): under ${serverP99 ?? '?'} ms`);
    return { ...measurement, serverP99Ms: serverP99 };
  };
  const entitlements = await measureCheck('(5) Billow GET /entitlements, one feature (hasAccess)', checkPaths);
  const entitlementList = await measureCheck('(6) Billow GET /entitlements, all 60 entries', listPaths);
  const report = (customerId: string) => ({ customerId, featureId: catalog.meter, value: 1, behaviour: 'DELTA' });
  const usage = async (label: string, body: () => unknown, counted: (totals: Map<string, number>) => number) => {
    let before = 0;
    const measurement = await run(
      {
        label,
        url: target.baseUrl,
        headers: { authorization, 'content-type': 'application/json' },
        requests: numberedPost(`${API}/report/usage/`, body),
        serverCpuSeconds: target.serverCpuSeconds,
        exact: true,
        beforeMeasured: async () => void (before = counted(await meterTotals(databaseUrl, catalog.meter))),
      },
      shape,
    );
    return { measurement, counted: counted(await meterTotals(databaseUrl, catalog.meter)) - before };
  };
  const sumOf = (ids: readonly string[]) => (totals: Map<string, number>) => ids.reduce((sum, id) => sum + (totals.get(id) ?? 0), 0);
  const hotRun = await usage('(7) Billow POST /report/usage/ DELTA, one counter', () => report(hot), sumOf([hot]));
  const spreadRun = await usage(
    `(8) Billow POST /report/usage/ DELTA, ${spread.length} customers`,
    () => report(pick(spread)),
    sumOf(spread),
  );
  return {
    entitlements,
    entitlementList,
    usageHot: hotRun.measurement,
    usageSpread: spreadRun.measurement,
    counted: { hot: hotRun.counted, spread: spreadRun.counted },
    promotionId: promotion.id,
    scale: { checkPaths, meter: catalog.meter, customers: spread },
  };
}

/** The promotion of scenario 9: a percentage per purchasing-power group and a few overrides, as a seller would set it. */
const PROMOTION = (productId: string) => ({
  name: 'Bench PPP',
  productId,
  pppDiscounts: [
    { group: 2, percentage: 10 },
    { group: 3, percentage: 20 },
    { group: 4, percentage: 35 },
    { group: 5, percentage: 50 },
  ],
  countryOverrides: [
    { countryCode: 'IN', percentage: 60 },
    { countryCode: 'BR', percentage: 40 },
  ],
  couponCode: 'BENCHPPP',
  message: '{discount}% off in {country} with {code}',
});

/** Callers from twenty addresses in fifteen countries (DB-IP data), and one with none (TEST-NET-3). */
const CALLER_ADDRESSES = [
  '85.214.0.1', '88.198.0.1', '49.44.0.1', '8.8.8.8', '200.147.0.1', '41.0.0.1', '1.1.1.1', '81.2.69.142', '5.255.255.5',
  '1.0.16.1', '180.76.0.1', '91.198.174.192', '62.210.0.1', '151.101.0.1', '190.0.0.1', '196.0.0.1', '102.0.0.1',
  '185.0.0.1', '195.0.0.1', '203.0.113.5',
];

/**
 * Scenario 9: GET /promotions with the production client key, as the promotions UI
 * asks it, against `billow start --role edge` (the Edge API alone) trusting
 * X-Forwarded-For, so that every request is located in one of fifteen countries.
 */
async function measurePromotions(shape: LoadShape, env: NodeJS.ProcessEnv, organization: Organization, promotionId: string) {
  say('Starting Billow --role edge with BILLOW_TRUST_PROXY=true for GET /promotions (9)');
  const edgeEnv = { ...env, BILLOW_RATE_LIMIT_MAX: RATE_LIMIT_MAX, BILLOW_TRUST_PROXY: 'true' };
  return withServer('Billow edge', CLI, ['start', '--role', 'edge'], edgeEnv, async (target) => {
    const authorization = `Bearer ${organization.clientKey}`;
    const path = `${API}/promotions?promotion_id=${promotionId}`;
    await probe(`${target.baseUrl}${path}`, { headers: { authorization, 'x-forwarded-for': '49.44.0.1' } }, 200);
    const read = () => readBuckets(target.baseUrl, 'GET', `${API}/promotions/`);
    let before: Buckets = new Map();
    const plan = {
      label: '(9) Billow GET /promotions, 15 countries',
      url: target.baseUrl,
      headers: { authorization, 'user-agent': 'Mozilla/5.0 (bench) Chrome/120.0' },
      requests: shuffledHeaderGets(path, 'x-forwarded-for', CALLER_ADDRESSES),
      serverCpuSeconds: target.serverCpuSeconds,
      beforeMeasured: async () => void (before = await read()),
    };
    const measurement = await run(plan, shape);
    const serverP99 = percentileBound(before, await read(), measurement.accepted, 0.99);
    say(`  server-side p99 (Billow's own request timer, /metrics buckets): under ${serverP99 ?? '?'} ms`);
    return { ...measurement, serverP99Ms: serverP99 };
  });
}

async function measureBillow(
  shape: LoadShape,
  options: BenchOptions,
  database: BenchDatabase,
  env: NodeJS.ProcessEnv,
  organization: Organization,
  customers: SeededCustomer[],
) {
  say(`Starting Billow (node packages/cli/dist/main.js start) with BILLOW_RATE_LIMIT_MAX=${RATE_LIMIT_MAX}:`);
  say('  the rate limiter still runs on every request but is raised so that it refuses none of the load');
  const billow = { ...env, BILLOW_RATE_LIMIT_MAX: RATE_LIMIT_MAX };
  const profile = options.cpuProfileDir ? ['--cpu-prof', `--cpu-prof-dir=${path.resolve(options.cpuProfileDir)}`] : [];
  if (profile.length > 0) say(`  with a CPU profile written to ${options.cpuProfileDir} when it stops`);
  return withServer(
    'Billow',
    CLI,
    ['start'],
    billow,
    async (target) => {
      const authorization = `Bearer ${organization.serverKey}`;
      const core = await measureCustomers(shape, target, authorization, customers);
      const edge = await measureEdge(shape, options, database.url, target, organization.serverKey, customers);
      const checkoutPage = await measureCheckoutPage(target.baseUrl, organization.sandboxServerKey, say);
      return { ...core, edge, checkoutPage };
    },
    profile,
  );
}

/**
 * Other work on the machine lowers every figure and widens the tails; say so
 * rather than hide it. Read before the run: during it, the load is our own.
 */
function reportLoad(): void {
  const [one = 0, five = 0] = os.loadavg();
  const cores = os.cpus().length;
  const busy = one > cores * 0.5 ? `  (busy: other work shares these ${cores} cores; figures will be lower and noisier)` : '';
  say(`Load average before the run: ${one.toFixed(2)} (1 min), ${five.toFixed(2)} (5 min)${busy}`);
}

async function describeMachine(options: BenchOptions, database: BenchDatabase): Promise<void> {
  const cpus = os.cpus();
  say(`Billow benchmark, ${new Date().toISOString()}`);
  say(`Machine: ${cpus.length} cores (${cpus[0]?.model.trim() ?? 'unknown CPU'}), Node.js ${process.version}`);
  say(`PostgreSQL ${await postgresVersion(options.adminUrl)}, database ${database.name} (dropped at the end)`);
  say(
    `Load: autocannon in this process, ${options.connections} connections, ` +
      `${options.warmupSeconds} s warm-up + ${options.durationSeconds} s per scenario; servers in child processes`,
  );
  reportLoad();
}

async function benchmark(
  options: BenchOptions,
  database: BenchDatabase,
  env: NodeJS.ProcessEnv,
  organization: Organization,
): Promise<{ results: Results; scale: ScaleSeed }> {
  const shape: LoadShape = options;
  say(`Seeding ${options.customers} customers`);
  const customers = await seedCustomers(database.url, organization.organizationId, options.customers);

  const jsonCeiling = await measureJsonCeiling(shape);
  const pgCeiling = await measurePgCeiling(shape, database.url, customers);
  const { get, post, edge, checkoutPage } = await measureBillow(shape, options, database, env, organization, customers);
  const { promotionId, scale, ...measured } = edge;
  const promotions = await measurePromotions(shape, env, organization, promotionId);
  return { results: { get, post, jsonCeiling, pgCeiling, edge: { ...measured, promotions }, checkoutPage }, scale };
}

/** What the scale scenarios need of the Edge seeding. */
type ScaleSeed = { checkPaths: string[]; meter: string; customers: readonly string[] };

/** Checks with 1 and 2 workers, and batches (scale.ts); seeds the Edge catalog first when the HTTP scenarios did not. */
async function scaleScenario(options: BenchOptions, database: BenchDatabase, env: NodeJS.ProcessEnv, organization: Organization, seeded: ScaleSeed | null) {
  const billow = { ...env, BILLOW_RATE_LIMIT_MAX: RATE_LIMIT_MAX };
  const profile = options.cpuProfileDir ? ['--cpu-prof', `--cpu-prof-dir=${path.resolve(options.cpuProfileDir)}`] : [];
  const start = (label: string, args: string[]) => startServing(label, CLI, args, billow, profile);
  let seed = seeded;
  if (!seed) {
    say(`Scale scenarios: seeding ${options.customers} customers and the Edge catalog`);
    const { spread, check } = edgeCustomers(await seedCustomers(database.url, organization.organizationId, options.customers), options);
    seed = { ...(await seedScale(await start('Billow', ['start']), organization.serverKey, { check, spread })), customers: spread };
  }
  reportLoad();
  return formatScaleReport(await measureScale({ shape: options, databaseUrl: database.url, serverKey: organization.serverKey, ...seed, start, say }));
}

/**
 * Seeds the renewal scenario through a Billow child (then stopped, so that the worker
 * measured has the database to itself), and renews in this process. In a database of its
 * own: the other scenarios' subscriptions, due a month after they were made, would
 * otherwise fall due with these and be renewed in the same run.
 */
async function renewalScenario(options: BenchOptions, scratch: string) {
  const database = benchDatabase(options.adminUrl, '_renewals');
  scenarioDatabases.push(database);
  await database.create();
  try {
    const env = billowEnv(database.url, path.join(scratch, 'renewals-data'));
    const organization = await createOrganization(env);
    say(`Renewal scenario: database ${database.name}; seeding ${options.renewals.toLocaleString('en-US')} monthly paid subscriptions in the sandbox (card 4242)`);
    const seed = await withServer('Billow', CLI, ['start'], env, ({ baseUrl }) =>
      seedRenewals(baseUrl, organization.sandboxServerKey, database.url, options.renewals),
    );
    say(`  all due at ${seed.instant.toISOString()}; Billow stopped. Renewing with one worker in this process, its clock 1 s past that instant`);
    reportLoad();
    return formatRenewalReport(await measureRenewals(database.url, seed, options, say));
  } finally {
    await database.drop();
    say(`Dropped database ${database.name}`);
  }
}

/**
 * The webhook scenario: a `--role core` child takes the API calls, a `--role worker`
 * child (Billow's defaults) delivers, the receivers run here.
 */
async function webhookScenario(options: BenchOptions, database: BenchDatabase, env: NodeJS.ProcessEnv, organization: Organization) {
  const live = `${options.webhookRate.toLocaleString('en-US')} events/s for ${options.webhookLiveSeconds} s`;
  say(`Webhook scenario: 3 receivers on 127.0.0.1; a backlog of ${options.webhookEvents.toLocaleString('en-US')} customer.created events, then ${live}`);
  reportLoad();
  const receivers = await WebhookReceivers.start(3);
  const profile = options.cpuProfileDir ? ['--cpu-prof', `--cpu-prof-dir=${path.resolve(options.cpuProfileDir)}`] : [];
  if (profile.length > 0) say(`  with a CPU profile of the worker written to ${options.cpuProfileDir} when it stops`);
  // The receivers listen on 127.0.0.1: the installation allows sandbox endpoints there (decision 0057).
  const local = { ...env, BILLOW_WEBHOOK_SANDBOX_PRIVATE_TARGETS: 'true' };
  try {
    const core = { ...local, BILLOW_RATE_LIMIT_MAX: RATE_LIMIT_MAX };
    const results = await withServer('Billow core', CLI, ['start', '--role', 'core'], core, ({ baseUrl }) =>
      measureWebhooks(
        {
          baseUrl,
          sandboxKey: organization.sandboxServerKey,
          organizationId: organization.organizationId,
          databaseUrl: database.url,
          receivers,
          backlogEvents: options.webhookEvents,
          liveRate: options.webhookRate,
          liveSeconds: options.webhookLiveSeconds,
          startWorker: async () => {
            const worker = await startServing('Billow worker', CLI, ['start', '--role', 'worker'], local, profile);
            return { cpuSeconds: worker.serverCpuSeconds, stop: worker.stop };
          },
        },
        say,
      ),
    );
    return formatWebhookReport(results);
  } finally {
    await receivers.close();
  }
}

/**
 * The lists scenario, in a database of its own (created here, dropped at its end): an
 * organization, 100,000 customers and 1,000,000 orders seeded (lists-seed.ts), then each
 * list or search page timed against `billow start`.
 */
async function listsScenario(options: BenchOptions, scratch: string): Promise<string> {
  const started = performance.now();
  const database = benchDatabase(options.adminUrl, '_lists');
  if (!options.lists.keepDatabase) scenarioDatabases.push(database);
  await database.create();
  try {
    const env = { ...billowEnv(database.url, path.join(scratch, 'lists-data')), BILLOW_RATE_LIMIT_MAX: RATE_LIMIT_MAX };
    say(`Lists scenario: database ${database.name}; an organization, then ${options.lists.customers.toLocaleString('en-US')} customers and ${(options.lists.customers * options.lists.ordersPerCustomer).toLocaleString('en-US')} orders`);
    const organization = await createOrganization(env);
    // --role core: the API without background work, so that no worker renews the copied subscriptions meanwhile.
    return await withServer('Billow core', CLI, ['start', '--role', 'core'], env, async ({ baseUrl }) => {
      // The sandbox: its test provider takes the templates' cards; its lists are the production ones' code and indices.
      const sandbox = { baseUrl: `${baseUrl}/sandbox`, serverKey: organization.sandboxServerKey };
      const seed = await seedLists({ ...sandbox, databaseUrl: database.url, ...options.lists }, say);
      reportLoad();
      const measured = await measureLists({ ...sandbox, seed, warmup: 5, requests: options.lists.requests }, say);
      const analytics = await measureAnalytics({ ...sandbox, databaseUrl: database.url, environmentId: seed.environmentId, warmup: 5, requests: options.lists.requests }, say);
      return formatListsReport(seed, measured, (performance.now() - started) / 1000) + formatAnalyticsReport(analytics, seed.subscriptions, seed.invoices);
    });
  } finally {
    if (options.lists.keepDatabase) say(`Kept database ${database.name} (BENCH_LIST_KEEP_DATABASE): drop it when done`);
    else {
      await database.drop();
      say(`Dropped database ${database.name}`);
    }
  }
}

async function benchmarks(options: BenchOptions, database: BenchDatabase, scratch: string): Promise<string[]> {
  const env = billowEnv(database.url, path.join(scratch, 'data'));
  say('Creating an organization (billow org create --json, which also migrates)');
  const organization = await createOrganization(env);
  const reports: string[] = [];
  let seeded: ScaleSeed | null = null;
  if (options.scenarios.http) {
    const { results, scale } = await benchmark(options, database, env, organization);
    reports.push(formatReport(results));
    seeded = scale;
  }
  if (options.scenarios.scale) reports.push(await scaleScenario(options, database, env, organization, seeded));
  if (options.scenarios.renewals) reports.push(await renewalScenario(options, scratch));
  if (options.scenarios.webhooks) reports.push(await webhookScenario(options, database, env, organization));
  if (options.scenarios.lists) reports.push(await listsScenario(options, scratch));
  if (options.scenarios.start) reports.push(await startScenario(options, database, scratch));
  if (options.scenarios.stream) reports.push(await streamScenario(options, database, env, organization));
  if (options.scenarios.replicas) reports.push(await replicasScenario());
  return reports;
}

/** One line for the whole run: how many targets were met, and which were missed. */
function verdictSummary(reports: readonly string[]): string {
  const lines = reports.flatMap((report) => report.split('\n'));
  const met = lines.filter((line) => line.endsWith('-> met') || line.includes('-> met ')).length;
  const missed = lines.filter((line) => line.includes('-> MISSED')).map((line) => line.trim().split(':')[0]);
  const summary = `Summary: ${met} of ${met + missed.length} targets met`;
  return missed.length === 0 ? `${summary}.\n` : `${summary}; MISSED: ${missed.join('; ')}.\n`;
}

/**
 * The start scenario: Billow as a seller starts it, on an embedded data directory of its own
 * (made by the first start), on the run's PostgreSQL database, and through `npm start`.
 */
async function startScenario(options: BenchOptions, database: BenchDatabase, scratch: string): Promise<string> {
  const embedded = { ...cleanEnv(), BILLOW_DATA_DIR: path.join(scratch, 'start-data'), LOG_LEVEL: 'warn' };
  const npmCli = process.env.npm_execpath;
  if (!npmCli) throw new Error('The start scenario runs `npm start`: run the bench through npm (npm run bench -- start)');
  const results = await measureStarts(
    {
      bare: { label: 'bare Fastify JSON', script: CEILING_SERVER, args: ['json'], env: cleanEnv() },
      embedded: { label: 'billow start (embedded)', script: CLI, args: ['start'], env: embedded },
      postgres: { label: 'billow start (PostgreSQL)', script: CLI, args: ['start'], env: billowEnv(database.url, path.join(scratch, 'start-pg')) },
      npmStart: { label: 'npm start', script: npmCli, args: ['start', '--silent'], env: embedded, processGroup: true },
    },
    options.start.runs,
    options.start.idleSeconds,
    say,
  );
  return formatStartReport(results);
}

/**
 * The stream scenario: two Billow processes on the run's database, changes made through the first,
 * the SDK's cache following the second, which also takes 10,000 streams (its cap raised to allow them).
 */
async function streamScenario(options: BenchOptions, database: BenchDatabase, env: NodeJS.ProcessEnv, organization: Organization): Promise<string> {
  // The cap (10,000 by default) raised for the cache's own stream beside the 10,000 held, and for the first 10,000 while they close.
  const billow = { ...env, BILLOW_RATE_LIMIT_MAX: RATE_LIMIT_MAX, BILLOW_CHANGE_STREAM_LIMIT: '20100' };
  say('Stream scenario: starting Billow A and Billow B on the same database');
  const a = await startServing('Billow A', CLI, ['start'], billow);
  try {
    const b = await startServing('Billow B', CLI, ['start'], billow);
    try {
      const customers = await seedCustomers(database.url, organization.organizationId, STREAM_TARGETS.streams);
      const customerIds = customers.map((customer) => customer.customerId);
      const results = await measureStream({ a, b, serverKey: organization.serverKey, clientKey: organization.clientKey, customerIds, shape: options, say });
      return formatStreamReport(results, TARGETS.checkP99Ms);
    } finally {
      await b.stop();
    }
  } finally {
    await a.stop();
  }
}

/** The scale-out scenario (issue 32, item 7): its own PostgreSQL pair and two Billow nodes (scale-out.ts). */
async function replicasScenario(): Promise<string> {
  const available = replicationAvailable();
  if (!available.ok) return `Scale-out on a streaming replica: not run (${available.reason})\n`;
  say('Scale-out scenario: a PostgreSQL primary and a synchronous streaming replica, two Billow nodes');
  reportLoad();
  return formatScaleOutReport(await runScaleOut(say));
}

/** Databases a scenario made for itself, dropped with the run's own if the run is interrupted. */
const scenarioDatabases: BenchDatabase[] = [];

/** Children first, then the database and the scratch directory; safe to call from a signal too. */
function cleanupOnce(database: BenchDatabase, scratch: string): () => Promise<void> {
  let cleaning: Promise<void> | null = null;
  return () => {
    cleaning ??= (async () => {
      await stopAllChildren();
      fs.rmSync(scratch, { recursive: true, force: true });
      for (const own of scenarioDatabases) await own.drop();
      await database.drop();
      say(`Dropped database ${database.name}`);
    })();
    return cleaning;
  };
}

async function main(): Promise<void> {
  if (wantsHelp()) return void process.stdout.write(BENCH_USAGE);
  const options = benchOptions();
  const database = benchDatabase(options.adminUrl);
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'billow-bench-'));
  const cleanup = cleanupOnce(database, scratch);
  process.on('exit', killAllChildrenNow);
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      say(`\n${signal}: stopping the servers and dropping ${database.name}`);
      void cleanup().finally(() => process.exit(130));
    });
  }
  try {
    await database.create();
    await describeMachine(options, database);
    const reports = await benchmarks(options, database, scratch);
    for (const report of reports) say(report);
    say(verdictSummary(reports));
  } finally {
    await cleanup();
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    process.stderr.write(`Benchmark failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exit(1);
  },
);
