import { sql, type RawBuilder } from 'kysely';
import { PREPARED } from '../../db/prepared.js';
import type { Executor } from '../../db/transaction.js';
import type { RawMeter } from './compute.js';

/** One row per (granting subscription, granted feature); a customer without any has one row of nulls. */
export interface GrantRow {
  customer_pk: string;
  customer_archived_at: Date | null;
  subscription_id: string | null;
  start_date: Date | null;
  current_period_start: Date | null;
  current_period_end: Date | null;
  end_date: Date | null;
  feature_id: string | null;
  identifier: string | null;
  feature_name: string | null;
  feature_type: 'BOOLEAN' | 'CUSTOMIZABLE' | 'METER' | null;
  details: Record<string, unknown> | null;
  /** The quantity of the feature the subscription bought, if any. */
  quantity: unknown;
  /** The meter of a RAW_EVENTS feature; null for every other feature. */
  raw_meter: Record<string, unknown> | null;
  /** The subscription price's charge entry for this feature, if it prices it. */
  charge: Record<string, unknown> | null;
}

/** One usage counter of the customer's subscriptions, as billow_customer_counters returns it. */
export interface CounterRow {
  /** The subscription whose usage this is: the counter's own (depth 0) or a later record that replaced it. */
  sub_id: string;
  /** How many replacements lie between the counter's subscription and sub_id. */
  depth: number;
  feature_id: string;
  period_start: Date;
  value: number;
  rollover: number;
  alerts_sent: unknown[];
}

/** A row of billow_customer_state: the test clock's time (side 0), a grant (side 1) or a counter (side 2, its columns prefixed with c_). */
type StateRow = GrantRow & { side: 0 | 1 | 2 } & { [K in keyof CounterRow as `c_${K}`]: CounterRow[K] | null };

/**
 * The two reads behind every entitlement answer and usage report, in one
 * statement (one round trip):
 *
 * The customer, its granting subscriptions and what each grants (`grants`):
 * one row per (granting subscription, granted feature); nothing for an unknown
 * customer. Granting: active, trialing or past_due and not past its end date;
 * canceled while its end date is still ahead. Never superseded, incomplete or
 * incomplete_expired. Each subscription grants the entitlements of its own
 * plan version, unless a later version of the plan was published with
 * updateFeatures: then those of the newest such version.
 *
 * The customer's recent usage counters (`counters`: current and previous
 * periods, lifetime ones), nearest first: usage survives a plan change
 * (DOMAIN.md §3.3), and a successor takes its predecessor's counter over on
 * its first report.
 *
 * The SQL is the function billow_customer_state (migration
 * 20261121170000_usage_counter_lookup.sql) over billow_entitlement_grants and
 * billow_customer_counters (20261121160000_usage.sql); PostgreSQL keeps their
 * plans per session.
 */
export async function findCustomerState(
  db: Executor,
  environmentId: string,
  customerId: string,
  now: Date,
  featureIdentifier?: string,
): Promise<CustomerState> {
  const { rows } = await sql<StateRow>`${PREPARED}
    SELECT * FROM billow_customer_state(${environmentId}::uuid, ${customerId}::text, ${now}::timestamptz, ${featureIdentifier ?? null}::text)`.execute(db);
  return stateOf(rows);
}

export interface CustomerState {
  grants: GrantRow[];
  counters: CounterRow[];
  testClockTime: Date | null;
}

/**
 * The state of many (customer, feature) pairs in one statement, as
 * `findCustomerState` reads each (a null feature: all of them): one entry per
 * pair, in the order given.
 */
