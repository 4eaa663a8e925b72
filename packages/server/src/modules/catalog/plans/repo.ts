import { sql, type Selectable } from 'kysely';
import type { Executor } from '../../../db/transaction.js';
import type { PlanFilesTable, PlanVersionsTable, PlansTable } from '../../../db/schema.js';

export type PlanRow = Selectable<PlansTable>;
export type VersionRow = Selectable<PlanVersionsTable>;
export type FileRow = Selectable<PlanFilesTable>;
export const PLAN_IDENTIFIER_CONSTRAINT = 'plans_identifier_key';

export async function insertPlan(db: Executor, row: Omit<PlanRow, 'seq' | 'archived_at' | 'published_version'>) {
  return db.insertInto('plans').values(row).returningAll().executeTakeFirstOrThrow();
}

export async function findPlan(
  db: Executor,
  environmentId: string,
  identifier: string,
  options: { forUpdate?: boolean } = {},
): Promise<PlanRow | undefined> {
  let query = db
    .selectFrom('plans')
    .selectAll()
    .where('environment_id', '=', environmentId)
    .where('identifier', '=', identifier);
  if (options.forUpdate) query = query.forUpdate();
  return query.executeTakeFirst();
}

export async function setPlan(
  db: Executor,
  id: string,
  changes: Partial<Pick<PlanRow, 'published_version' | 'archived_at'>>,
): Promise<void> {
  await db.updateTable('plans').set(changes).where('id', '=', id).execute();
}

export async function deletePlan(db: Executor, id: string): Promise<void> {
  await db.deleteFrom('plans').where('id', '=', id).execute();
}

export interface VersionValues {
  name: string;
  description: string;
  metadata: Record<string, unknown>;
  is_visible: boolean;
  license: Record<string, unknown> | null;
  links: Array<{ name: string; url: string }>;
  ordering: number;
}

