import type { Executor } from '../../db/transaction.js';
import { entitlementFeatureRows } from '../catalog/queries.js';

export { entitlementFeatureRows };

/** A plan version's entitlement with its feature: what `grantedFeature` shapes. */
export type EntitlementFeatureRow = Awaited<ReturnType<typeof entitlementFeatureRows>>[number];

/** A granted feature in the shape subscriptions and charges answer with. */
export function grantedFeature(row: EntitlementFeatureRow, quantities: Record<string, number>) {
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
}

/** The features a plan version grants, in the shape subscriptions and charges answer with. */
export async function grantedFeatures(db: Executor, versionId: string, quantities: Record<string, number>) {
  return (await entitlementFeatureRows(db, [versionId])).map((row) => grantedFeature(row, quantities));
}
