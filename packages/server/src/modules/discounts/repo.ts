import { sql, type ExpressionBuilder, type Insertable, type Selectable } from 'kysely';
import type { Executor } from '../../db/transaction.js';
import type { Database, DiscountAmountsTable, DiscountRedemptionsTable, DiscountsTable, SubscriptionDiscountsTable } from '../../db/schema.js';
import { containsPattern } from '../../db/search.js';
import type { DiscountStatus } from './discounts.compute.js';

export type DiscountRow = Selectable<DiscountsTable>;
/** A discount with what its answer shows beside the row: its amounts and the identifiers of its plans. */
export type DiscountView = DiscountRow & { amounts: Array<{ currency: string; amount_minor: number }>; plan_identifiers: string[] };
export type SubscriptionDiscountRow = Selectable<SubscriptionDiscountsTable>;
export const DISCOUNT_CODE_CONSTRAINT = 'discounts_code_key';

export interface DiscountFilter {
  status?: DiscountStatus;
  search?: string;
  now: Date;
}

export async function insertDiscount(db: Executor, row: Insertable<DiscountsTable>): Promise<DiscountRow> {
  return db.insertInto('discounts').values(row).returningAll().executeTakeFirstOrThrow();
}

export async function insertAmounts(db: Executor, rows: Insertable<DiscountAmountsTable>[]): Promise<void> {
  if (rows.length > 0) await db.insertInto('discount_amounts').values(rows).execute();
}

/** Every column, the amounts (by currency) and the plans' identifiers (sorted), in one statement. */
function viewOf(db: Executor) {
  return db
    .selectFrom('discounts as d')
    .selectAll('d')
    .select([
      sql<Array<{ currency: string; amount_minor: number }>>`coalesce((
        select json_agg(json_build_object('currency', a.currency, 'amount_minor', a.amount_minor) order by a.currency)
          from discount_amounts a where a.discount_id = d.id), '[]'::json)`.as('amounts'),
      sql<string[]>`array(select p.identifier from plans p where p.id = any(d.plan_ids) order by p.identifier)`.as('plan_identifiers'),
    ]);
}

export async function findDiscountById(db: Executor, environmentId: string, id: string): Promise<DiscountView | undefined> {
  return viewOf(db).where('d.environment_id', '=', environmentId).where('d.id', '=', id).executeTakeFirst();
}

/** By code without regard to case: the discount not archived, else (with `archivedToo`) the last archived. */
export async function findDiscountByCode(
  db: Executor,
  environmentId: string,
  code: string,
  options: { archivedToo?: boolean } = {},
): Promise<DiscountView | undefined> {
  let query = viewOf(db)
    .where('d.environment_id', '=', environmentId)
    .where(sql<string>`lower(d.code)`, '=', code.toLowerCase());
  if (!options.archivedToo) query = query.where('d.archived_at', 'is', null);
  return query.orderBy(sql`d.archived_at is null`, 'desc').orderBy('d.seq', 'desc').limit(1).executeTakeFirst();
}

function filtered(filter: DiscountFilter) {
  return (eb: ExpressionBuilder<Database & { d: DiscountsTable }, 'd'>) => {
    const parts = [];
    if (filter.search) {
      const pattern = containsPattern(filter.search);
      parts.push(eb.or([eb('d.code', 'ilike', pattern), eb('d.name', 'ilike', pattern)]));
    }
    const spent = eb.or([
      // Both sides are never null, so that NOT of it is exact (a null expiry would make it unknown).
      eb.and([eb('d.expires_at', 'is not', null), eb('d.expires_at', '<=', filter.now)]),
      eb.and([eb('d.max_redemptions', 'is not', null), eb('d.times_redeemed', '>=', eb.ref('d.max_redemptions'))]),
    ]);
    if (filter.status === 'ARCHIVED') parts.push(eb('d.archived_at', 'is not', null));
    if (filter.status === 'EXPIRED') parts.push(eb.and([eb('d.archived_at', 'is', null), spent]));
    if (filter.status === 'ACTIVE') parts.push(eb.and([eb('d.archived_at', 'is', null), eb.not(spent)]));
    return eb.and(parts);
  };
}

