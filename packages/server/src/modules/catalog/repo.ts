import { sql } from 'kysely';
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

/** Row columns that are timestamps, which a row read as JSON carries as text. */
const TIMESTAMPS = ['created_at', 'modified_at', 'archived_at', 'published_at'] as const;

function withDates<T>(json: Record<string, unknown>): T {
  for (const column of TIMESTAMPS) {
    const value = json[column];
    if (typeof value === 'string') json[column] = new Date(value);
  }
  return json as T;
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
  if (!found) return undefined;
  return {
    product: withDates<ProductRow>(found.product),
    plan: withDates<PlanRow>(found.plan),
    version: withDates<VersionRow>(found.version),
    price: withDates<PriceRow>(found.price),
  };
}
