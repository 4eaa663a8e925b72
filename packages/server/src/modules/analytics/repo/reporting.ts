/** The reporting currency and the rates the seller sets into it (decision 0102): every statement of them. */
import { sql } from 'kysely';
import type { Executor, Tx } from '../../../db/transaction.js';

export function findSettings(db: Executor, environmentId: string) {
  return db.selectFrom('analytics_settings').select(['reporting_currency', 'modified_at']).where('environment_id', '=', environmentId).executeTakeFirst();
}

/** One change of an environment's settings at a time, its first included (when there is no row yet to lock). */
export async function lockSettings(tx: Tx, environmentId: string): Promise<void> {
  await sql`select pg_advisory_xact_lock(hashtextextended(${`analytics_settings ${environmentId}`}, 0))`.execute(tx);
}

export async function saveSettings(tx: Tx, environmentId: string, reportingCurrency: string | null, at: Date): Promise<void> {
  await tx
    .insertInto('analytics_settings')
    .values({ environment_id: environmentId, reporting_currency: reportingCurrency, modified_at: at })
    .onConflict((oc) => oc.column('environment_id').doUpdateSet({ reporting_currency: reportingCurrency, modified_at: at }))
    .execute();
}

export interface RateRow {
  from_currency: string;
  rate: string;
  set_at: Date;
  set_by: string;
}

/** The rates set into `to`, by currency; each rate as the exact decimal text PostgreSQL keeps. */
export function ratesInto(db: Executor, environmentId: string, to: string): Promise<RateRow[]> {
  return db
    .selectFrom('analytics_exchange_rates')
    .select(['from_currency', sql<string>`rate::text`.as('rate'), 'set_at', 'set_by'])
    .where('environment_id', '=', environmentId)
    .where('to_currency', '=', to)
    .orderBy('from_currency')
    .execute();
}

/** Replaces the rates set into `to` with these. */
export async function replaceRates(tx: Tx, environmentId: string, to: string, rows: readonly RateRow[]): Promise<void> {
  await tx.deleteFrom('analytics_exchange_rates').where('environment_id', '=', environmentId).where('to_currency', '=', to).execute();
  if (rows.length === 0) return;
  await tx
    .insertInto('analytics_exchange_rates')
    .values(rows.map((r) => ({ environment_id: environmentId, from_currency: r.from_currency, to_currency: to, rate: r.rate, set_at: r.set_at, set_by: r.set_by })))
    .execute();
}

/** The currencies the environment's customers have paid MRR in. */
export async function mrrCurrencies(db: Executor, environmentId: string): Promise<string[]> {
  const rows = await db.selectFrom('analytics_customer_mrr').select('currency').distinct().where('environment_id', '=', environmentId).execute();
  return rows.map((r) => r.currency);
}
