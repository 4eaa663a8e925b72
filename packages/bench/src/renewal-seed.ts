/**
 * The renewal scenario's subscriptions: a few made through Billow's sandbox API
 * as a seller would (a customer, a saved 4242 card, a monthly paid subscription
 * charged at once), and the rest copied from their rows by bulk SQL, so that every
 * one is what the API writes. All are then made due at the same instant.
 */
import type pg from 'pg';
import { withClient } from './database.js';
import { billowApi, eachLimited } from './edge-seed.js';

/** Subscriptions made through the API; the others are copies of their rows. */
const TEMPLATES = 20;
const SEED_CONCURRENCY = 8;
const CARD = { cardNumber: '4242 4242 4242 4242', expMonth: 12, expYear: 2035, cvc: '123' };

export interface RenewalSeed {
  environmentId: string;
  /** The instant every subscription's period ends (billing_anchor and current_period_end). */
  instant: Date;
  subscriptions: number;
  /** How many of them were made through the API. */
  throughApi: number;
  /** The monthly price, in minor units, each renewal charges. */
  amountMinor: number;
}

/** A published plan with one feature and a monthly price of 20 USD. */
async function seedPlan(api: ReturnType<typeof billowApi>): Promise<string> {
  const product = await api('POST', '/catalog/products/', { name: 'Renewal bench product', taxCode: 'saas' });
  const feature = await api('POST', '/catalog/features/', { name: 'Renewal bench access', identifier: 'renewal-access', featureType: 'BOOLEAN' });
  const plan = await api('POST', '/catalog/plans/', { name: 'Renewal bench monthly', product: product.id });
  await api('POST', `/catalog/plans/${plan.identifier}/features/`, { planEntitlements: [{ feature: feature.id, details: { value: true } }] });
  await api('POST', `/catalog/plans/${plan.identifier}/prices/bulk/`, {
    prices: [{ priceType: 'PAID', currency: 'USD', chargeCatalogPrice: [{ charges: [{ chargePeriod: 'MONTHLY', priceData: { amount: 20 } }] }] }],
  });
  await api('POST', `/catalog/plans/${plan.identifier}/publish/`, {});
  return plan.identifier;
}

/** Customers, cards and subscriptions through the sandbox API; returns the subscriptions' ids. */
async function subscribeThroughApi(api: ReturnType<typeof billowApi>, planIdentifier: string, count: number): Promise<string[]> {
  const ids: string[] = [];
  const numbers = Array.from({ length: count }, (_, i) => i + 1);
  await eachLimited(numbers, SEED_CONCURRENCY, async (n) => {
    const customerId = `renewal-api-${n}`;
    await api('POST', '/customers/', { customerId, name: `Renewal customer ${n}`, email: `renewal${n}@bench.example` });
    await api('POST', '/payment-methods/', { customerId, ...CARD });
    const subscription = await api('POST', '/subscriptions/create/', { customerId, planIdentifier, chargePeriod: 'MONTHLY' });
    ids.push(subscription.id);
  });
  return ids;
}

/**
 * Copies the template subscriptions' rows (customer, payment method, subscription)
 * until there are `total`, in three INSERT ... SELECT statements over a numbered
 * list of copies; each copy gets new ids and its own customer identifier.
 */
