/**
 * The lists scenario's data: a catalog and two template subscriptions made through
 * Billow's sandbox API as a seller would, then, by set-based SQL over
 * generate_series, 100,000 customers (one subscription each, on one of the two plans,
 * in a spread of statuses) and 1,000,000 paid orders with their invoices and payments,
 * copied from the templates' rows so that every row is what the API writes.
 */
import type pg from 'pg';
import { withClient } from './database.js';
import { billowApi } from './edge-seed.js';

const CARD = { cardNumber: '4242 4242 4242 4242', expMonth: 12, expYear: 2035, cvc: '123' };

/** 50 first names × 100 last names: a name search finds about 20 customers of 100,000. */
export const FIRST_NAMES = [
  'Olivia', 'Liam', 'Emma', 'Noah', 'Ava', 'Elijah', 'Sophia', 'James', 'Isabella', 'Lucas', 'Mia', 'Mateo', 'Amelia', 'Levi',
  'Harper', 'Ezra', 'Evelyn', 'Asher', 'Luna', 'Leo', 'Ella', 'Henry', 'Aria', 'Hudson', 'Chloe', 'Ethan', 'Nora', 'Jack',
  'Layla', 'Owen', 'Zoe', 'Kai', 'Riley', 'Ada', 'Grace', 'Alan', 'Linus', 'Margaret', 'Dennis', 'Barbara', 'Ken', 'Frances',
  'Edsger', 'Radia', 'Niklaus', 'Shafi', 'Tim', 'Hedy', 'Guido', 'Yukihiro',
] as const;
export const LAST_NAMES = Array.from({ length: 100 }, (_, i) =>
  ['Smith', 'Garcia', 'Khan', 'Müller', 'Rossi', 'Dubois', 'Tanaka', 'Silva', 'Nowak', 'Jensen'][i % 10]! + (i < 10 ? '' : String.fromCharCode(97 + Math.floor(i / 10))),
);

export interface ListsSeed {
  environmentId: string;
  customers: number;
  subscriptions: number;
  orders: number;
  invoices: number;
  /** The identifiers of the two plans, for the plan filter. */
  plans: [string, string];
  seedSeconds: number;
}

type Api = ReturnType<typeof billowApi>;

/** Two published monthly plans of one product. */
async function seedPlans(api: Api): Promise<[string, string]> {
  const product = await api('POST', '/catalog/products/', { name: 'Lists bench product', taxCode: 'saas' });
  const plans: string[] = [];
  for (const [name, amount] of [['Lists bench basic', 20], ['Lists bench pro', 50]] as const) {
    const plan = await api('POST', '/catalog/plans/', { name, product: product.id });
    await api('POST', `/catalog/plans/${plan.identifier}/prices/bulk/`, {
      prices: [{ priceType: 'PAID', currency: 'USD', chargeCatalogPrice: [{ charges: [{ chargePeriod: 'MONTHLY', priceData: { amount } }] }] }],
    });
    await api('POST', `/catalog/plans/${plan.identifier}/publish/`, {});
    plans.push(plan.identifier);
  }
  return plans as [string, string];
}

/** One customer, card and paid subscription per plan, through the API: the rows every copy is made from. */
async function templates(api: Api, plans: readonly string[]): Promise<string[]> {
  const ids: string[] = [];
  for (const [i, planIdentifier] of plans.entries()) {
    const customerId = `lists-template-${i}`;
    await api('POST', '/customers/', { customerId, name: `Template ${i}`, email: `template${i}@bench.example` });
    await api('POST', '/payment-methods/', { customerId, ...CARD });
    ids.push((await api('POST', '/subscriptions/create/', { customerId, planIdentifier, chargePeriod: 'MONTHLY' })).id);
  }
  return ids;
}

const sqlList = (names: readonly string[]) => `ARRAY[${names.map((n) => `'${n.replace(/'/g, "''")}'`).join(', ')}]::text[]`;