export async function countDiscounts(db: Executor, environmentId: string, filter: DiscountFilter): Promise<number> {
  const row = await db
    .selectFrom('discounts as d')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('d.environment_id', '=', environmentId)
    .where(filtered(filter))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function listDiscounts(
  db: Executor,
  environmentId: string,
  filter: DiscountFilter,
  page: { offset: number; pageSize: number },
): Promise<DiscountView[]> {
  return viewOf(db)
    .where('d.environment_id', '=', environmentId)
    .where(filtered(filter))
    .orderBy('d.seq', 'desc')
    .offset(page.offset)
    .limit(page.pageSize)
    .execute();
}

/** Archives the discount (once: an archived one keeps its first archive time); false when there is no such discount. */
export async function archiveDiscount(db: Executor, environmentId: string, id: string, now: Date): Promise<boolean> {
  const updated = await db
    .updateTable('discounts')
    .set((eb) => ({ archived_at: eb.fn.coalesce('archived_at', sql<Date>`${now}`), modified_at: now }))
    .where('environment_id', '=', environmentId)
    .where('id', '=', id)
    .executeTakeFirst();
  return Number(updated.numUpdatedRows) > 0;
}

// Redemptions

/**
 * Counts one redemption if the discount may still be redeemed at `now`: one
 * conditional statement, so that concurrent redemptions queue on the row and each
 * sees the count the one before it left. Undefined when none is left (or the
 * discount is archived, expired or missing).
 */
export async function claimRedemption(db: Executor, id: string, now: Date): Promise<DiscountRow | undefined> {
  return db
    .updateTable('discounts')
    .set((eb) => ({ times_redeemed: eb('times_redeemed', '+', 1) }))
    .where('id', '=', id)
    .where('archived_at', 'is', null)
    .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', now)]))
    .where((eb) => eb.or([eb('max_redemptions', 'is', null), eb('times_redeemed', '<', eb.ref('max_redemptions'))]))
    .returningAll()
    .executeTakeFirst();
}

/** The discount by id alone, wherever it lives, for a caller that holds its id. */
export async function findDiscountAnywhere(db: Executor, id: string): Promise<DiscountView | undefined> {
  return viewOf(db).where('d.id', '=', id).executeTakeFirst();
}

export async function insertRedemption(db: Executor, row: Insertable<DiscountRedemptionsTable>): Promise<void> {
  await db.insertInto('discount_redemptions').values(row).execute();
}

export async function countRedemptions(db: Executor, discountId: string): Promise<number> {
  const row = await db
    .selectFrom('discount_redemptions')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('discount_id', '=', discountId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Undefined when the subscription already carries a discount. */
export async function insertSubscriptionDiscount(
  db: Executor,
  row: Insertable<SubscriptionDiscountsTable>,
): Promise<SubscriptionDiscountRow | undefined> {
  return db
    .insertInto('subscription_discounts')
    .values(row)
    .onConflict((oc) => oc.column('subscription_id').doNothing())
    .returningAll()
    .executeTakeFirst();
}

export async function findSubscriptionDiscount(db: Executor, subscriptionId: string): Promise<SubscriptionDiscountRow | undefined> {
  return db.selectFrom('subscription_discounts').selectAll().where('subscription_id', '=', subscriptionId).executeTakeFirst();
}

/** The discount a subscription carries passes to the subscription that follows it (a change of plan). */
export async function moveSubscriptionDiscount(db: Executor, fromSubscriptionId: string, toSubscriptionId: string): Promise<void> {
  await db.updateTable('subscription_discounts').set({ subscription_id: toSubscriptionId }).where('subscription_id', '=', fromSubscriptionId).execute();
}

/** Takes one renewal from the subscription's discount, if it has one with renewals left (null: every renewal). */
export async function takeRenewalCycle(db: Executor, subscriptionId: string): Promise<SubscriptionDiscountRow | undefined> {
  return db
    .updateTable('subscription_discounts')
    .set((eb) => ({
      cycles_remaining: eb('cycles_remaining', '-', 1),
      renewals_discounted: eb('renewals_discounted', '+', 1),
    }))
    .where('subscription_id', '=', subscriptionId)
    .where((eb) => eb.or([eb('cycles_remaining', 'is', null), eb('cycles_remaining', '>', 0)]))
    .returningAll()
    .executeTakeFirst();
}
