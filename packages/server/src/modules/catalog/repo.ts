import { sql } from 'kysely';
import { rowFromJson, TIMESTAMP_COLUMNS } from '../../db/json-rows.js';
import { PREPARED } from '../../db/prepared.js';
import type { Executor } from '../../db/transaction.js';
import type { PlanRow, VersionRow } from './plans/repo.js';
import type { PriceRow } from './prices/repo.js';
import type { ProductRow } from './products/repo.js';

export type SluggedTable = 'products' | 'features' | 'plans';

/** The identifiers of `table` in the environment that are `base` or start with `base-`. */
export async function identifiersLike(db: Executor, table: SluggedTable, environmentId: string, base: string): Promise<Set<string>> {
  const rows = await db
    .selectFrom(table)
    .select('identifier')
    .where('environment_id', '=', environmentId)
    .where((eb) => eb.or([eb('identifier', '=', base), eb('identifier', 'like', `${base}-%`)]))
    .execute();
  return new Set(rows.map((r) => r.identifier));
}

/** The catalog rows a subscription bills for, by their ids. */
export interface SubscribedRowIds {
  environmentId: string;
  productId: string;
  planId: string;
  versionId: string;
  priceId: string;
}

export interface SubscribedRows {
  product: ProductRow;
  plan: PlanRow;
  version: VersionRow;
  price: PriceRow;
}

/**
 * The product, plan, version and price of a subscription in one query (four otherwise),
 * each row whole, as its own repo reads it; undefined when one of them is missing.
 */
export async function subscribedRows(db: Executor, ids: SubscribedRowIds): Promise<SubscribedRows | undefined> {
  const { rows } = await sql<Record<'product' | 'plan' | 'version' | 'price', Record<string, unknown>>>`${PREPARED}
    SELECT to_jsonb(p) AS product, to_jsonb(pl) AS plan, to_jsonb(v) AS version, to_jsonb(pr) AS price
      FROM products p, plans pl, plan_versions v, plan_prices pr
     WHERE p.id = ${ids.productId} AND p.environment_id = ${ids.environmentId}
       AND pl.id = ${ids.planId} AND v.id = ${ids.versionId} AND pr.id = ${ids.priceId}`.execute(db);
  const found = rows[0];
  return found ? subscribedRowsFromJson(found) : undefined;
}

/** The four rows, read as JSON (to_jsonb) by this query or another module's, as their repos return them. */
export function subscribedRowsFromJson(json: Partial<Record<'product' | 'plan' | 'version' | 'price', Record<string, unknown> | null>>): SubscribedRows | undefined {
  const product = rowFromJson<ProductRow>(json.product, TIMESTAMP_COLUMNS.products);
  const plan = rowFromJson<PlanRow>(json.plan, TIMESTAMP_COLUMNS.plans);
  const version = rowFromJson<VersionRow>(json.version, TIMESTAMP_COLUMNS.plan_versions);
  const price = rowFromJson<PriceRow>(json.price, TIMESTAMP_COLUMNS.plan_prices);
  return product && plan && version && price ? { product, plan, version, price } : undefined;
}