export async function insertVersion(
  db: Executor,
  row: VersionValues & { id: string; environment_id: string; plan_id: string; version: number; at: Date },
): Promise<VersionRow> {
  return db
    .insertInto('plan_versions')
    .values({
      id: row.id,
      environment_id: row.environment_id,
      plan_id: row.plan_id,
      version: row.version,
      name: row.name,
      description: row.description,
      metadata: JSON.stringify(row.metadata),
      is_visible: row.is_visible,
      license: row.license === null ? null : JSON.stringify(row.license),
      links: JSON.stringify(row.links),
      ordering: row.ordering,
      created_at: row.at,
      modified_at: row.at,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function updateVersion(
  db: Executor,
  id: string,
  changes: Partial<VersionValues> & { modified_at: Date },
): Promise<VersionRow> {
  return db
    .updateTable('plan_versions')
    .set({
      ...(changes.name !== undefined ? { name: changes.name } : {}),
      ...(changes.description !== undefined ? { description: changes.description } : {}),
      ...(changes.metadata !== undefined ? { metadata: JSON.stringify(changes.metadata) } : {}),
      ...(changes.is_visible !== undefined ? { is_visible: changes.is_visible } : {}),
      ...(changes.license !== undefined
        ? { license: changes.license === null ? null : JSON.stringify(changes.license) }
        : {}),
      ...(changes.links !== undefined ? { links: JSON.stringify(changes.links) } : {}),
      ...(changes.ordering !== undefined ? { ordering: changes.ordering } : {}),
      modified_at: changes.modified_at,
    })
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function publishVersion(
  db: Executor,
  id: string,
  at: Date,
  options: Record<string, unknown>,
): Promise<void> {
  await db
    .updateTable('plan_versions')
    .set({ published_at: at, modified_at: at, publish_options: JSON.stringify(options) })
    .where('id', '=', id)
    .execute();
}

export async function deleteVersion(db: Executor, id: string): Promise<void> {
  await db.deleteFrom('plan_versions').where('id', '=', id).execute();
}

export async function newestVersion(db: Executor, planId: string): Promise<VersionRow | undefined> {
  return db
    .selectFrom('plan_versions')
    .selectAll()
    .where('plan_id', '=', planId)
    .orderBy('version', 'desc')
    .limit(1)
    .executeTakeFirst();
}

export async function findVersion(db: Executor, planId: string, version: number): Promise<VersionRow | undefined> {
  return db
    .selectFrom('plan_versions')
    .selectAll()
    .where('plan_id', '=', planId)
    .where('version', '=', version)
    .executeTakeFirst();
}

export async function countVersions(db: Executor, planId: string): Promise<number> {
  const row = await db
    .selectFrom('plan_versions')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('plan_id', '=', planId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function listVersions(db: Executor, planId: string, limit: number, offset: number): Promise<VersionRow[]> {
  return db
    .selectFrom('plan_versions')
    .selectAll()
    .where('plan_id', '=', planId)
    .orderBy('version', 'desc')
    .limit(limit)
    .offset(offset)
    .execute();
}

/** Plans on sale or in the making: not archived, and of a product that is not archived. */
function livePlans(db: Executor, environmentId: string) {
  return db
    .selectFrom('plans as p')
    .innerJoin('products as pr', 'pr.id', 'p.product_id')
    .where('p.environment_id', '=', environmentId)
    .where('p.archived_at', 'is', null)
    .where('pr.archived_at', 'is', null);
}

export async function countLivePlans(db: Executor, environmentId: string): Promise<number> {
  const row = await livePlans(db, environmentId)
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** One row per plan: the plan and its newest version. */
export async function listLivePlans(db: Executor, environmentId: string, limit: number, offset: number) {
  const plans = await livePlans(db, environmentId)
    .selectAll('p')
    .orderBy('p.seq', 'desc')
    .limit(limit)
    .offset(offset)
    .execute();
  if (plans.length === 0) return [];
  const versions = await db
    .selectFrom('plan_versions as v')
    .selectAll('v')
    .where(
      'v.id',
      'in',
      db
        .selectFrom('plan_versions as n')
        .select('n.id')
        .distinctOn('n.plan_id')
        .where(
          'n.plan_id',
          'in',
          plans.map((p) => p.id),
        )
        .orderBy('n.plan_id')
        .orderBy('n.version', 'desc'),
    )
    .execute();
  return plans.map((plan) => ({ plan, version: versions.find((v) => v.plan_id === plan.id)! }));
}

export async function filesOf(db: Executor, versionIds: string[]): Promise<FileRow[]> {
  if (versionIds.length === 0) return [];
  return db
    .selectFrom('plan_files')
    .selectAll()
    .where('plan_version_id', 'in', versionIds)
    .orderBy('ordering')
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

export async function insertFiles(db: Executor, rows: FileRow[]): Promise<void> {
  if (rows.length === 0) return;
  await db
    .insertInto('plan_files')
    .values(rows.map((r) => ({ ...r, size: Number(r.size) })))
    .execute();
}

export async function updateFile(
  db: Executor,
  versionId: string,
  fileId: string,
  changes: Partial<Pick<FileRow, 'name' | 'ordering' | 'enabled'>>,
): Promise<FileRow | undefined> {
  return db
    .updateTable('plan_files')
    .set(changes)
    .where('plan_version_id', '=', versionId)
    .where('id', '=', fileId)
    .returningAll()
    .executeTakeFirst();
}

export async function deleteFile(db: Executor, versionId: string, fileId: string): Promise<FileRow | undefined> {
  return db
    .deleteFrom('plan_files')
    .where('plan_version_id', '=', versionId)
    .where('id', '=', fileId)
    .returningAll()
    .executeTakeFirst();
}

export async function storageKeyInUse(db: Executor, storageKey: string): Promise<boolean> {
  const row = await db.selectFrom('plan_files').select('id').where('storage_key', '=', storageKey).limit(1).executeTakeFirst();
  return row !== undefined;
}

/** The file as the newest version holding it knows it, for a public download. */
export async function findDownloadableFile(
  db: Executor,
  environmentKind: 'sandbox' | 'production',
  planIdentifier: string,
  fileId: string,
) {
  return db
    .selectFrom('plan_files as f')
    .innerJoin('plan_versions as v', 'v.id', 'f.plan_version_id')
    .innerJoin('plans as p', 'p.id', 'v.plan_id')
    .innerJoin('environments as e', 'e.id', 'p.environment_id')
    .select(['f.name', 'f.storage_key', 'f.enabled'])
    .where('f.id', '=', fileId)
    .where('p.identifier', '=', planIdentifier)
    .where('e.kind', '=', environmentKind)
    .orderBy(sql`v.published_at is null`)
    .orderBy('v.version', 'desc')
    .limit(1)
    .executeTakeFirst();
}

/** Copies a version's prices, entitlements and files onto another version. */
export async function copyParts(db: Executor, from: string, to: string): Promise<void> {
  await sql`
    INSERT INTO plan_prices (id, environment_id, plan_version_id, position, price_type, currency, free_trial,
                             trial_period, enabled, tax_behavior, charge_catalog_price)
    SELECT gen_random_uuid(), environment_id, ${to}, position, price_type, currency, free_trial,
           trial_period, enabled, tax_behavior, charge_catalog_price
    FROM plan_prices WHERE plan_version_id = ${from} ORDER BY position`.execute(db);
  await sql`
    INSERT INTO plan_entitlements (id, environment_id, plan_version_id, feature_id, details)
    SELECT gen_random_uuid(), environment_id, ${to}, feature_id, details
    FROM plan_entitlements WHERE plan_version_id = ${from} ORDER BY seq`.execute(db);
  await sql`
    INSERT INTO plan_files (plan_version_id, id, environment_id, name, storage_key, content_type, size, ordering,
                            enabled, created_at)
    SELECT ${to}, id, environment_id, name, storage_key, content_type, size, ordering, enabled, created_at
    FROM plan_files WHERE plan_version_id = ${from}`.execute(db);
}

/** A plan by id (a subscription's), archived or not. */
export async function findPlanById(db: Executor, id: string): Promise<PlanRow | undefined> {
  return db.selectFrom('plans').selectAll().where('id', '=', id).executeTakeFirst();
}

/** A version by id: what a subscription was sold, which never changes once published. */
export async function findVersionById(db: Executor, id: string): Promise<VersionRow | undefined> {
  return db.selectFrom('plan_versions').selectAll().where('id', '=', id).executeTakeFirst();
}

/** The identifiers of a product's published, unarchived plans, oldest first. */
export async function publishedPlansOfProduct(db: Executor, productId: string): Promise<string[]> {
  const rows = await db
    .selectFrom('plans')
    .select('identifier')
    .where('product_id', '=', productId)
    .where('archived_at', 'is', null)
    .where('published_version', 'is not', null)
    .orderBy('created_at')
    .orderBy('seq')
    .execute();
  return rows.map((r) => r.identifier);
}

/** The plan and the product each price belongs to, by their identifiers (analytics' books of plans and products). */
export async function ownersOfPrices(db: Executor, environmentId: string, priceIds: readonly string[]): Promise<Map<string, { plan: string; product: string }>> {
  if (priceIds.length === 0) return new Map();
  const rows = await db
    .selectFrom('plan_prices as pp')
    .innerJoin('plan_versions as v', 'v.id', 'pp.plan_version_id')
    .innerJoin('plans as p', 'p.id', 'v.plan_id')
    .innerJoin('products as pr', 'pr.id', 'p.product_id')
    .select(['pp.id', 'p.identifier as plan', 'pr.identifier as product'])
    .where('pp.environment_id', '=', environmentId)
    .where('pp.id', 'in', [...new Set(priceIds)])
    .execute();
  return new Map(rows.map((row) => [row.id, { plan: row.plan, product: row.product }]));
}