async function copyTemplates(client: pg.Client, templateIds: string[], total: number): Promise<void> {
  await client.query('BEGIN');
  await client.query(
    `CREATE TEMP TABLE bench_copies ON COMMIT DROP AS
     SELECT n, t.subscription_id, t.customer_id AS template_customer, t.payment_method_id AS template_method,
            gen_random_uuid() AS customer_uuid, gen_random_uuid() AS subscription_uuid,
            nextval(pg_get_serial_sequence('payment_methods', 'id')) AS method_id
       FROM generate_series(1, $2::int) AS n
       JOIN (SELECT s.id AS subscription_id, s.customer_id, s.payment_method_id, row_number() OVER (ORDER BY s.id) - 1 AS k
               FROM subscriptions s WHERE s.id = ANY($1::uuid[])) t ON t.k = n % $3`,
    [templateIds, total - templateIds.length, templateIds.length],
  );
  await client.query(
    `INSERT INTO customers (id, environment_id, customer_id, name, email, details, metadata, billing_address,
                            created_at, modified_at, archived_at, currency, credit_minor, test_clock_id)
     SELECT b.customer_uuid, c.environment_id, 'renewal-copy-' || b.n, 'Renewal customer copy ' || b.n,
            'renewal-copy' || b.n || '@bench.example', c.details, c.metadata, c.billing_address,
            c.created_at, c.modified_at, c.archived_at, c.currency, c.credit_minor, c.test_clock_id
       FROM bench_copies b JOIN customers c ON c.id = b.template_customer`,
  );
  await client.query(
    `INSERT INTO payment_methods (id, environment_id, customer_id, method_type, brand, last4, exp_month, exp_year, funding,
                                  country, provider_ref, status, is_default, created_at, modified_at, deleted_at)
     OVERRIDING SYSTEM VALUE
     SELECT b.method_id, m.environment_id, b.customer_uuid, m.method_type, m.brand, m.last4, m.exp_month, m.exp_year, m.funding,
            m.country, m.provider_ref, m.status, m.is_default, m.created_at, m.modified_at, m.deleted_at
       FROM bench_copies b JOIN payment_methods m ON m.id = b.template_method`,
  );
  await client.query(
    `INSERT INTO subscriptions (id, environment_id, customer_id, product_id, plan_id, plan_version_id, price_id, charge_period,
                                currency, status, amount_minor, quantities, start_date, current_period_start, current_period_end,
                                trial_end, end_date, canceled_at, cancellation_reason, cancellation_feedback, cancellation_comment,
                                payment_method_id, previous_subscription_id, pending_expires_at, billing_anchor, created_at, modified_at)
     SELECT b.subscription_uuid, s.environment_id, b.customer_uuid, s.product_id, s.plan_id, s.plan_version_id, s.price_id,
            s.charge_period, s.currency, s.status, s.amount_minor, s.quantities, s.start_date, s.current_period_start,
            s.current_period_end, s.trial_end, s.end_date, s.canceled_at, s.cancellation_reason, s.cancellation_feedback,
            s.cancellation_comment, b.method_id, s.previous_subscription_id, s.pending_expires_at, s.billing_anchor,
            s.created_at, s.modified_at
       FROM bench_copies b JOIN subscriptions s ON s.id = b.subscription_id`,
  );
  await client.query('COMMIT');
}

/** Every subscription of the environment ends its period at one instant: the next whole minute a month ahead. */
async function dueAtOneInstant(client: pg.Client, environmentId: string): Promise<Date> {
  const result = await client.query<{ instant: Date }>(
    `SELECT date_trunc('minute', max(current_period_end)) + interval '1 minute' AS instant FROM subscriptions WHERE environment_id = $1`,
    [environmentId],
  );
  const instant = result.rows[0]!.instant;
  await client.query(`UPDATE subscriptions SET billing_anchor = $2, current_period_end = $2 WHERE environment_id = $1`, [
    environmentId,
    instant,
  ]);
  for (const table of ['customers', 'payment_methods', 'subscriptions']) await client.query(`ANALYZE ${table}`);
  return instant;
}

/** `total` subscriptions in the organization's sandbox, all due at one instant. */
export async function seedRenewals(baseUrl: string, sandboxKey: string, databaseUrl: string, total: number): Promise<RenewalSeed> {
  const api = billowApi(`${baseUrl}/sandbox`, sandboxKey);
  const plan = await seedPlan(api);
  const throughApi = Math.min(TEMPLATES, total);
  const templateIds = await subscribeThroughApi(api, plan, throughApi);
  return withClient(databaseUrl, async (client) => {
    const template = await client.query<{ environment_id: string; amount_minor: number }>(
      'SELECT environment_id, amount_minor FROM subscriptions WHERE id = $1',
      [templateIds[0]],
    );
    const { environment_id: environmentId, amount_minor: amountMinor } = template.rows[0]!;
    if (total > throughApi) await copyTemplates(client, templateIds, total);
    const instant = await dueAtOneInstant(client, environmentId);
    return { environmentId, instant, subscriptions: total, throughApi, amountMinor: Number(amountMinor) };
  });
}
