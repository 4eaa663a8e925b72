/** An environment's catalog read through its API, in the catalog file's shape, with the ids apply needs. */
import type {
  CatalogFile,
  CatalogFileDiscount,
  CatalogFileEntitlement,
  CatalogFileFeature,
  CatalogFilePlan,
  CatalogFilePrice,
  CatalogFileProduct,
  CatalogFilePromotion,
  Discount,
  Feature,
  Plan,
  PlanEntitlement,
  PlanPrice,
  Product,
  Promotion,
} from '@billow/contract';
import { PAGE, type Api } from './api.js';
import { prune } from './compare.js';

/** Where a plan stands: its newest version, and the one on sale (null: never published). */
export interface PlanState {
  newest: number;
  newestIsDraft: boolean;
  published: number | null;
}

export interface RemoteCatalog {
  file: Required<CatalogFile>;
  plans: Map<string, PlanState>;
  discountIds: Map<string, string>;
  promotionIds: Map<string, string>;
}

/** The order keys are written in: the key first, then what a reader looks for. */
export const KEY_ORDER = [
  ...['identifier', 'code', 'name', 'currency', 'feature', 'product', 'published', 'featureType', 'taxCode', 'priceType', 'description'],
];

const byText = <T>(key: (item: T) => string) => (a: T, b: T) => key(a).localeCompare(key(b));

export async function readRemote(api: Api, progress: (line: string) => void = () => undefined): Promise<RemoteCatalog> {
  const [products, features, plans, discounts, promotions] = await Promise.all([
    api.billow.catalog.products.list(PAGE).toArray(),
    api.billow.catalog.features.list(PAGE).toArray(),
    api.billow.catalog.plans.list(PAGE).toArray(),
    api.billow.discounts.list({ ...PAGE, status: 'ACTIVE' }).toArray(),
    api.billow.promotions.rules.list(PAGE).toArray(),
  ]);
  const live = <T extends { isArchived: boolean }>(rows: T[]) => rows.filter((row) => !row.isArchived);
  const productById = new Map(products.map((p) => [p.id, p.identifier]));
  const featureById = new Map(features.map((f) => [f.id, f.identifier]));
  progress(`Read ${products.length} product(s), ${features.length} feature(s), ${plans.length} plan(s) of ${api.target.environment}`);
  const names = { product: (id: string) => productById.get(id) ?? id, feature: (id: string) => featureById.get(id) ?? id };
  const states = new Map<string, PlanState>();
  const [filePlans, fileProducts] = await Promise.all([
    mapLimited(live(plans), (plan) => readPlan(api, plan, names, states)),
    mapLimited(live(products), (product) => readProduct(api, product)),
  ]);
  const file = {
    catalogVersion: 1 as const,
    products: fileProducts.sort(byText((p) => p.identifier)),
    features: live(features).map(featureOf).sort(byText((f) => f.identifier)),
    plans: filePlans.sort(byText((p) => p.identifier)),
    discounts: discounts.map((d) => discountOf(d, names.product)).sort(byText((d) => d.code)),
    promotions: promotions.filter((p) => !p.archivedOn).map((p) => promotionOf(p, names.product)).sort(byText((p) => p.name)),
  };
  const pruned = Object.fromEntries(Object.entries(file).map(([key, value]) => [key, prune(value, KEY_ORDER)]));
  return {
    file: pruned as Required<CatalogFile>,
    plans: states,
    discountIds: new Map(discounts.map((d) => [d.code, d.id])),
    promotionIds: new Map(promotions.filter((p) => !p.archivedOn).map((p) => [p.name, p.id])),
  };
}

/** Runs `work` over `items`, a few requests at a time. */
async function mapLimited<T, R>(items: T[], work: (item: T) => Promise<R>, limit = 4): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const at = next++;
      out[at] = await work(items[at] as T);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return out;
}

async function readProduct(api: Api, product: Product): Promise<CatalogFileProduct> {
  const settings = await api.billow.catalog.products.settings.retrieve(product.id);
  return { identifier: product.identifier, name: product.name, taxCode: product.taxCode as CatalogFileProduct['taxCode'], description: product.description, settings };
}