/** Customers named from the two lists, created a minute apart going back from now; emails start with first.last. */
async function copyCustomers(client: pg.Client, environmentId: string, count: number): Promise<void> {
  await client.query(
    `INSERT INTO customers (id, environment_id, customer_id, name, email, details, metadata, created_at, modified_at)
     SELECT gen_random_uuid(), $1, 'cus_' || lpad(n::text, 7, '0'), f || ' ' || l,
            lower(f) || '.' || lower(l) || n || '@example.com', '{}'::jsonb, '{}'::jsonb,
            now() - n * interval '1 minute', now() - n * interval '1 minute'
       FROM generate_series(1, $2::int) AS n,
            LATERAL (SELECT (${sqlList(FIRST_NAMES)})[1 + n % ${FIRST_NAMES.length}] AS f,
                            (${sqlList(LAST_NAMES)})[1 + (n / ${FIRST_NAMES.length}) % ${LAST_NAMES.length}] AS l) AS names`,
    [environmentId, count],
  );
}

/** One subscription per copied customer, on either plan: 85 % active, 5 % past_due, 5 % trialing, 5 % canceled. */
async function copySubscriptions(client: pg.Client, environmentId: string, templateIds: string[]): Promise<void> {
  await client.query(
    `INSERT INTO subscriptions (id, environment_id, customer_id, product_id, plan_id, plan_version_id, price_id, charge_period,
                                currency, status, amount_minor, quantities, start_date, current_period_start, current_period_end,
                                payment_method_id, billing_anchor, created_at, modified_at)
     SELECT gen_random_uuid(), c.environment_id, c.id, t.product_id, t.plan_id, t.plan_version_id, t.price_id, t.charge_period,
            t.currency,
            CASE c.seq % 20 WHEN 0 THEN 'past_due' WHEN 1 THEN 'trialing' WHEN 2 THEN 'canceled' ELSE 'active' END,
            t.amount_minor, t.quantities, c.created_at, now() - interval '1 day', now() + (1 + c.seq % 28) * interval '1 day',
            NULL, c.created_at, c.created_at, c.created_at
       FROM customers c
       JOIN (SELECT s.*, row_number() OVER (ORDER BY s.seq) - 1 AS k FROM subscriptions s WHERE s.id = ANY($2::uuid[])) t
         ON t.k = c.seq % 2
      WHERE c.environment_id = $1 AND c.customer_id LIKE 'cus\\_%'`,
    [environmentId, templateIds],
  );
}

/**
 * `perCustomer` orders for each copied subscription, spread a minute apart over the past
 * (1,000,000 minutes is about two years): 2 % never paid (FAILED), 3 % refunded.
 */
async function copyOrders(client: pg.Client, environmentId: string, templateOrderId: string, templateIds: string[], perCustomer: number): Promise<void> {
  await client.query(
    `INSERT INTO orders (id, environment_id, customer_id, product_id, plan_id, plan_version_id, subscription_id, status, billing_type,
                         charge_period, is_renewal, is_trial, currency, subtotal_minor, discount_minor, tax_minor, total_minor,
                         credit_applied_minor, refunded_minor, tax_rate_bp, tax_behavior, tax_country, lines, billing_address,
                         payment_method_id, paid_at, created_at, modified_at)
     SELECT 'ord_bench_' || x.n, s.environment_id, s.customer_id, s.product_id, s.plan_id, s.plan_version_id, s.id,
            CASE WHEN x.n % 50 = 0 THEN 'FAILED' WHEN x.n % 33 = 0 THEN 'REFUNDED' ELSE 'COMPLETE' END,
            o.billing_type, o.charge_period, k > 1, false, o.currency, x.total, 0, 0, x.total, 0,
            CASE WHEN x.n % 50 <> 0 AND x.n % 33 = 0 THEN x.total ELSE 0 END,
            o.tax_rate_bp, o.tax_behavior, o.tax_country, o.lines, o.billing_address, NULL,
            CASE WHEN x.n % 50 = 0 THEN NULL ELSE x.at END, x.at, x.at
       FROM subscriptions s
       CROSS JOIN generate_series(1, $3::int) AS k
       CROSS JOIN (SELECT * FROM orders WHERE id = $2) o
       CROSS JOIN LATERAL (SELECT s.seq * $3::int + k AS n) AS i
       CROSS JOIN LATERAL (SELECT i.n, 1000 + (i.n * 37) % 9000 AS total, now() - i.n::double precision * interval '1 minute' AS at) AS x
      WHERE s.environment_id = $1 AND s.id <> ALL($4::uuid[])`,
    [environmentId, templateOrderId, perCustomer, templateIds],
  );
}

