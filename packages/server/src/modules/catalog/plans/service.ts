import type { Plan, PlanCreate, PlanFile, PlanFileUpdate, PlanPublish, PlanUpdate } from '@billow/contract';
import type { EnvironmentKind } from '../../../config.js';
import type { Clock } from '../../../lib/clock.js';
import { newId } from '../../../lib/crypto.js';
import { metadataProblem } from '../../../lib/metadata.js';
import type { Db } from '../../../db/connect.js';
import { inTransaction, isUniqueViolation, type Executor, type Tx } from '../../../db/transaction.js';
import type { PageRequest } from '../../../lib/pagination.js';
import {
  alreadyArchived,
  archivedParent,
  identifierTaken,
  invalid,
  noEnabledPrice,
  nothingToDiscard,
  nothingToPublish,
  planFileNotFound,
  planNotFound,
  planProductArchived,
  versionNotFound,
} from '../errors.js';
import { freeIdentifier } from '../identifiers.js';
import type { CatalogMedia, StoredObject } from '../media-port.js';
import { hasEnabledPrice } from '../prices/repo.js';
import { findProduct } from '../products/repo.js';
import type { CatalogScope } from '../scope.js';
import { draftOf, touch, type Draft } from './drafts.js';
import type { EntitlementChanges } from '../../../edge-cache/change-feed.js';
import { keptAnswer, type AnswerKeeper } from '../../../db/answer-keeper.js';
import * as repo from './repo.js';
import { toPlan, toPlanFile } from './view.js';

function checkedMetadata(metadata: Record<string, unknown> | undefined): Record<string, unknown> | undefined {
  if (metadata === undefined) return undefined;
  const problem = metadataProblem(metadata);
  if (problem) throw invalid(problem);
  return metadata;
}

