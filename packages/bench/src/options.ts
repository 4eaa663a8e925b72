/** What a benchmark run uses; the defaults are the documented method. */
export interface BenchOptions {
  /** A PostgreSQL URL with the right to create and drop databases. */
  adminUrl: string;
  connections: number;
  durationSeconds: number;
  warmupSeconds: number;
  customers: number;
  /** Customers the usage scenario spreads its reports over. */
  usageCustomers: number;
  /** Customers (each with 3 subscriptions) the entitlement check draws from. */
  checkCustomers: number;
  /** Where Billow's process writes a V8 CPU profile (node --cpu-prof) when it stops; null: no profile. */
  cpuProfileDir: string | null;
  /**
   * Which scenarios run: the HTTP and Edge ones, the renewal run, the webhook run, the scale ones, or all (the default);
   * the lists one only when named (its million orders take minutes to seed).
   */
  scenarios: { http: boolean; renewals: boolean; webhooks: boolean; scale: boolean; lists: boolean; start: boolean; stream: boolean; replicas: boolean };
  /** Starts of each kind the start scenario times, and the seconds each idles before its memory is read. */
  start: { runs: number; idleSeconds: number };
  /** Subscriptions the renewal scenario renews, all due at one instant. */
  renewals: number;
  /** The worker's BILLOW_BILLING_CONCURRENCY in the renewal scenario; null: Billow's default. */
  renewalConcurrency: number | null;
  /** Events of the webhook scenario's backlog (each delivered to 3 endpoints). */
  webhookEvents: number;
  /** Events a second of its live phase, and for how many seconds. */
  webhookRate: number;
  webhookLiveSeconds: number;
  /** The lists scenario's customers, orders per customer, and measured requests per list or search. */
  lists: { customers: number; ordersPerCustomer: number; requests: number; keepDatabase: boolean };
}

const SCENARIOS = ['all', 'http', 'renewals', 'webhooks', 'scale', 'lists', 'start', 'stream', 'replicas'] as const;

/**
 * `npm run bench -- renewals` runs the renewal scenario only, `-- webhooks` the webhook one only, `-- scale` the
 * worker and batch ones only (seeding what they need), `-- http` the HTTP ones (the scale ones included), `-- lists`
 * the lists one, which `all` leaves out, `-- start` the start one, `-- stream` the stream one (left out of `all`),
 * `-- replicas` the scale-out one.
 */
function scenariosOf(args: readonly string[]): BenchOptions['scenarios'] {
  const named = args[0] ?? 'all';
  if (!(SCENARIOS as readonly string[]).includes(named)) throw new Error(`Unknown scenario "${named}": use ${SCENARIOS.join(', ')}`);
  const all = named === 'all';
  return {
    http: all || named === 'http',
    renewals: all || named === 'renewals',
    webhooks: all || named === 'webhooks',
    scale: all || named === 'http' || named === 'scale',
    lists: named === 'lists',
    start: all || named === 'start',
    stream: named === 'stream',
    replicas: all || named === 'replicas',
  };
}

