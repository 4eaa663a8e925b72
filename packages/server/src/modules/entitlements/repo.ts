import { sql } from 'kysely';
import type { Executor } from '../../db/transaction.js';

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

/**
 * The customer, its granting subscriptions and what each grants, in one
 * statement: the hot path of every entitlement check. Nothing for an unknown
 * customer.
 *
 * Granting: active, trialing or past_due and not past its end date; canceled
 * while its end date is still ahead. Never superseded, incomplete or
 * incomplete_expired.
 *
 * Each subscription grants the entitlements of its own plan version, unless a
 * later version of the plan was published with updateFeatures: then those of
 * the newest such version.
 *
 * The SQL is the function billow_entitlement_grants (migration
 * 20261121160000_usage.sql), whose plan PostgreSQL keeps per session.
 */
export async function findGrants(
  db: Executor,
  environmentId: string,
  customerId: string,
  now: Date,
  featureIdentifier?: string,
): Promise<GrantRow[]> {
  const { rows } = await sql<GrantRow>`
    SELECT * FROM billow_entitlement_grants(${environmentId}::uuid, ${customerId}::text, ${now}::timestamptz, ${featureIdentifier ?? null}::text)`.execute(db);
  return rows;
}
