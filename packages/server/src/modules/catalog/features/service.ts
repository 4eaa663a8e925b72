import type { Feature, FeatureCreate, FeatureUpdate } from '@billow/contract';
import type { Clock } from '../../../lib/clock.js';
import { newId } from '../../../lib/crypto.js';
import { metadataProblem } from '../../../lib/metadata.js';
import type { Db } from '../../../db/connect.js';
import { inTransaction, isUniqueViolation } from '../../../db/transaction.js';
import type { PageRequest } from '../../../lib/pagination.js';
import { alreadyArchived, archivedParent, featureNotFound, identifierTaken, invalid } from '../errors.js';
import { freeIdentifier } from '../identifiers.js';
import { keptAnswer, type AnswerKeeper } from '../../../db/answer-keeper.js';
import * as repo from './repo.js';

export interface EnvironmentScope {
  environmentId: string;
}

export function toFeature(row: repo.FeatureRow): Feature {
  return {
    id: row.id,
    identifier: row.identifier,
    name: row.name,
    description: row.description,
    featureType: row.feature_type,
    featureDetails: row.feature_details,
    meter: row.meter,
    details: {},
    metadata: row.metadata,
    isArchived: row.archived_at !== null,
    createdOn: row.created_at.toISOString(),
    modifiedOn: row.modified_at.toISOString(),
  };
}

/** The type-specific rules a schema can't express. */
function checkShape(input: FeatureCreate): void {
  const details = input.featureDetails ?? {};
  const meter = input.meter ?? {};
  if (input.featureType === 'METER') {
    if (!details.featureSubType) {
      throw invalid('featureDetails.featureSubType is required for a METER feature: PRE_AGGREGATED_USAGE or RAW_EVENTS');
    }
    if (!details.units?.singular || !details.units.plural) {
      throw invalid('featureDetails.units.singular and featureDetails.units.plural are required for a METER feature');
    }
    if (details.featureSubType === 'RAW_EVENTS') {
      const aggregation = meter.aggregation;
      if (!aggregation) throw invalid('meter.aggregation is required for a RAW_EVENTS meter');
      if (aggregation.function !== 'COUNT' && !aggregation.field) {
        throw invalid(`meter.aggregation.field is required for the ${aggregation.function} aggregation`);
      }
    } else if (Object.keys(meter).length > 0) {
      throw invalid('meter applies only to RAW_EVENTS meters');
    }
    return;
  }
  if (details.featureSubType) throw invalid(`featureDetails.featureSubType applies only to METER features`);
  if (Object.keys(meter).length > 0) throw invalid('meter applies only to METER features');
}

export class FeatureService {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
  ) {}

  async create(scope: EnvironmentScope, input: FeatureCreate, keep?: AnswerKeeper): Promise<Feature> {
    checkShape(input);
    const metadata = input.metadata ?? {};
    const problem = metadataProblem(metadata);
    if (problem) throw invalid(problem);
    try {
      return await inTransaction(this.db, async (tx) => {
        const identifier = input.identifier ?? (await freeIdentifier(tx, 'features', scope.environmentId, input.name));
        const now = this.clock.now();
        const row = await repo.insertFeature(tx, {
          id: newId(),
          environment_id: scope.environmentId,
          identifier,
          name: input.name.trim(),
          description: input.description ?? '',
          feature_type: input.featureType,
          feature_details: input.featureDetails ?? {},
          meter: input.meter ?? {},
          metadata,
          created_at: now,
          modified_at: now,
        });
        return keptAnswer(keep, tx, toFeature(row));
      });
    } catch (error) {
      if (isUniqueViolation(error, repo.FEATURE_IDENTIFIER_CONSTRAINT)) {
        throw identifierTaken('feature', input.identifier ?? input.name);
      }
      throw error;
    }
  }

  async get(scope: EnvironmentScope, ref: string): Promise<Feature> {
    const row = await repo.findFeature(this.db, scope.environmentId, ref);
    if (!row) throw featureNotFound(ref);
    return toFeature(row);
  }

  async list(scope: EnvironmentScope, search: string | undefined, page: PageRequest) {
    const term = search?.trim() || undefined;
    const count = await repo.countFeatures(this.db, scope.environmentId, term);
    const rows =
      page.offset >= count ? [] : await repo.listFeatures(this.db, scope.environmentId, term, page.pageSize, page.offset);
    return { count, results: rows.map(toFeature) };
  }

  /** What a feature shows; entitlement answers name features by identifier, so no cached answer changes. */
  async update(scope: EnvironmentScope, ref: string, input: FeatureUpdate): Promise<Feature> {
    const problem = input.metadata === undefined ? null : metadataProblem(input.metadata);
    if (problem) throw invalid(problem);
    return inTransaction(this.db, async (tx) => {
      const found = await repo.findFeature(tx, scope.environmentId, ref, { forUpdate: true });
      if (!found) throw featureNotFound(ref);
      if (found.archived_at) throw archivedParent('feature', ref);
      const name = input.name?.trim();
      const updated = await repo.updateFeature(tx, found.id, {
        ...(name === undefined ? {} : { name }),
        ...(input.description === undefined ? {} : { description: input.description ?? '' }),
        ...(input.metadata === undefined ? {} : { metadata: input.metadata }),
        modified_at: this.clock.now(),
      });
      return toFeature(updated);
    });
  }

  async archive(scope: EnvironmentScope, ref: string): Promise<void> {
    await inTransaction(this.db, async (tx) => {
      const row = await repo.findFeature(tx, scope.environmentId, ref);
      if (!row) throw featureNotFound(ref);
      if (row.archived_at) throw alreadyArchived('feature', ref);
      await repo.archiveFeature(tx, row.id, this.clock.now());
    });
  }
}