/**
 * Each copied order's invoice, numbered in one sequence; a FAILED order's invoice is
 * PAYMENT_FAILED after dunning ran out (lost), and one paid invoice in 40 was paid by a
 * retry after its first attempt failed (recovered).
 */
async function copyInvoices(client: pg.Client, environmentId: string, templateOrderId: string): Promise<void> {
  await client.query(
    `INSERT INTO invoices (id, environment_id, order_id, customer_id, status, currency, subtotal_minor, discount_minor, tax_minor,
                           total_minor, lines, seller, buyer, issued_at, paid_at, modified_at, subscription_id, number,
                           attempt_count, failure_code, failure_message)
     SELECT 'inv_bench_' || substr(o.id, 11), o.environment_id, o.id, o.customer_id,
            CASE o.status WHEN 'FAILED' THEN 'PAYMENT_FAILED' ELSE 'PAID' END,
            o.currency, o.subtotal_minor, o.discount_minor, o.tax_minor, o.total_minor, t.lines, t.seller, t.buyer,
            o.created_at, o.paid_at, o.modified_at, o.subscription_id, 'BENCH-' || lpad(o.seq::text, 8, '0'),
            CASE WHEN o.status = 'FAILED' THEN 9 WHEN f.failed THEN 2 ELSE 1 END,
            CASE WHEN o.status = 'FAILED' OR f.failed THEN 'card_declined' END,
            CASE WHEN o.status = 'FAILED' OR f.failed THEN 'Your card was declined.' END
       FROM orders o CROSS JOIN (SELECT * FROM invoices WHERE order_id = $2) t
       CROSS JOIN LATERAL (SELECT o.seq % 40 = 0 AS failed) f
      WHERE o.environment_id = $1 AND o.id LIKE 'ord\\_bench\\_%'`,
    [environmentId, templateOrderId],
  );
}

/** The payments of the copied orders: a CHARGE for each paid one (at its payment), a REFUND of the whole for each refunded one, a day later. */
async function copyPayments(client: pg.Client, environmentId: string): Promise<void> {
  await client.query(
    `INSERT INTO transactions (id, environment_id, order_id, transaction_type, status, currency, amount_minor, fee_minor, tax_minor, net_minor,
                               provider_ref, available_on, created_at)
     SELECT gen_random_uuid(), o.environment_id, o.id, kind.type, 'success', o.currency, kind.sign * o.total_minor, 0, 0, kind.sign * o.total_minor,
            'ch_bench_' || substr(o.id, 11), (o.paid_at + kind.after)::date, o.paid_at + kind.after
       FROM orders o
       CROSS JOIN LATERAL (VALUES ('CHARGE', 1, interval '0'), ('REFUND', -1, interval '1 day')) AS kind (type, sign, after)
      WHERE o.environment_id = $1 AND o.id LIKE 'ord\\_bench\\_%' AND o.paid_at IS NOT NULL AND (kind.type = 'CHARGE' OR o.status = 'REFUNDED')`,
    [environmentId],
  );
}

/**
 * What the cash triggers (decision 0099) append for the copied payments and invoices, which
 * were copied with triggers off: the triggers' own functions, once per row.
 */
async function logCash(client: pg.Client, environmentId: string): Promise<void> {
  await client.query(`SELECT count(billow_log_transaction_cash(t, 1)) FROM transactions t WHERE t.environment_id = $1 AND t.order_id LIKE 'ord\\_bench\\_%'`, [environmentId]);
  await client.query(`SELECT count(billow_log_invoice_cash(i, 1)) FROM invoices i WHERE i.environment_id = $1 AND i.id LIKE 'inv\\_bench\\_%'`, [environmentId]);
}

/**
 * Runs `work` (a bulk copy into `tables`) with their secondary indexes dropped, then builds
 * them again from their own definitions: one sort per index instead of a million random
 * insertions into indexes larger than the database's buffers. Indexes that back a
 * constraint (primary keys, unique constraints) stay, and check every row as it comes.
 */
