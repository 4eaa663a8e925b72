import type {
  EntitlementDetails,
  EntitlementDetailsInput,
  Plan,
  PlanEntitlement,
  PlanEntitlementsCreate,
} from '@billow/contract';
import type { Clock } from '../../../lib/clock.js';
import { newId } from '../../../lib/crypto.js';
import type { Db } from '../../../db/connect.js';
import type { PageRequest } from '../../../lib/pagination.js';
import type { AnswerKeeper } from '../../../db/answer-keeper.js';
import { entitlementNotFound, featureNotFound, invalid } from '../errors.js';
import { findFeature, findFeatures, findFeaturesById } from '../features/repo.js';
import { toFeature } from '../features/service.js';
import { touch } from '../plans/drafts.js';
import type { PlanService } from '../plans/service.js';
import type { CatalogScope } from '../scope.js';
import { DetailsError, resolveDetails } from './entitlements.compute.js';
import * as repo from './repo.js';

function detailsOrFail(...args: Parameters<typeof resolveDetails>): EntitlementDetails {
  try {
    return resolveDetails(...args);
  } catch (error) {
    if (error instanceof DetailsError) throw invalid(error.message);
    throw error;
  }
}

export class PlanEntitlementService {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly plans: PlanService,
  ) {}

  async list(scope: CatalogScope, identifier: string, version: number | undefined, page: PageRequest) {
    const found = await this.plans.resolve(this.db, scope, identifier, version);
    const count = await repo.countEntitlements(this.db, found.version.id);
    const rows =
      page.offset >= count ? [] : await repo.listEntitlements(this.db, [found.version.id], page.pageSize, page.offset);
    const features = await findFeaturesById(
      this.db,
      rows.map((r) => r.feature_id),
    );
    const results: PlanEntitlement[] = rows.map((row) => ({
      feature: toFeature(features.find((f) => f.id === row.feature_id)!),
      details: row.details as EntitlementDetails,
    }));
    return { count, results };
  }

  /** Adds entitlements to the plan's draft; a feature the draft already grants is refused. */
  async add(scope: CatalogScope, identifier: string, input: PlanEntitlementsCreate, keep?: AnswerKeeper): Promise<Plan> {
    const refs = input.planEntitlements.map((e) => e.feature);
    const features = await findFeatures(this.db, scope.environmentId, refs);
    const additions = input.planEntitlements.map((entry, i) => {
      const feature = features.find((f) => f.id === entry.feature || f.identifier === entry.feature);
      if (!feature) throw invalid(`planEntitlements[${i}].feature: no feature "${entry.feature}" in this environment`);
      if (feature.archived_at) throw invalid(`planEntitlements[${i}].feature: the feature "${feature.identifier}" is archived`);
      const details = detailsOrFail(feature.feature_type, entry.details ?? {}, null, `planEntitlements[${i}].details`);
      return { feature, details, index: i };
    });
    const ids = additions.map((a) => a.feature.id);
    const twice = additions.find((a, i) => ids.indexOf(a.feature.id) !== i);
    if (twice) throw invalid(`planEntitlements[${twice.index}].feature: "${twice.feature.identifier}" is listed twice`);
    return this.plans.onDraft(scope, identifier, async (tx, draft) => {
      for (const addition of additions) {
        if (await repo.findEntitlement(tx, draft.version.id, addition.feature.id)) {
          throw invalid(
            `planEntitlements[${addition.index}].feature: plan "${identifier}" already grants "${addition.feature.identifier}"; change it with PATCH`,
          );
        }
      }
      await repo.insertEntitlements(
        tx,
        additions.map((a) => ({
          id: newId(),
          environment_id: scope.environmentId,
          plan_version_id: draft.version.id,
          feature_id: a.feature.id,
          details: a.details,
        })),
      );
      const version = await touch(tx, this.clock, draft);
      return this.plans.view(tx, scope, draft.plan, version);
    }, undefined, keep);
  }

  private async featureOrFail(scope: CatalogScope, featureIdentifier: string) {
    const feature = await findFeature(this.db, scope.environmentId, featureIdentifier);
    if (!feature) throw featureNotFound(featureIdentifier);
    return feature;
  }

  /** Changes the details given and keeps the rest. */
  async patch(
    scope: CatalogScope,
    identifier: string,
    featureIdentifier: string,
    input: EntitlementDetailsInput,
  ): Promise<{ details: EntitlementDetails }> {
    const feature = await this.featureOrFail(scope, featureIdentifier);
    return this.plans.onDraft(scope, identifier, async (tx, draft) => {
      const row = await repo.findEntitlement(tx, draft.version.id, feature.id);
      if (!row) throw entitlementNotFound(identifier, featureIdentifier);
      const details = detailsOrFail(feature.feature_type, input, row.details as EntitlementDetails);
      await repo.updateDetails(tx, row.id, details);
      await touch(tx, this.clock, draft);
      return { details };
    });
  }

  async remove(scope: CatalogScope, identifier: string, featureIdentifier: string): Promise<void> {
    const feature = await this.featureOrFail(scope, featureIdentifier);
    await this.plans.onDraft(scope, identifier, async (tx, draft) => {
      const row = await repo.findEntitlement(tx, draft.version.id, feature.id);
      if (!row) throw entitlementNotFound(identifier, featureIdentifier);
      await repo.deleteEntitlement(tx, row.id);
      await touch(tx, this.clock, draft);
    });
  }
}