export class PlanService {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly media: CatalogMedia,
    private readonly changes: EntitlementChanges | null = null,
  ) {}

  /** A plan and one of its versions (the newest by default), ready to show. */
  async view(db: Executor, scope: CatalogScope, plan: repo.PlanRow, version: repo.VersionRow): Promise<Plan> {
    return toPlan(plan, version, await repo.filesOf(db, [version.id]), scope.apiBase);
  }

  private async planOrFail(db: Executor, scope: CatalogScope, identifier: string): Promise<repo.PlanRow> {
    const plan = await repo.findPlan(db, scope.environmentId, identifier);
    if (!plan) throw planNotFound(identifier);
    return plan;
  }

  /** The plan and the version asked for, or its newest. */
  async resolve(db: Executor, scope: CatalogScope, identifier: string, version?: number) {
    const plan = await this.planOrFail(db, scope, identifier);
    const row = version === undefined ? await repo.newestVersion(db, plan.id) : await repo.findVersion(db, plan.id, version);
    if (!row) throw version === undefined ? planNotFound(identifier) : versionNotFound(identifier, version);
    return { plan, version: row };
  }

  private stageFiles(scope: CatalogScope, keys: string[] | undefined, planId: string): Promise<StoredObject[]> {
    if (!keys || keys.length === 0) return Promise.resolve([]);
    if (new Set(keys).size !== keys.length) throw invalid('fileKeys: the same key is listed twice');
    return this.media.stage(scope, keys, `plans/${planId}`);
  }

  private async attachFiles(tx: Tx, scope: CatalogScope, versionId: string, staged: StoredObject[]): Promise<void> {
    if (staged.length === 0) return;
    await this.media.consume(tx, scope, staged);
    const existing = await repo.filesOf(tx, [versionId]);
    const next = existing.reduce((max, f) => Math.max(max, f.ordering + 1), 0);
    await repo.insertFiles(
      tx,
      staged.map((object, index) => ({
        plan_version_id: versionId,
        id: newId(),
        environment_id: scope.environmentId,
        name: object.fileName,
        storage_key: object.key,
        content_type: object.contentType,
        size: String(object.size),
        ordering: next + index,
        enabled: true,
        created_at: this.clock.now(),
      })),
    );
  }

  /** Runs `work` inside a transaction, dropping staged files again if it fails. */
  private async withStaged<T>(staged: StoredObject[], work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (error) {
      await this.media.remove(staged.map((s) => s.key));
      throw error;
    }
  }

  async create(scope: CatalogScope, input: PlanCreate, keep?: AnswerKeeper): Promise<Plan> {
    const metadata = checkedMetadata(input.metadata) ?? {};
    const product = await findProduct(this.db, scope.environmentId, input.product);
    if (!product) throw invalid(`product: no product "${input.product}" in this environment`);
    if (product.archived_at) throw archivedParent('product', input.product);
    const planId = newId();
    const staged = await this.stageFiles(scope, input.fileKeys, planId);
    return this.withStaged(staged, async () => {
      try {
        return await inTransaction(this.db, async (tx) => {
          const now = this.clock.now();
          const identifier = input.identifier ?? (await freeIdentifier(tx, 'plans', scope.environmentId, input.name));
          const plan = await repo.insertPlan(tx, {
            id: planId,
            environment_id: scope.environmentId,
            identifier,
            product_id: product.id,
            created_at: now,
          });
          const version = await repo.insertVersion(tx, {
            id: newId(),
            environment_id: scope.environmentId,
            plan_id: plan.id,
            version: 1,
            name: input.name.trim(),
            description: input.description ?? '',
            metadata,
            is_visible: input.isVisible ?? true,
            license: input.license ?? null,
            links: input.links ?? [],
            ordering: input.ordering ?? 0,
            at: now,
          });
          await this.attachFiles(tx, scope, version.id, staged);
          return keptAnswer(keep, tx, await this.view(tx, scope, plan, version));
        });
      } catch (error) {
        if (isUniqueViolation(error, repo.PLAN_IDENTIFIER_CONSTRAINT)) {
          throw identifierTaken('plan', input.identifier ?? input.name);
        }
        throw error;
      }
    });
  }

  async get(scope: CatalogScope, identifier: string, version?: number): Promise<Plan> {
    const found = await this.resolve(this.db, scope, identifier, version);
    return this.view(this.db, scope, found.plan, found.version);
  }

  async list(scope: CatalogScope, page: PageRequest) {
    const count = await repo.countLivePlans(this.db, scope.environmentId);
    if (page.offset >= count) return { count, results: [] };
    const rows = await repo.listLivePlans(this.db, scope.environmentId, page.pageSize, page.offset);
    const files = await repo.filesOf(
      this.db,
      rows.map((r) => r.version.id),
    );
    return { count, results: rows.map((r) => toPlan(r.plan, r.version, files, scope.apiBase)) };
  }

  async versions(scope: CatalogScope, identifier: string, page: PageRequest) {
    const plan = await this.planOrFail(this.db, scope, identifier);
    const count = await repo.countVersions(this.db, plan.id);
    const rows = page.offset >= count ? [] : await repo.listVersions(this.db, plan.id, page.pageSize, page.offset);
    const files = await repo.filesOf(
      this.db,
      rows.map((r) => r.id),
    );
    return { count, results: rows.map((v) => toPlan(plan, v, files, scope.apiBase)) };
  }

  /** Applies `change` to the plan's draft (made first if the plan is published) in one transaction; `version`, if given, must be the newest. */
  async onDraft<T>(scope: CatalogScope, identifier: string, change: (tx: Tx, draft: Draft) => Promise<T>, version?: number, keep?: AnswerKeeper): Promise<T> {
    return inTransaction(this.db, async (tx) => keptAnswer(keep, tx, await change(tx, await draftOf(tx, this.clock, scope.environmentId, identifier, version))));
  }

  async update(scope: CatalogScope, identifier: string, input: PlanUpdate, version?: number): Promise<Plan> {
    const metadata = checkedMetadata(input.metadata);
    const plan = await this.planOrFail(this.db, scope, identifier);
    const staged = await this.stageFiles(scope, input.fileKeys, plan.id);
    return this.withStaged(staged, () =>
      this.onDraft(scope, identifier, async (tx, draft) => {
        const changed = await repo.updateVersion(tx, draft.version.id, {
          ...(input.name !== undefined ? { name: input.name.trim() } : {}),
          ...(input.description !== undefined ? { description: input.description ?? '' } : {}),
          ...(metadata !== undefined ? { metadata } : {}),
          ...(input.isVisible !== undefined ? { is_visible: input.isVisible } : {}),
          ...(input.license !== undefined ? { license: input.license } : {}),
          ...(input.links !== undefined ? { links: input.links } : {}),
          ...(input.ordering !== undefined ? { ordering: input.ordering } : {}),
          modified_at: this.clock.now(),
        });
        await this.attachFiles(tx, scope, changed.id, staged);
        return this.view(tx, scope, draft.plan, changed);
      }, version),
    );
  }

  async archive(scope: CatalogScope, identifier: string): Promise<void> {
    await inTransaction(this.db, async (tx) => {
      const plan = await repo.findPlan(tx, scope.environmentId, identifier, { forUpdate: true });
      if (!plan) throw planNotFound(identifier);
      if (plan.archived_at) throw alreadyArchived('plan', identifier);
      await repo.setPlan(tx, plan.id, { archived_at: this.clock.now() });
    });
  }

  async publish(scope: CatalogScope, identifier: string, options: PlanPublish, keep?: AnswerKeeper) {
    const published = await inTransaction(this.db, async (tx) => {
      const plan = await repo.findPlan(tx, scope.environmentId, identifier, { forUpdate: true });
      if (!plan) throw planNotFound(identifier);
      if (plan.archived_at) throw archivedParent('plan', identifier);
      const product = await findProduct(tx, scope.environmentId, plan.product_id);
      if (!product || product.archived_at) throw planProductArchived();
      const draft = await repo.newestVersion(tx, plan.id);
      if (!draft || draft.published_at !== null) {
        throw nothingToPublish(identifier, draft?.version);
      }
      if (!(await hasEnabledPrice(tx, draft.id))) {
        throw noEnabledPrice(identifier, draft.version);
      }
      await repo.publishVersion(tx, draft.id, this.clock.now(), {
        updateFeatures: options.updateFeatures ?? false,
        updatePricing: options.updatePricing ?? false,
      });
      await repo.setPlan(tx, plan.id, { published_version: draft.version });
      // Subscribers move to the new entitlements only with updateFeatures.
      if (options.updateFeatures) await this.changes?.announceEnvironment(tx, scope.environmentId);
      return keptAnswer(keep, tx, { status: 'published' as const, identifier, version: draft.version });
    });
    if (options.updateFeatures) this.changes?.forgetEnvironment(scope.environmentId);
    return published;
  }

  /** Deletes the newest version when it is a draft; a plan that never was published goes with it. */
  async discard(scope: CatalogScope, identifier: string): Promise<void> {
    const removable = await inTransaction(this.db, async (tx) => {
      const plan = await repo.findPlan(tx, scope.environmentId, identifier, { forUpdate: true });
      if (!plan) throw planNotFound(identifier);
      const newest = await repo.newestVersion(tx, plan.id);
      if (!newest || newest.published_at !== null) {
        throw nothingToDiscard(identifier);
      }
      const files = await repo.filesOf(tx, [newest.id]);
      await repo.deleteVersion(tx, newest.id);
      if (plan.published_version === null && newest.version === 1) await repo.deletePlan(tx, plan.id);
      const orphaned: string[] = [];
      for (const file of files) if (!(await repo.storageKeyInUse(tx, file.storage_key))) orphaned.push(file.storage_key);
      return orphaned;
    });
    await this.media.remove(removable);
  }

  async updateFile(scope: CatalogScope, identifier: string, fileId: string, input: PlanFileUpdate): Promise<PlanFile> {
    return this.onDraft(scope, identifier, async (tx, draft) => {
      const row = await repo.updateFile(tx, draft.version.id, fileId, {
        ...(input.name !== undefined ? { name: input.name } : {}),
        ...(input.ordering !== undefined ? { ordering: input.ordering } : {}),
        ...(input.enabled !== undefined ? { enabled: input.enabled } : {}),
      });
      if (!row) throw planFileNotFound(identifier, fileId);
      await touch(tx, this.clock, draft);
      return toPlanFile(row, identifier, scope.apiBase);
    });
  }

  /** Removes the file from the draft; the stored bytes go only when no version holds them any more. */
  async deleteFile(scope: CatalogScope, identifier: string, fileId: string): Promise<void> {
    const orphan = await this.onDraft(scope, identifier, async (tx, draft) => {
      const row = await repo.deleteFile(tx, draft.version.id, fileId);
      if (!row) throw planFileNotFound(identifier, fileId);
      await touch(tx, this.clock, draft);
      return (await repo.storageKeyInUse(tx, row.storage_key)) ? null : row.storage_key;
    });
    if (orphan) await this.media.remove([orphan]);
  }

  /** The short-lived link a public download redirects to. */
  async downloadLocation(
    environment: EnvironmentKind,
    baseUrl: string,
    identifier: string,
    fileId: string,
  ): Promise<string> {
    const file = await repo.findDownloadableFile(this.db, environment, identifier, fileId);
    if (!file || !file.enabled) throw planFileNotFound(identifier, fileId);
    return this.media.downloadUrl(baseUrl, file.storage_key, file.name);
  }
}