async function withIndexesBuiltAfter(client: pg.Client, tables: string[], work: () => Promise<void>, say: (line: string) => void): Promise<void> {
  const indexes = await client.query<{ name: string; definition: string }>(
    `SELECT i.indexname AS name, i.indexdef AS definition FROM pg_indexes i
      WHERE i.schemaname = current_schema() AND i.tablename = ANY($1)
        AND NOT EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conname = i.indexname)`,
    [tables],
  );
  for (const index of indexes.rows) await client.query(`DROP INDEX ${index.name}`);
  await work();
  const at = performance.now();
  await client.query(`SET maintenance_work_mem = '256MB'`);
  for (const index of indexes.rows) await client.query(index.definition);
  await client.query('RESET maintenance_work_mem');
  say(`  ${indexes.rows.length} indexes of ${tables.join(' and ')} built again: ${((performance.now() - at) / 1000).toFixed(1)} s`);
}

async function counted(client: pg.Client, table: string, environmentId: string): Promise<number> {
  const result = await client.query<{ n: string }>(`SELECT count(*)::text AS n FROM ${table} WHERE environment_id = $1`, [environmentId]);
  return Number(result.rows[0]?.n ?? 0);
}

/** The whole seed; `say` reports each step and how long it took. */
export async function seedLists(
  options: { baseUrl: string; serverKey: string; databaseUrl: string; customers: number; ordersPerCustomer: number },
  say: (line: string) => void,
): Promise<ListsSeed> {
  const started = performance.now();
  const api = billowApi(options.baseUrl, options.serverKey);
  const plans = await seedPlans(api);
  const templateIds = await templates(api, plans);
  return withClient(options.databaseUrl, async (client) => {
    const template = await client.query<{ environment_id: string; order_id: string }>(
      `SELECT s.environment_id, o.id AS order_id FROM subscriptions s JOIN orders o ON o.subscription_id = s.id WHERE s.id = $1`,
      [templateIds[0]],
    );
    const { environment_id: environmentId, order_id: templateOrderId } = template.rows[0]!;
    const step = async (label: string, work: () => Promise<void>) => {
      const at = performance.now();
      await work();
      say(`  ${label}: ${((performance.now() - at) / 1000).toFixed(1)} s`);
    };
    // Customers and subscriptions are copied with their checks and triggers on: the subscriptions' triggers keep
    // the MRR counts per terms (decision 0090), as they do for every subscription the API writes.
    await step(`${options.customers.toLocaleString('en-US')} customers`, () => copyCustomers(client, environmentId, options.customers));
    await step('one subscription each', () => copySubscriptions(client, environmentId, templateIds));
    // The orders and invoices refer to rows that exist (the templates' catalog, the customers just made): their foreign
    // keys' checks, a lookup per key per row, are skipped where the bench's role may (a superuser's), as bulk loads do.
    const checksOff = await client.query(`SET session_replication_role = replica`).then(() => true, () => false);
    // Statistics of what was copied, before statements that join it are planned.
    for (const table of ['customers', 'subscriptions']) await client.query(`ANALYZE ${table}`);
    await withIndexesBuiltAfter(
      client,
      ['orders', 'invoices', 'transactions'],
      async () => {
        await step(`${options.ordersPerCustomer} orders each`, () => copyOrders(client, environmentId, templateOrderId, templateIds, options.ordersPerCustomer));
        await client.query('ANALYZE orders');
        await step('their invoices', () => copyInvoices(client, environmentId, templateOrderId));
        await step('their payments and refunds', () => copyPayments(client, environmentId));
      },
      say,
    );
    if (checksOff) await client.query(`SET session_replication_role = DEFAULT`);
    await step('the cash log the triggers would have written', () => logCash(client, environmentId));
    say(`  (foreign key checks ${checksOff ? 'skipped while copying' : 'made for every row: the role may not skip them'})`);
    // What autovacuum does to tables of this size after a while: statistics, and the visibility map index-only scans need.
    await step('VACUUM ANALYZE', async () => {
      for (const table of ['customers', 'subscriptions', 'orders', 'invoices', 'transactions']) await client.query(`VACUUM ANALYZE ${table}`);
    });
    const customers = await counted(client, 'customers', environmentId);
    const subscriptions = await counted(client, 'subscriptions', environmentId);
    const orders = await counted(client, 'orders', environmentId);
    const invoices = await counted(client, 'invoices', environmentId);
    return { environmentId, customers, subscriptions, orders, invoices, plans, seedSeconds: (performance.now() - started) / 1000 };
  });
}
