import pg from 'pg';

export interface BenchDatabase {
  name: string;
  url: string;
  drop(): Promise<void>;
}

export interface SeededCustomer {
  /** The row's primary key. */
  id: string;
  /** The caller's identifier, used in Billow's URLs. */
  customerId: string;
}

function withDatabaseName(url: string, name: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${name}`;
  return parsed.toString();
}

export async function withClient<T>(url: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/**
 * A database named after this process. `drop()` is safe at any time, before
 * `create()` finished or more than once, so an interrupted run can always call it.
 */
export function benchDatabase(adminUrl: string, suffix = ''): BenchDatabase & { create(): Promise<void> } {
  const name = `billow_bench_${process.pid}${suffix}`;
  return {
    name,
    url: withDatabaseName(adminUrl, name),
    create: () =>
      withClient(adminUrl, async (client) => {
        await client.query(`DROP DATABASE IF EXISTS ${name}`);
        await client.query(`CREATE DATABASE ${name}`);
      }),
    drop: async () => {
      // FORCE ends any session a child process may have left behind.
      await withClient(adminUrl, (client) => client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
    },
  };
}

async function productionEnvironmentId(client: pg.Client, organizationId: string): Promise<string> {
  const result = await client.query<{ id: string }>(
    `SELECT id FROM environments WHERE organization_id = $1 AND kind = 'production'`,
    [organizationId],
  );
  const id = result.rows[0]?.id;
  if (!id) throw new Error(`The organization ${organizationId} has no production environment`);
  return id;
}

/**
 * Inserts `count` customers in the organization's production environment in
 * one statement, shaped as the API would store them, and returns their ids.
 */
export async function seedCustomers(url: string, organizationId: string, count: number): Promise<SeededCustomer[]> {
  return withClient(url, async (client) => {
    const environmentId = await productionEnvironmentId(client, organizationId);
    const result = await client.query<SeededCustomer>(
      `INSERT INTO customers (id, environment_id, customer_id, name, email, details, metadata, created_at, modified_at)
       SELECT gen_random_uuid(), $1, 'bench-' || lpad(n::text, 6, '0'), 'Bench customer ' || n,
              'customer' || n || '@bench.example', '{}'::jsonb, jsonb_build_object('plan', 'pro', 'seat', n),
              now() - n * interval '1 minute', now() - n * interval '1 minute'
       FROM generate_series(1, $2::int) AS n
       RETURNING id, customer_id AS "customerId"`,
      [environmentId, count],
    );
    await client.query('ANALYZE customers');
    return result.rows;
  });
}

/** The server's version line, for the report. */
export function postgresVersion(url: string): Promise<string> {
  return withClient(url, async (client) => {
    const result = await client.query<{ server_version: string }>('SHOW server_version');
    return result.rows[0]?.server_version ?? 'unknown';
  });
}

/** What the usage counters of a meter hold, summed per customer (every period, every subscription). */
export function meterTotals(url: string, meterIdentifier: string): Promise<Map<string, number>> {
  return withClient(url, async (client) => {
    const result = await client.query<{ customer_id: string; total: string }>(
      `SELECT c.customer_id, sum(u.value)::text AS total
         FROM usage_counters u
         JOIN features f ON f.id = u.feature_id
         JOIN subscriptions s ON s.id = u.subscription_id
         JOIN customers c ON c.id = s.customer_id
        WHERE f.identifier = $1
        GROUP BY c.customer_id`,
      [meterIdentifier],
    );
    return new Map(result.rows.map((row) => [row.customer_id, Number(row.total)]));
  });
}

/**
 * What the stored usage reports of a meter add up to, per customer (DELTAs: the bench
 * sends no SET), and how many reports were stored under the idempotency keys that
 * start with `keyPrefix`.
 */
export function reportTotals(url: string, meterIdentifier: string, keyPrefix: string): Promise<{ perCustomer: Map<string, number>; withPrefix: number }> {
  return withClient(url, async (client) => {
    const result = await client.query<{ customer_id: string; total: string; with_prefix: string }>(
      `SELECT c.customer_id, sum(r.value)::text AS total,
              count(*) FILTER (WHERE starts_with(r.client_idempotency_key, $2))::text AS with_prefix
         FROM usage_reports r
         JOIN features f ON f.id = r.feature_id
         JOIN customers c ON c.id = r.customer_id
        WHERE f.identifier = $1 AND r.behaviour = 'DELTA'
        GROUP BY c.customer_id`,
      [meterIdentifier, keyPrefix],
    );
    return {
      perCustomer: new Map(result.rows.map((row) => [row.customer_id, Number(row.total)])),
      withPrefix: result.rows.reduce((sum, row) => sum + Number(row.with_prefix), 0),
    };
  });
}

/** Transactions the database has committed or rolled back so far (its statistics lag: read after a pause). */
export function transactionCount(url: string): Promise<number> {
  return withClient(url, async (client) => {
    const result = await client.query<{ n: string }>(
      'SELECT (xact_commit + xact_rollback)::text AS n FROM pg_stat_database WHERE datname = current_database()',
    );
    return Number(result.rows[0]?.n ?? 0);
  });
}
