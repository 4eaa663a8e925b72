import type { Selectable } from 'kysely';
import type { Executor } from '../../../db/transaction.js';
import type { PlanPricesTable } from '../../../db/schema.js';
import type { StoredChargeCatalogPrice, StoredPrice } from './prices.compute.js';

export type PriceRow = Selectable<PlanPricesTable>;

export function toStored(row: PriceRow): StoredPrice {
  return {
    priceType: row.price_type,
    currency: row.currency,
    freeTrial: row.free_trial,
    trialPeriod: row.trial_period,
    enabled: row.enabled,
    taxBehavior: row.tax_behavior,
    chargeCatalogPrice: row.charge_catalog_price as StoredChargeCatalogPrice[],
  };
}

/** Prices of the environment by id, stored form (several at once, for pricing subscriptions in bulk). */
export async function storedPricesByIds(db: Executor, environmentId: string, ids: readonly string[]): Promise<Map<string, StoredPrice>> {
  if (ids.length === 0) return new Map();
  const rows = await db.selectFrom('plan_prices').selectAll().where('environment_id', '=', environmentId).where('id', 'in', [...new Set(ids)]).execute();
  return new Map(rows.map((row) => [row.id, toStored(row)]));
}

export async function replacePrices(
  db: Executor,
  environmentId: string,
  versionId: string,
  prices: Array<StoredPrice & { id: string }>,
): Promise<PriceRow[]> {
  await db.deleteFrom('plan_prices').where('plan_version_id', '=', versionId).execute();
  if (prices.length === 0) return [];
  return db
    .insertInto('plan_prices')
    .values(
      prices.map((p, position) => ({
        id: p.id,
        environment_id: environmentId,
        plan_version_id: versionId,
        position,
        price_type: p.priceType,
        currency: p.currency,
        free_trial: p.freeTrial,
        trial_period: p.trialPeriod,
        enabled: p.enabled,
        tax_behavior: p.taxBehavior,
        charge_catalog_price: JSON.stringify(p.chargeCatalogPrice),
      })),
    )
    .returningAll()
    .execute();
}

export async function countPrices(db: Executor, versionId: string): Promise<number> {
  const row = await db
    .selectFrom('plan_prices')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('plan_version_id', '=', versionId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function listPrices(db: Executor, versionIds: string[], limit?: number, offset = 0): Promise<PriceRow[]> {
  if (versionIds.length === 0) return [];
  let query = db.selectFrom('plan_prices').selectAll().where('plan_version_id', 'in', versionIds).orderBy('position');
  if (limit !== undefined) query = query.limit(limit).offset(offset);
  return query.execute();
}

/** The version's enabled price in `currency`, if it has one. */
export async function enabledPrice(db: Executor, versionId: string, currency: string): Promise<PriceRow | undefined> {
  return db
    .selectFrom('plan_prices')
    .selectAll()
    .where('plan_version_id', '=', versionId)
    .where('currency', '=', currency)
    .where('enabled', '=', true)
    .executeTakeFirst();
}

export async function hasEnabledPrice(db: Executor, versionId: string): Promise<boolean> {
  const row = await db
    .selectFrom('plan_prices')
    .select('id')
    .where('plan_version_id', '=', versionId)
    .where('enabled', '=', true)
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

/** A price by id: the one a subscription pays, enabled or not since. */
export async function findPrice(db: Executor, id: string): Promise<PriceRow | undefined> {
  return db.selectFrom('plan_prices').selectAll().where('id', '=', id).executeTakeFirst();
}

/** The enabled paid prices of every plan's published version (not archived), with their plan: what derived exchange rates compare. */
export async function publishedPaidPrices(db: Executor, environmentId: string): Promise<Array<{ planId: string; price: StoredPrice }>> {
  const rows = await db
    .selectFrom('plan_prices as p')
    .innerJoin('plan_versions as v', 'v.id', 'p.plan_version_id')
    .innerJoin('plans as pl', (join) => join.onRef('pl.id', '=', 'v.plan_id').onRef('pl.published_version', '=', 'v.version'))
    .selectAll('p')
    .select('pl.id as plan_id')
    .where('pl.environment_id', '=', environmentId)
    .where('p.environment_id', '=', environmentId)
    .where('pl.archived_at', 'is', null)
    .where('p.enabled', '=', true)
    .where('p.price_type', '=', 'PAID')
    .orderBy('pl.id')
    .orderBy('p.position')
    .execute();
  return rows.map((row) => ({ planId: row.plan_id, price: toStored(row) }));
}
