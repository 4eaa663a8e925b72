import type { Executor } from '../db/transaction.js';

/** The features a plan version grants, in the shape subscriptions and charges answer with. */
export async function grantedFeatures(db: Executor, versionId: string, quantities: Record<string, number>) {
  const rows = await db
    .selectFrom('plan_entitlements as e')
    .innerJoin('features as f', 'f.id', 'e.feature_id')
    .select([
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
    .where('e.plan_version_id', '=', versionId)
    .orderBy('e.seq')
    .execute();
  return rows.map((row) => {
    const details = row.details as Record<string, unknown>;
    return {
      id: row.id,
      identifier: row.identifier,
      name: row.name,
      description: row.description,
      featureType: row.feature_type,
      details,
      isArchived: row.archived_at !== null,
      metadata: row.metadata,
      modifiedOn: row.modified_at.toISOString(),
      meter: row.meter,
      featureDetails: row.feature_details,
      reset: (details.reset as string | null) ?? null,
      resetTime: (details.resetTime as string | null) ?? null,
      value: (details.value as number | boolean | null) ?? null,
      hardLimit: Boolean(details.hardLimit),
      quantity: quantities[row.id] ?? null,
    };
  });
}
