import type { Tx } from '../../../db/transaction.js';
import type { Clock } from '../../../lib/clock.js';
import { newId } from '../../../lib/crypto.js';
import { archivedParent, planNotFound, versionNotFound, versionNotNewest } from '../errors.js';
import * as repo from './repo.js';

export interface Draft {
  plan: repo.PlanRow;
  version: repo.VersionRow;
  /** True when this write made the draft from the published version. */
  created: boolean;
}

/**
 * The rule of plan versions: a write goes to the plan's draft. When the newest
 * version is published, the draft is first made as a copy of it; later writes
 * edit that draft. The plan row is locked, so concurrent writes to a published
 * plan make one draft between them, never two. A write that names a `version`
 * must name the newest: an older version never changes.
 */
export async function draftOf(tx: Tx, clock: Clock, environmentId: string, identifier: string, wanted?: number): Promise<Draft> {
  const plan = await repo.findPlan(tx, environmentId, identifier, { forUpdate: true });
  if (!plan) throw planNotFound(identifier);
  if (plan.archived_at) throw archivedParent('plan', identifier);
  const newest = await repo.newestVersion(tx, plan.id);
  if (!newest) throw planNotFound(identifier);
  if (wanted !== undefined && wanted !== newest.version) {
    throw (await repo.findVersion(tx, plan.id, wanted)) ? versionNotNewest(identifier, wanted, newest.version) : versionNotFound(identifier, wanted);
  }
  if (newest.published_at === null) return { plan, version: newest, created: false };
  const version = await repo.insertVersion(tx, {
    id: newId(),
    environment_id: plan.environment_id,
    plan_id: plan.id,
    version: newest.version + 1,
    name: newest.name,
    description: newest.description,
    metadata: newest.metadata,
    is_visible: newest.is_visible,
    license: newest.license,
    links: newest.links,
    ordering: newest.ordering,
    at: clock.now(),
  });
  await repo.copyParts(tx, newest.id, version.id);
  return { plan, version, created: true };
}

/** Marks the draft as changed now. */
export async function touch(tx: Tx, clock: Clock, draft: Draft): Promise<repo.VersionRow> {
  return repo.updateVersion(tx, draft.version.id, { modified_at: clock.now() });
}