function featureOf(feature: Feature): CatalogFileFeature {
  return {
    identifier: feature.identifier,
    name: feature.name,
    featureType: feature.featureType,
    description: feature.description,
    featureDetails: feature.featureDetails as CatalogFileFeature['featureDetails'],
    meter: feature.meter as CatalogFileFeature['meter'],
    metadata: feature.metadata,
  };
}

interface Names {
  product(id: string): string;
  feature(id: string): string;
}

async function readPlan(api: Api, newest: Plan, names: Names, states: Map<string, PlanState>): Promise<CatalogFilePlan> {
  let plan = newest;
  if (newest.status === 'draft' && newest.version > 1) {
    const versions = await api.billow.catalog.plans.versions(newest.identifier, PAGE).toArray();
    plan = versions.find((v) => v.status === 'published') ?? newest;
  }
  const published = plan.status === 'published' ? plan.version : null;
  states.set(newest.identifier, { newest: newest.version, newestIsDraft: newest.status === 'draft', published });
  const [prices, entitlements] = await Promise.all([
    api.billow.catalog.plans.prices.list(plan.identifier, { ...PAGE, version: plan.version }).toArray(),
    api.billow.catalog.plans.features.list(plan.identifier, { ...PAGE, version: plan.version }).toArray(),
  ]);
  return {
    identifier: plan.identifier,
    product: names.product(plan.product),
    name: plan.name,
    ...(published === null ? { published: false } : {}),
    description: plan.description,
    metadata: plan.metadata,
    isVisible: plan.isVisible,
    ordering: plan.ordering,
    license: plan.license,
    links: plan.links,
    prices: prices.map((price) => priceOf(price, names)).sort(byText((p) => p.currency)),
    entitlements: entitlements.map((e) => entitlementOf(e)).sort(byText((e) => e.feature)),
  };
}

function priceOf(price: PlanPrice, names: Names): CatalogFilePrice {
  return {
    currency: price.currency,
    priceType: price.priceType as CatalogFilePrice['priceType'],
    freeTrial: price.freeTrial,
    trialPeriod: price.trialPeriod,
    enabled: price.enabled,
    taxBehavior: price.taxBehavior as CatalogFilePrice['taxBehavior'],
    chargeCatalogPrice: price.chargeCatalogPrice.map((charge) => ({
      ...(charge as Record<string, unknown>),
      feature: charge.feature === null ? null : names.feature(charge.feature),
      charges: charge.charges.map(({ priceData: { currency: _currency, ...priceData }, ...rest }) => ({ ...rest, priceData })),
    })) as CatalogFilePrice['chargeCatalogPrice'],
  };
}

function entitlementOf({ feature, details }: PlanEntitlement): CatalogFileEntitlement {
  return { feature: feature.identifier, ...(details as Omit<CatalogFileEntitlement, 'feature'>) };
}

function discountOf(discount: Discount, product: (id: string) => string): CatalogFileDiscount {
  return {
    code: discount.code,
    name: discount.name,
    discountType: discount.discountType,
    percentOff: discount.percentOff ?? undefined,
    amountsOff: discount.amountsOff.map(({ currency, amount }) => ({ currency, amount })),
    duration: discount.duration,
    durationInCycles: discount.durationInCycles ?? undefined,
    maxRedemptions: discount.maxRedemptions ?? undefined,
    expiresAt: discount.expiresAt ?? undefined,
    restrictions: { plans: discount.restrictions.planIdentifiers, products: discount.restrictions.productIds.map(product) },
    metadata: discount.metadata,
  };
}

function promotionOf(promotion: Promotion, product: (id: string) => string): CatalogFilePromotion {
  return {
    name: promotion.name,
    product: product(promotion.productId),
    plans: promotion.planIdentifiers,
    pppDiscounts: promotion.pppDiscounts,
    countryOverrides: promotion.countryOverrides,
    couponCode: promotion.couponCode,
    message: promotion.message,
    banner: promotion.banner,
    security: promotion.security,
    enabled: promotion.enabled,
  };
}
