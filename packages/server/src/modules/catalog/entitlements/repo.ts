import type { Selectable } from 'kysely';
import type { Executor } from '../../../db/transaction.js';
import type { PlanEntitlementsTable } from '../../../db/schema.js';

export type EntitlementRow = Selectable<PlanEntitlementsTable>;

export async function countEntitlements(db: Executor, versionId: string): Promise<number> {
  const row = await db
    .selectFrom('plan_entitlements')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('plan_version_id', '=', versionId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function listEntitlements(db: Executor, versionIds: string[], limit?: number, offset = 0): Promise<EntitlementRow[]> {
  if (versionIds.length === 0) return [];
  let query = db.selectFrom('plan_entitlements').selectAll().where('plan_version_id', 'in', versionIds).orderBy('seq');
  if (limit !== undefined) query = query.limit(limit).offset(offset);
  return query.execute();
}

export async function insertEntitlements(
  db: Executor,
  rows: Array<{ id: string; environment_id: string; plan_version_id: string; feature_id: string; details: object }>,
): Promise<void> {
  await db
    .insertInto('plan_entitlements')
    .values(rows.map((r) => ({ ...r, details: JSON.stringify(r.details) })))
    .execute();
}

export async function findEntitlement(db: Executor, versionId: string, featureId: string) {
  return db
    .selectFrom('plan_entitlements')
    .selectAll()
    .where('plan_version_id', '=', versionId)
    .where('feature_id', '=', featureId)
    .executeTakeFirst();
}

export async function updateDetails(db: Executor, id: string, details: object): Promise<void> {
  await db.updateTable('plan_entitlements').set({ details: JSON.stringify(details) }).where('id', '=', id).execute();
}

export async function deleteEntitlement(db: Executor, id: string): Promise<void> {
  await db.deleteFrom('plan_entitlements').where('id', '=', id).execute();
}

/** The entitlements of plan versions with their features, in each version's order: one query for many versions. */
export async function entitlementFeatureRows(db: Executor, versionIds: string[]) {
  if (versionIds.length === 0) return [];
  return db
    .selectFrom('plan_entitlements as e')
    .innerJoin('features as f', 'f.id', 'e.feature_id')
    .select([
      'e.plan_version_id',
      'f.id',
      'f.identifier',
      'f.name',
      'f.description',
      'f.feature_type',
      'f.feature_details',
      'f.meter',
      'f.metadata',
      'f.archived_at',
      'f.modified_at',
      'e.details',
    ])
    .where('e.plan_version_id', 'in', versionIds)
    .orderBy('e.seq')
    .execute();
}