export async function findCustomerStates(
  db: Executor,
  environmentId: string,
  pairs: readonly { customerId: string; featureIdentifier: string | null }[],
  now: Date,
): Promise<CustomerState[]> {
  const keys = JSON.stringify(pairs.map((pair, n) => ({ n, customer: pair.customerId, feature: pair.featureIdentifier })));
  const { rows } = await sql<StateRow & { pair: number }>`${PREPARED}
    SELECT k.n AS pair, s.*
      FROM jsonb_to_recordset(${keys}::jsonb) AS k(n integer, customer text, feature text)
     CROSS JOIN LATERAL billow_customer_state(${environmentId}::uuid, k.customer, ${now}::timestamptz, k.feature) AS s`.execute(db);
  const byPair: StateRow[][] = pairs.map(() => []);
  for (const row of rows) byPair[row.pair]?.push(row);
  return byPair.map(stateOf);
}

function stateOf(rows: StateRow[]): CustomerState {
  const grants: GrantRow[] = [];
  const counters: CounterRow[] = [];
  let testClockTime: Date | null = null;
  for (const row of rows) {
    if (row.side === 0) {
      testClockTime = row.current_period_start;
    } else if (row.side === 1) {
      grants.push(row);
    } else {
      counters.push({
        sub_id: row.c_sub_id!,
        depth: row.c_depth!,
        feature_id: row.c_feature_id!,
        period_start: row.c_period_start!,
        value: row.c_value!,
        rollover: row.c_rollover!,
        alerts_sent: row.c_alerts_sent!,
      });
    }
  }
  return { grants, counters, testClockTime };
}

export interface AggregateRequest {
  key: string;
  identifier: string;
  meter: RawMeter;
  start: Date;
  end: Date | null;
}

function numeric(field: string): RawBuilder<unknown> {
  return sql`CASE WHEN jsonb_typeof(properties -> ${field}::text) = 'number' THEN (properties ->> ${field}::text)::numeric END`;
}

function aggregate(meter: RawMeter): RawBuilder<unknown> {
  const field = meter.field ?? 'value';
  switch (meter.aggregation) {
    case 'COUNT':
      return sql`count(*)`;
    case 'SUM':
      return sql`coalesce(sum(${numeric(field)}), 0)`;
    case 'MAX':
      return sql`coalesce(max(${numeric(field)}), 0)`;
    case 'MIN':
      return sql`coalesce(min(${numeric(field)}), 0)`;
    case 'UNIQUE_COUNT':
      return sql`count(DISTINCT nullif(properties -> ${field}::text, 'null'::jsonb))`;
    case 'LATEST':
      return sql`coalesce((array_agg(${numeric(field)} ORDER BY occurred_at DESC, created_at DESC)
        FILTER (WHERE ${numeric(field)} IS NOT NULL))[1], 0)`;
  }
}

/** The value of each RAW_EVENTS meter over its period, from the customer's events (see events.compute.ts); the events are written by the usage module. */
export async function aggregateEvents(
  db: Executor,
  environmentId: string,
  customerPk: string,
  requests: AggregateRequest[],
): Promise<Map<string, number>> {
  const values = new Map<string, number>();
  if (requests.length === 0) return values;
  const parts = requests.map(({ key, identifier, meter, start, end }) => {
    const named = meter.eventName
      ? sql`event_name = ${meter.eventName}`
      : sql`(event_name = ${identifier} OR properties ->> 'featureId' = ${identifier})`;
    const until = end === null ? sql`` : sql`AND occurred_at < ${end}`;
    const filtered =
      Object.keys(meter.properties).length === 0 ? sql`` : sql`AND properties @> ${JSON.stringify(meter.properties)}::jsonb`;
    return sql`
      SELECT ${key}::text AS key, (${aggregate(meter)})::text AS value FROM usage_events
      WHERE environment_id = ${environmentId} AND customer_id = ${customerPk}
        AND occurred_at >= ${start} ${until} AND ${named} ${filtered}`;
  });
  const { rows } = await sql<{ key: string; value: string }>`${sql.join(parts, sql` UNION ALL `)}`.execute(db);
  for (const row of rows) values.set(row.key, Math.floor(Number(row.value)));
  return values;
}
