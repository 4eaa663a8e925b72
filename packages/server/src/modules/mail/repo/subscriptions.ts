/** What mail reads of subscriptions, their customers and cards: to plan reminders (decision 0071) and to tell how a subscription ended (0070). */
import { sql } from 'kysely';
import type { Selectable } from 'kysely';
import type { Executor } from '../../../db/transaction.js';
import type { SubscriptionsTable } from '../../../db/schema.js';

type SubscriptionRow = Selectable<SubscriptionsTable>;

export interface CardRow {
  customer_id: string;
  last4: string | null;
  exp_month: number | null;
  exp_year: number | null;
}

/**
 * The card each customer's next charge will be taken from: the usable method a renewal
 * charges (payments: its default, else its newest that succeeded and is not removed).
 */
export function usableCards(db: Executor, environmentId: string, customerPks: string[]): Promise<CardRow[]> {
  if (customerPks.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('payment_methods')
    .distinctOn('customer_id')
    .select(['customer_id', 'last4', 'exp_month', 'exp_year'])
    .where('environment_id', '=', environmentId)
    .where('customer_id', 'in', customerPks)
    .where('status', '=', 'succeeded')
    .where('deleted_at', 'is', null)
    .orderBy('customer_id')
    .orderBy('is_default', 'desc')
    .orderBy('id', 'desc')
    .execute();
}

export interface CandidateDefaults {
  trialEndingDays: number;
  upcomingRenewalDays: number;
  cardExpiringDays: number;
  /** The charge periods whose renewals are announced. */
  yearly: readonly string[];
}

/**
 * Subscriptions of real-time customers (no test clock) with a reminder due by `now` and not
 * yet recorded, by their environment's settings: a trial that ends within its days, a
 * yearly renewal within its days, a card that expires before the next charge within its
 * days. The caller works out each reminder exactly (reminders.compute.ts); this only finds
 * them, without reading again those already recorded.
 */
export async function reminderCandidates(db: Executor, now: Date, limit: number, d: CandidateDefaults): Promise<Array<SubscriptionRow & { card_exp_month: number | null; card_exp_year: number | null }>> {
  const yearly = d.yearly.length > 0 ? sql.join(d.yearly.map((p) => sql`${p}`)) : sql`NULL`;
  const charge = sql`CASE WHEN s.status = 'trialing' THEN s.trial_end ELSE s.current_period_end END`;
  const expires = sql`(make_timestamptz(card.exp_year, card.exp_month, 1, 0, 0, 0, 'UTC') + interval '1 month')`;
  const recorded = (kind: string, occasion: unknown) =>
    sql`NOT EXISTS (SELECT 1 FROM mail_reminders r WHERE r.subscription_id = s.id AND r.kind = ${kind} AND r.occasion = ${occasion})`;
  const within = (column: string, fallback: number) => sql`${now}::timestamptz + make_interval(days => COALESCE(${sql.ref(column)}, ${fallback}::int))`;
  const result = await sql<SubscriptionRow & { card_exp_month: number | null; card_exp_year: number | null }>`
    SELECT s.*, card.exp_month AS card_exp_month, card.exp_year AS card_exp_year
    FROM subscriptions s
    JOIN customers c ON c.id = s.customer_id AND c.test_clock_id IS NULL
    LEFT JOIN email_settings es ON es.environment_id = s.environment_id
    LEFT JOIN LATERAL (
      SELECT m.exp_month, m.exp_year FROM payment_methods m
      WHERE m.environment_id = s.environment_id AND m.customer_id = s.customer_id AND m.status = 'succeeded' AND m.deleted_at IS NULL
      ORDER BY m.is_default DESC, m.id DESC LIMIT 1
    ) card ON true
    WHERE s.status IN ('trialing', 'active')
      -- A subscription set to end by its next charge is reminded of nothing (reminders.compute.ts): never a candidate.
      AND (s.end_date IS NULL OR s.end_date > ${charge})
      AND (
        (s.status = 'trialing' AND COALESCE(es.trial_ending, true) AND s.trial_end > ${now}
          AND s.trial_end <= ${within('es.trial_ending_days', d.trialEndingDays)} AND ${recorded('trial_ending', sql`s.trial_end`)})
        OR (s.status = 'active' AND s.charge_period IN (${yearly}) AND COALESCE(es.upcoming_renewal, true) AND s.current_period_end > ${now}
          AND s.current_period_end <= ${within('es.upcoming_renewal_days', d.upcomingRenewalDays)} AND ${recorded('upcoming_renewal', sql`s.current_period_end`)})
        OR (COALESCE(es.card_expiring, true) AND card.exp_year IS NOT NULL AND card.exp_month BETWEEN 1 AND 12 AND ${charge} > ${now}
          AND ${expires} <= ${charge} AND ${expires} <= ${within('es.card_expiring_days', d.cardExpiringDays)} AND ${recorded('card_expiring', charge)})
      )
    LIMIT ${limit}
  `.execute(db);
  return result.rows;
}

/** How a subscription ended, for the email of its cancellation: a canceled subscription's record no longer changes. */
export function subscriptionEnding(db: Executor, environmentId: string, id: string) {
  return db
    .selectFrom('subscriptions')
    .select(['status', 'canceled_at', 'end_date', 'cancellation_reason'])
    .where('environment_id', '=', environmentId)
    .where('id', '=', id)
    .executeTakeFirst();
}

/** What a reminder's email names: its buyer, product and plan. */
export function reminderSubject(db: Executor, environmentId: string, subscriptionId: string) {
  return db
    .selectFrom('subscriptions as s')
    .innerJoin('customers as c', 'c.id', 's.customer_id')
    .innerJoin('products as p', 'p.id', 's.product_id')
    .innerJoin('plan_versions as v', 'v.id', 's.plan_version_id')
    .select(['c.email', 'c.name as customer_name', 'p.name as product_name', 'v.name as plan_name'])
    .where('s.environment_id', '=', environmentId)
    .where('s.id', '=', subscriptionId)
    .executeTakeFirst();
}

/** The `locale` of a customer (decision 0068), found by its id or by a subscription of its; null without one. */
export async function customerLocale(db: Executor, environmentId: string, by: { customerId?: string | null; subscriptionId?: string | null }): Promise<string | null> {
  if (by.customerId) {
    const row = await db.selectFrom('customers').select('locale').where('environment_id', '=', environmentId).where('id', '=', by.customerId).executeTakeFirst();
    return row?.locale ?? null;
  }
  if (!by.subscriptionId) return null;
  const row = await db
    .selectFrom('subscriptions as s')
    .innerJoin('customers as c', 'c.id', 's.customer_id')
    .select('c.locale')
    .where('s.environment_id', '=', environmentId)
    .where('s.id', '=', by.subscriptionId)
    .executeTakeFirst();
  return row?.locale ?? null;
}