export const BENCH_USAGE = `Usage: npm run bench [-- <scenario>]

Runs Billow and the ceilings it is judged against on a throw-away PostgreSQL database
(created and dropped), then prints each figure beside its ceiling and the ratio.

Scenarios:
  all        every scenario below (the default)
  http       the API, Edge and hosted-page scenarios, and the scale ones
  renewals   one worker renewing BENCH_RENEWALS subscriptions due at one instant
  webhooks   deliveries to 3 endpoints of a backlog of events, then of events written at a steady rate
  scale      entitlement checks on 1 and 2 workers, and usage batches
  lists      list and search pages over 100,000 customers and 1,000,000 orders, and the MRR series
             of the revenue analytics over the same data, in a database of their own (not part of
             all: seeding takes minutes)
  start      the time from spawning \`billow start\` to its first answer (existing and new embedded data
             directory, PostgreSQL, \`npm start\` with nothing to rebuild) and the memory it holds idle,
             beside a bare Fastify process
  stream     the SDK's entitlement cache following one Billow process's change stream while changes
             are made through another on the same database, its synchronous check, and 10,000
             streams held by one process (not part of all: about two minutes)
  replicas   a PostgreSQL primary and a synchronous streaming replica of their own (Debian's
             PostgreSQL 15, run as root), two Billow nodes on 127.0.0.2 and 127.0.0.3: reads of
             one's own writes across nodes, a node killed under load, the delivering node killed,
             and a failover to the promoted replica (about 25 s)

Settings (environment):
  BENCH_DATABASE_URL          a PostgreSQL URL allowed to create databases (postgres://postgres@127.0.0.1:5432/postgres)
  BENCH_CONNECTIONS           concurrent connections of the load generator (50)
  BENCH_DURATION_S            seconds measured per scenario (10), after BENCH_WARMUP_S (3)
  BENCH_CUSTOMERS             customers seeded (5000); BENCH_USAGE_CUSTOMERS (1000), BENCH_CHECK_CUSTOMERS (100)
  BENCH_RENEWALS              subscriptions of the renewal scenario (10000); BENCH_RENEWAL_CONCURRENCY (Billow's default)
  BENCH_WEBHOOK_EVENTS        events of the webhook backlog (3000); BENCH_WEBHOOK_RATE events/s of the live
                              phase (1000), for BENCH_WEBHOOK_LIVE_S seconds (5)
  BENCH_LIST_CUSTOMERS        customers of the lists scenario (100000), BENCH_LIST_ORDERS_PER_CUSTOMER (10),
                              BENCH_LIST_REQUESTS measured per list or search (60); BENCH_LIST_KEEP_DATABASE=true
                              keeps its database afterwards, to EXPLAIN queries on it (drop it yourself)
  BENCH_START_RUNS            starts of each kind in the start scenario (5); BENCH_IDLE_S seconds each stays
                              idle before its memory is read (10)
  BENCH_CPU_PROFILE_DIR       where Billow's process writes a CPU profile when it stops (none)

The method and the last results: docs/performance.md.
`;

/** True when the arguments ask for the usage text rather than a run. */
export function wantsHelp(args: readonly string[] = process.argv.slice(2)): boolean {
  return args.includes('--help') || args.includes('-h');
}

const DEFAULT_ADMIN_URL = 'postgres://postgres@127.0.0.1:5432/postgres';

function positiveInteger(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 1) throw new Error(`${name} must be a positive integer, got "${raw}"`);
  return value;
}

/** The benchmark's only reader of process.env (the servers it starts read their own). */
export function benchOptions(env: NodeJS.ProcessEnv = process.env, args: readonly string[] = process.argv.slice(2)): BenchOptions {
  return {
    adminUrl: env.BENCH_DATABASE_URL || DEFAULT_ADMIN_URL,
    connections: positiveInteger(env, 'BENCH_CONNECTIONS', 50),
    durationSeconds: positiveInteger(env, 'BENCH_DURATION_S', 10),
    warmupSeconds: positiveInteger(env, 'BENCH_WARMUP_S', 3),
    customers: positiveInteger(env, 'BENCH_CUSTOMERS', 5000),
    usageCustomers: positiveInteger(env, 'BENCH_USAGE_CUSTOMERS', 1000),
    checkCustomers: positiveInteger(env, 'BENCH_CHECK_CUSTOMERS', 100),
    cpuProfileDir: env.BENCH_CPU_PROFILE_DIR || null,
    scenarios: scenariosOf(args),
    renewals: positiveInteger(env, 'BENCH_RENEWALS', 10_000),
    renewalConcurrency: env.BENCH_RENEWAL_CONCURRENCY ? positiveInteger(env, 'BENCH_RENEWAL_CONCURRENCY', 1) : null,
    webhookEvents: positiveInteger(env, 'BENCH_WEBHOOK_EVENTS', 3000),
    webhookRate: positiveInteger(env, 'BENCH_WEBHOOK_RATE', 1000),
    webhookLiveSeconds: positiveInteger(env, 'BENCH_WEBHOOK_LIVE_S', 5),
    lists: {
      customers: positiveInteger(env, 'BENCH_LIST_CUSTOMERS', 100_000),
      ordersPerCustomer: positiveInteger(env, 'BENCH_LIST_ORDERS_PER_CUSTOMER', 10),
      requests: positiveInteger(env, 'BENCH_LIST_REQUESTS', 60),
      keepDatabase: env.BENCH_LIST_KEEP_DATABASE === 'true',
    },
    start: { runs: positiveInteger(env, 'BENCH_START_RUNS', 5), idleSeconds: positiveInteger(env, 'BENCH_IDLE_S', 10) },
  };
}
