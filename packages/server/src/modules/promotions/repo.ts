import { sql, type Insertable, type Selectable, type Updateable } from 'kysely';
import type { Executor } from '../../db/transaction.js';
import type { PromotionsTable } from '../../db/schema.js';

export type PromotionRow = Selectable<PromotionsTable>;

/** The channel on which changes to promotions are announced: `<environmentId>:<promotionId>`. */
export const PROMOTIONS_CHANNEL = 'billow_promotions';

export async function insertPromotion(db: Executor, row: Insertable<PromotionsTable>): Promise<PromotionRow> {
  return db.insertInto('promotions').values(row).returningAll().executeTakeFirstOrThrow();
}

/** A promotion of the environment, archived or not; `id` must be a UUID. */
export async function findPromotion(
  db: Executor,
  environmentId: string,
  id: string,
  options: { forUpdate?: boolean } = {},
): Promise<PromotionRow | undefined> {
  let query = db.selectFrom('promotions').selectAll().where('environment_id', '=', environmentId).where('id', '=', id);
  if (options.forUpdate) query = query.forUpdate();
  return query.executeTakeFirst();
}

export interface PromotionFilter {
  productId: string | null;
  archived: boolean;
}

function filtered(db: Executor, environmentId: string, filter: PromotionFilter) {
  let query = db
    .selectFrom('promotions')
    .where('environment_id', '=', environmentId)
    .where('archived_at', filter.archived ? 'is not' : 'is', null);
  if (filter.productId !== null) query = query.where('product_id', '=', filter.productId);
  return query;
}

export async function countPromotions(db: Executor, environmentId: string, filter: PromotionFilter): Promise<number> {
  const row = await filtered(db, environmentId, filter)
    .select((eb) => eb.fn.countAll<string>().as('count'))
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

export async function listPromotions(
  db: Executor,
  environmentId: string,
  filter: PromotionFilter,
  limit: number,
  offset: number,
): Promise<PromotionRow[]> {
  return filtered(db, environmentId, filter).selectAll().orderBy('seq', 'desc').limit(limit).offset(offset).execute();
}

export async function updatePromotion(db: Executor, id: string, changes: Updateable<PromotionsTable>): Promise<PromotionRow> {
  return db.updateTable('promotions').set(changes).where('id', '=', id).returningAll().executeTakeFirstOrThrow();
}

/**
 * Announces that a promotion changed, to every process's Edge cache. Call it with the
 * transaction that makes the change: PostgreSQL delivers it when that transaction commits.
 */
export async function notifyPromotionChanged(tx: Executor, environmentId: string, promotionId: string): Promise<void> {
  await sql`select pg_notify(${PROMOTIONS_CHANNEL}, ${`${environmentId}:${promotionId}`})`.execute(tx);
}

/** The enabled, live promotions of a product (location pricing at checkout and in the product offering). */
export async function livePromotionsOfProduct(db: Executor, environmentId: string, productId: string): Promise<PromotionRow[]> {
  return db
    .selectFrom('promotions')
    .selectAll()
    .where('environment_id', '=', environmentId)
    .where('product_id', '=', productId)
    .where('archived_at', 'is', null)
    .where('enabled', '=', true)
    .orderBy('seq')
    .execute();
}
