import type { Executor } from '../../db/transaction.js';

/**
 * The product's currency as set in its settings, without creating the
 * settings row (the catalog's `settingsOf` does, and this is a public read).
 */
export async function productCurrency(db: Executor, productId: string): Promise<string | null> {
  const row = await db
    .selectFrom('product_settings')
    .select('currency')
    .where('product_id', '=', productId)
    .executeTakeFirst();
  return row?.currency ?? null;
}

/**
 * The product's plans on sale, each with its published version (never a
 * draft): not archived, visible, optionally only those named. In the order
 * the seller gave them (`ordering`), then in the order they were made.
 */
export async function publishedPlans(
  db: Executor,
  environmentId: string,
  productId: string,
  identifiers: string[] | null,
) {
  let query = db
    .selectFrom('plans as p')
    .innerJoin('plan_versions as v', (join) =>
      join.onRef('v.plan_id', '=', 'p.id').onRef('v.version', '=', 'p.published_version'),
    )
    .select([
      'p.identifier',
      'v.id as version_id',
      'v.version',
      'v.name',
      'v.description',
      'v.metadata',
      'v.is_visible',
    ])
    .where('p.environment_id', '=', environmentId)
    .where('p.product_id', '=', productId)
    .where('p.archived_at', 'is', null)
    .where('p.published_version', 'is not', null)
    .where('v.published_at', 'is not', null)
    .where('v.is_visible', '=', true);
  if (identifiers) {
    if (identifiers.length === 0) return [];
    query = query.where('p.identifier', 'in', identifiers);
  }
  return query.orderBy('v.ordering').orderBy('p.seq').execute();
}

/**
 * The customer's subscriptions of the product that ever took effect, newest first:
 * never the records a change replaced (superseded) nor changes that never completed.
 */
export async function customerSubscriptionsOfProduct(db: Executor, environmentId: string, customerUuid: string, productId: string) {
  return db
    .selectFrom('subscriptions as s')
    .innerJoin('plans as p', 'p.id', 's.plan_id')
    .select(['s.id', 's.status', 's.charge_period', 's.end_date', 'p.identifier as plan_identifier'])
    .where('s.environment_id', '=', environmentId)
    .where('s.customer_id', '=', customerUuid)
    .where('s.product_id', '=', productId)
    .where('s.status', 'not in', ['superseded', 'incomplete', 'incomplete_expired'])
    .orderBy('s.seq', 'desc')
    .execute();
}
