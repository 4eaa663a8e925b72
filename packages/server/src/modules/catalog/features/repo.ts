import { sql, type Selectable } from 'kysely';
import type { Executor } from '../../../db/transaction.js';
import type { FeaturesTable } from '../../../db/schema.js';
import { containsPattern, isUuid, refersTo } from '../../../db/search.js';

export type FeatureRow = Selectable<FeaturesTable>;
export const FEATURE_IDENTIFIER_CONSTRAINT = 'features_identifier_key';

export async function insertFeature(
  db: Executor,
  row: Omit<FeatureRow, 'seq' | 'feature_details' | 'meter' | 'metadata' | 'archived_at'> & {
    feature_details: Record<string, unknown>;
    meter: Record<string, unknown>;
    metadata: Record<string, unknown>;
  },
): Promise<FeatureRow> {
  return db
    .insertInto('features')
    .values({
      ...row,
      feature_details: JSON.stringify(row.feature_details),
      meter: JSON.stringify(row.meter),
      metadata: JSON.stringify(row.metadata),
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** By identifier, or else by id (an identifier may look like a UUID). */
export async function findFeature(db: Executor, environmentId: string, ref: string, options: { forUpdate?: boolean } = {}): Promise<FeatureRow | undefined> {
  const query = db
    .selectFrom('features')
    .selectAll()
    .where('environment_id', '=', environmentId)
    .where(refersTo(ref))
    .orderBy(sql`identifier = ${ref}`, 'desc')
    .limit(1);
  return (options.forUpdate ? query.forUpdate() : query).executeTakeFirst();
}

/** Features named by id or identifier, in one query. */
export async function findFeatures(db: Executor, environmentId: string, refs: string[]): Promise<FeatureRow[]> {
  if (refs.length === 0) return [];
  const ids = refs.filter(isUuid);
  return db
    .selectFrom('features')
    .selectAll()
    .where('environment_id', '=', environmentId)
    .where((eb) => eb.or([eb('identifier', 'in', refs), ...(ids.length ? [eb('id', 'in', ids)] : [])]))
    .execute();
}

export async function findFeaturesById(db: Executor, ids: string[]): Promise<FeatureRow[]> {
  if (ids.length === 0) return [];
  return db.selectFrom('features').selectAll().where('id', 'in', ids).execute();
}

function listQuery(db: Executor, environmentId: string, search: string | undefined) {
  let query = db.selectFrom('features').where('environment_id', '=', environmentId).where('archived_at', 'is', null);
  if (search) {
    const pattern = containsPattern(search);
    query = query.where((eb) =>
      eb.or([eb('name', 'ilike', pattern), eb('identifier', 'ilike', pattern), eb('description', 'ilike', pattern)]),
    );
  }
  return query;
}

export async function countFeatures(db: Executor, environmentId: string, search?: string): Promise<number> {
  const row = await listQuery(db, environmentId, search)
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function listFeatures(
  db: Executor,
  environmentId: string,
  search: string | undefined,
  limit: number,
  offset: number,
): Promise<FeatureRow[]> {
  return listQuery(db, environmentId, search).selectAll().orderBy('seq', 'desc').limit(limit).offset(offset).execute();
}

export async function archiveFeature(db: Executor, id: string, at: Date): Promise<void> {
  await db.updateTable('features').set({ archived_at: at, modified_at: at }).where('id', '=', id).execute();
}

export interface FeatureChanges {
  name?: string;
  description?: string;
  metadata?: Record<string, unknown>;
  modified_at: Date;
}

export async function updateFeature(db: Executor, id: string, changes: FeatureChanges): Promise<FeatureRow> {
  const { metadata, ...rest } = changes;
  return db
    .updateTable('features')
    .set({ ...rest, ...(metadata === undefined ? {} : { metadata: JSON.stringify(metadata) }) })
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
}
