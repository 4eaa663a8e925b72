import { randomUUID } from 'node:crypto';
import type {
  CountryOverride,
  PppDiscount,
  Promotion,
  PromotionBanner,
  PromotionBannerInput,
  PromotionCreate,
  PromotionListQuery,
  PromotionResponse,
  PromotionSecurityToggles,
  PromotionUpdate,
} from '@billow/contract';
import { PPP_GROUPS } from '@billow/contract';
import type { Db } from '../../db/connect.js';
import { isUuid } from '../../db/search.js';
import { inTransaction, type Executor } from '../../db/transaction.js';
import type { PageRequest } from '../../lib/pagination.js';
import { writeKeeping, type AnswerKeeper } from '../../db/answer-keeper.js';
import type { Clock } from '../../lib/clock.js';
import { countryName, normalizeCountry } from '../../lib/countries.js';
import { findPlan, findProduct } from '../catalog/queries.js';
import type { PromotionChanges } from './cache.js';
import { invalidPromotion, promotionArchived, promotionNotFound } from './errors.js';
import { promotionAnswer, rulesOf } from './promotion.compute.js';
import * as repo from './repo.js';
import { checkBanner, checkCouponCode } from './validation.js';

export interface PromotionScope {
  environmentId: string;
}

/** The banner of the reference's example, until the seller says otherwise. */
export const DEFAULT_BANNER: PromotionBanner = {
  backgroundColor: '#3182CE',
  fontColor: '#F9F9F9',
  highlightFontColor: '#DD5C64',
  fontSize: '1rem',
  borderRadius: '0',
  placement: 'top',
  unStyled: false,
  addCloseIcon: false,
  countryMessage:
    'Hello {country_flag} It looks like you are from <b>{country}</b>. Use code <b>"{coupon_code}"</b> to get <b>{discount_percentage}%</b> off.',
};

/** Every check on, as the reference's dashboard starts. */
export const DEFAULT_SECURITY: PromotionSecurityToggles = { vpn: true, tor: true, proxy: true, relay: true, crawler: true, billingCountry: true };

export function presentPromotion(row: repo.PromotionRow): Promotion {
  return {
    id: row.id,
    object: 'promotion',
    name: row.name,
    productId: row.product_id,
    planIdentifiers: row.plan_identifiers,
    pppDiscounts: row.ppp_discounts as PppDiscount[],
    countryOverrides: row.country_overrides,
    couponCode: row.coupon_code,
    message: row.message,
    banner: { ...DEFAULT_BANNER, ...(row.banner as Partial<PromotionBanner>) },
    security: { ...DEFAULT_SECURITY, ...row.security },
    enabled: row.enabled,
    archivedOn: row.archived_at?.toISOString() ?? null,
    createdOn: row.created_at.toISOString(),
    modifiedOn: row.modified_at.toISOString(),
  };
}

/** One entry per group, in group order: groups left out get 0; a group named twice is refused. */
function pppDiscounts(input: PppDiscount[]): PppDiscount[] {
  const given = new Map<number, number>();
  for (const { group, percentage } of input) {
    if (given.has(group)) throw invalidPromotion(`pppDiscounts names group ${group} twice`);
    given.set(group, percentage);
  }
  return PPP_GROUPS.map((group) => ({ group, percentage: given.get(group) ?? 0 }));
}

/** Upper-cased ISO codes, sorted; an unknown code or a country named twice is refused. */
function countryOverrides(input: CountryOverride[]): CountryOverride[] {
  const seen = new Map<string, number>();
  for (const [index, { countryCode, percentage }] of input.entries()) {
    const code = normalizeCountry(countryCode);
    if (!code) throw invalidPromotion(`countryOverrides[${index}].countryCode: "${countryCode}" is not an ISO 3166-1 alpha-2 country code`);
    if (seen.has(code)) throw invalidPromotion(`countryOverrides[${index}].countryCode: ${code} is listed twice`);
    seen.set(code, percentage);
  }
  return [...seen].sort(([a], [b]) => (a < b ? -1 : 1)).map(([countryCode, percentage]) => ({ countryCode, percentage }));
}

/** The product's published plans named, without repeats; a draft-only, archived or foreign plan is refused. */
async function planScope(db: Executor, environmentId: string, productId: string, identifiers: string[] | null | undefined) {
  if (identifiers === null || identifiers === undefined) return null;
  if (identifiers.length === 0) throw invalidPromotion('planIdentifiers must name at least one plan, or be null for every plan');
  const unique = [...new Set(identifiers)];
  for (const identifier of unique) {
    const plan = await findPlan(db, environmentId, identifier);
    if (!plan || plan.product_id !== productId) throw invalidPromotion(`planIdentifiers: "${identifier}" is not a plan of the product`);
    if (plan.archived_at !== null || plan.published_version === null) {
      throw invalidPromotion(`planIdentifiers: "${identifier}" is not published; promotions apply to published plans only`);
    }
  }
  return unique;
}

