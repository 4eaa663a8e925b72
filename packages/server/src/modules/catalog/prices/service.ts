import type { PlanPrice, PlanPriceInput } from '@billow/contract';
import { newId } from '../../../lib/crypto.js';
import type { Db } from '../../../db/connect.js';
import type { PageRequest } from '../../../lib/pagination.js';
import type { AnswerKeeper } from '../../../db/answer-keeper.js';
import { invalid, priceCurrencyMissing } from '../errors.js';
import { findFeatures } from '../features/repo.js';
import type { PlanService } from '../plans/service.js';
import { settingsCurrency } from '../products/repo.js';
import { touch } from '../plans/drafts.js';
import type { CatalogScope } from '../scope.js';
import { featureRefsOf, normalizePrices, presentPrice, PriceError, type FeatureRef, type StoredPrice } from './prices.compute.js';
import * as repo from './repo.js';

export const FALLBACK_CURRENCY = 'USD';

export class PriceService {
  constructor(
    private readonly db: Db,
    private readonly plans: PlanService,
    private readonly clock: { now(): Date },
  ) {}

  private async featureIndex(scope: CatalogScope, inputs: PlanPriceInput[]): Promise<Map<string, FeatureRef>> {
    const rows = await findFeatures(this.db, scope.environmentId, featureRefsOf(inputs));
    const index = new Map<string, FeatureRef>();
    for (const row of rows) {
      const ref = { id: row.id, identifier: row.identifier, featureType: row.feature_type, archived: row.archived_at !== null };
      index.set(row.id, ref);
      index.set(row.identifier, ref);
    }
    return index;
  }

  private async defaultCurrency(productId: string): Promise<string> {
    return (await settingsCurrency(this.db, productId)) ?? FALLBACK_CURRENCY;
  }

  /** Replaces every price of the plan's draft at once: one invalid price and nothing changes. */
  async replace(scope: CatalogScope, identifier: string, inputs: PlanPriceInput[], keep?: AnswerKeeper): Promise<{ prices: PlanPrice[] }> {
    const { plan } = await this.plans.resolve(this.db, scope, identifier);
    const features = await this.featureIndex(scope, inputs);
    let normalized;
    try {
      normalized = normalizePrices(inputs, features, await this.defaultCurrency(plan.product_id));
    } catch (error) {
      if (error instanceof PriceError) throw invalid(error.message);
      throw error;
    }
    return this.plans.onDraft(scope, identifier, async (tx, draft) => {
      const rows = await repo.replacePrices(
        tx,
        scope.environmentId,
        draft.version.id,
        normalized.map((price) => ({ ...price, id: newId() })),
      );
      await touch(tx, this.clock, draft);
      return { prices: rows.map((row) => presentPrice(repo.toStored(row), row.id, draft.version.version)) };
    }, undefined, keep);
  }

  /**
   * Sets (`input`) or removes (null) the price of one currency of the plan's draft, keeping the
   * others as they are (decision 0086): the draft's prices are read and written in the draft's
   * transaction, so a price of another currency set meanwhile is kept too.
   */
  async setCurrency(scope: CatalogScope, identifier: string, currency: string, input: Omit<PlanPriceInput, 'currency'> | null, keep?: AnswerKeeper): Promise<{ prices: PlanPrice[] }> {
    const { plan } = await this.plans.resolve(this.db, scope, identifier);
    const code = currency.trim().toUpperCase();
    let normalized: StoredPrice[] = [];
    try {
      if (input) normalized = normalizePrices([{ ...input, currency: code }], await this.featureIndex(scope, [input]), await this.defaultCurrency(plan.product_id));
    } catch (error) {
      if (error instanceof PriceError) throw invalid(error.message.replace('prices[0]', 'price'));
      throw error;
    }
    return this.plans.onDraft(scope, identifier, async (tx, draft) => {
      const stored = (await repo.listPrices(tx, [draft.version.id])).map(repo.toStored);
      if (!input && !stored.some((p) => p.currency === code)) throw priceCurrencyMissing(code);
      const others = stored.filter((p) => p.currency !== code);
      const rows = await repo.replacePrices(tx, scope.environmentId, draft.version.id, [...others, ...normalized].map((price) => ({ ...price, id: newId() })));
      await touch(tx, this.clock, draft);
      return { prices: rows.map((row) => presentPrice(repo.toStored(row), row.id, draft.version.version)) };
    }, undefined, keep);
  }

  async list(scope: CatalogScope, identifier: string, version: number | undefined, page: PageRequest) {
    const found = await this.plans.resolve(this.db, scope, identifier, version);
    const count = await repo.countPrices(this.db, found.version.id);
    const rows = page.offset >= count ? [] : await repo.listPrices(this.db, [found.version.id], page.pageSize, page.offset);
    return { count, results: rows.map((row) => presentPrice(repo.toStored(row), row.id, found.version.version)) };
  }
}