/** The columns an input sets besides its scope; undefined where the input leaves a field out. */
function writableColumns(input: PromotionUpdate, current: { banner: PromotionBanner; security: PromotionSecurityToggles }) {
  const banner: PromotionBannerInput | undefined = input.banner && checkBanner({ ...current.banner, ...input.banner });
  return {
    name: input.name,
    ppp_discounts: input.pppDiscounts && JSON.stringify(pppDiscounts(input.pppDiscounts)),
    country_overrides: input.countryOverrides && JSON.stringify(countryOverrides(input.countryOverrides)),
    coupon_code: input.couponCode === undefined ? undefined : checkCouponCode(input.couponCode),
    message: input.message,
    banner: banner && JSON.stringify(banner),
    security: input.security && JSON.stringify({ ...current.security, ...input.security }),
    enabled: input.enabled,
  };
}

export class PromotionService {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly changes: PromotionChanges,
  ) {}

  async create(scope: PromotionScope, input: PromotionCreate, keep?: AnswerKeeper): Promise<Promotion> {
    const columns = writableColumns(input, { banner: DEFAULT_BANNER, security: DEFAULT_SECURITY });
    const product = await findProduct(this.db, scope.environmentId, input.productId);
    if (!product || product.archived_at) throw invalidPromotion(`productId: no product "${input.productId}"`);
    const plans = await planScope(this.db, scope.environmentId, product.id, input.planIdentifiers);
    const now = this.clock.now();
    const insert = (db: Executor) => repo.insertPromotion(db, {
      id: randomUUID(),
      environment_id: scope.environmentId,
      name: input.name,
      product_id: product.id,
      plan_identifiers: plans,
      ppp_discounts: columns.ppp_discounts ?? JSON.stringify(pppDiscounts([])),
      country_overrides: columns.country_overrides ?? '[]',
      coupon_code: columns.coupon_code ?? null,
      message: columns.message ?? '',
      banner: columns.banner ?? JSON.stringify(DEFAULT_BANNER),
      security: columns.security ?? JSON.stringify(DEFAULT_SECURITY),
      enabled: columns.enabled ?? true,
      created_at: now,
      modified_at: now,
    });
    return writeKeeping(this.db, keep, async (db) => presentPromotion(await insert(db)));
  }

  async get(scope: PromotionScope, id: string): Promise<Promotion> {
    const row = isUuid(id) ? await repo.findPromotion(this.db, scope.environmentId, id) : undefined;
    if (!row) throw promotionNotFound(id);
    return presentPromotion(row);
  }

  /**
   * What GET /promotions answers a visitor located in `country` (a browser, not a crawler), so
   * that the dashboard shows the Edge's own decision; archived → 404, as there.
   */
  async preview(scope: PromotionScope, id: string, country: string): Promise<PromotionResponse> {
    const code = normalizeCountry(country);
    if (!code) throw invalidPromotion(`query parameter country: "${country}" is not an ISO 3166-1 alpha-2 country code`);
    const promotion = await this.get(scope, id);
    if (promotion.archivedOn) throw promotionNotFound(id);
    return promotionAnswer(rulesOf(promotion), { countryCode: code, countryName: countryName(code), userAgent: null });
  }

  async list(scope: PromotionScope, page: PageRequest, query: PromotionListQuery): Promise<{ count: number; results: Promotion[] }> {
    let productId: string | null = null;
    if (query.product_id !== undefined) {
      const product = await findProduct(this.db, scope.environmentId, query.product_id);
      if (!product) return { count: 0, results: [] };
      productId = product.id;
    }
    const filter = { productId, archived: query.archived ?? false };
    const count = await repo.countPromotions(this.db, scope.environmentId, filter);
    const rows = page.offset >= count ? [] : await repo.listPromotions(this.db, scope.environmentId, filter, page.pageSize, page.offset);
    return { count, results: rows.map(presentPromotion) };
  }

  async update(scope: PromotionScope, id: string, input: PromotionUpdate): Promise<Promotion> {
    return this.change(scope, id, async (tx, current) => {
      const columns = writableColumns(input, presentPromotion(current));
      const plans = input.planIdentifiers === undefined ? undefined : await planScope(tx, scope.environmentId, current.product_id, input.planIdentifiers);
      return repo.updatePromotion(tx, id, { ...columns, plan_identifiers: plans, modified_at: this.clock.now() });
    });
  }

  /** Archived: GET /promotions answers 404 for it. Archiving twice changes nothing. */
  async archive(scope: PromotionScope, id: string): Promise<void> {
    await this.change(scope, id, (tx, current) =>
      current.archived_at ? Promise.resolve(current) : repo.updatePromotion(tx, id, { archived_at: this.clock.now(), modified_at: this.clock.now() }),
      { archivedToo: true },
    );
  }

  /** Runs a change of a live promotion under its row lock, announces it, and forgets it here after the commit. */
  private async change(
    scope: PromotionScope,
    id: string,
    work: (tx: Executor, current: repo.PromotionRow) => Promise<repo.PromotionRow>,
    options: { archivedToo?: boolean } = {},
  ): Promise<Promotion> {
    if (!isUuid(id)) throw promotionNotFound(id);
    const row = await inTransaction(this.db, async (tx) => {
      const current = await repo.findPromotion(tx, scope.environmentId, id, { forUpdate: true });
      if (!current) throw promotionNotFound(id);
      if (current.archived_at && !options.archivedToo) throw promotionArchived(id);
      const changed = await work(tx, current);
      await repo.notifyPromotionChanged(tx, scope.environmentId, id);
      return changed;
    });
    this.changes.forget(scope.environmentId, id);
    return presentPromotion(row);
  }
}
