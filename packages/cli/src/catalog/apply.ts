/**
 * Makes an environment match the file, change by change, through the API. Each change is
 * one or a few requests; the server makes every request one transaction, so a run that
 * fails halfway leaves whole changes behind, reports them, and a second run finishes
 * (it diffs again and finds only what is left).
 */
import type { CatalogFile, CatalogFileDiscount, CatalogFilePlan, CatalogFileProduct, CatalogFilePromotion } from '@billow/contract';
import { BillowError } from '@billow/sdk';
import type { Api } from './api.js';
import type { Change, CatalogDiff } from './diff.js';
import type { RemoteCatalog } from './remote.js';
import { describeChange } from './render.js';

/** Why a request failed, naming it: `POST /catalog/plans/pro/prices/bulk/ answered 400: …`. */
function reasonOf(cause: unknown): string {
  if (cause instanceof BillowError && cause.request) return `${cause.request.method} ${cause.request.path} answered ${cause.status}: ${cause.detail}`;
  return cause instanceof Error ? cause.message : String(cause);
}

export class ApplyError extends Error {
  constructor(
    readonly applied: Change[],
    readonly failed: Change,
    override readonly cause: unknown,
  ) {
    super(
      `${describeChange(failed)} failed: ${reasonOf(cause)}\n` +
        `${applied.length} change(s) were applied before it${applied.length ? `:\n${applied.map((c) => `  ${describeChange(c)}`).join('\n')}` : ''}\n` +
        'Fix the cause and run apply again: it carries on from what the environment holds now.',
    );
  }
}

/** The order of a run: archives of what refers to others first, creations of what is referred to first. */
const ORDER: Record<string, number> = {
  'archive:promotion': 0,
  'archive:discount': 1,
  'archive:plan': 2,
  'product': 3,
  'feature': 4,
  'plan': 5,
  'discount': 6,
  'promotion': 7,
  'archive:product': 8,
  'archive:feature': 9,
};
const rankOf = (change: Change) => ORDER[change.action === 'archive' ? `archive:${change.kind}` : change.kind] ?? 10;

/** How a run publishes a plan's new version: `updatePricing` moves its subscribers over at their next renewal. */
export interface PublishOptions {
  updatePricing?: boolean;
}

export async function applyDiff(
  api: Api,
  file: CatalogFile,
  remote: RemoteCatalog,
  diff: CatalogDiff,
  progress: (line: string) => void,
  publish: PublishOptions = {},
): Promise<Change[]> {
  const changes = [...diff.changes].sort((a, b) => rankOf(a) - rankOf(b));
  const applied: Change[] = [];
  for (const [index, change] of changes.entries()) {
    try {
      await applyChange(api, file, remote, change, publish);
    } catch (error) {
      throw new ApplyError(applied, change, error);
    }
    applied.push(change);
    progress(`[${index + 1}/${changes.length}] ${describeChange(change)}`);
  }
  return applied;
}

function find<T>(items: readonly T[] | undefined, match: (item: T) => boolean): T {
  const found = (items ?? []).find(match);
  if (found === undefined) throw new Error('the file changed while it was applied');
  return found;
}

async function applyChange(api: Api, file: CatalogFile, remote: RemoteCatalog, change: Change, publish: PublishOptions): Promise<void> {
  const { kind, key, action } = change;
  if (kind === 'product') {
    if (action === 'archive') return api.billow.catalog.products.archive(key);
    return applyProduct(api, find(file.products, (p) => p.identifier === key), action === 'create');
  }
  if (kind === 'feature') {
    if (action === 'archive') return api.billow.catalog.features.archive(key);
    const { identifier, name, featureType, description, featureDetails, meter, metadata } = find(file.features, (f) => f.identifier === key);
    if (action === 'update') return void (await api.billow.catalog.features.update(identifier, { name, description, metadata }));
    return void (await api.billow.catalog.features.create({ identifier, name, featureType, description, featureDetails, meter, metadata }));
  }
  if (kind === 'plan') {
    if (action === 'archive') return api.billow.catalog.plans.archive(key);
    return applyPlan(api, find(file.plans, (p) => p.identifier === key), change, publish);
  }
  if (kind === 'discount') {
    if (action !== 'create') await api.billow.discounts.archive(remote.discountIds.get(key) ?? key);
    if (action === 'archive') return;
    return void (await api.billow.discounts.create(discountBody(find(file.discounts, (d) => d.code === key))));
  }
  const id = remote.promotionIds.get(key);
  if (action === 'archive' || action === 'replace') await api.billow.promotions.rules.delete(id ?? key);
  if (action === 'archive') return;
  const promotion = find(file.promotions, (p) => p.name === key);
  if (action === 'update') return void (await api.billow.promotions.rules.update(id ?? key, promotionBody(promotion)));
  await api.billow.promotions.rules.create({ ...promotionBody(promotion), productId: promotion.product });
}

async function applyProduct(api: Api, product: CatalogFileProduct, create: boolean): Promise<void> {
  const { identifier, name, taxCode, description, settings } = product;
  if (create) await api.billow.catalog.products.create({ identifier, name, taxCode, description });
  else await api.billow.catalog.products.update(identifier, { name, taxCode, description });
  if (settings && Object.keys(settings).length > 0) await api.billow.catalog.products.settings.update(identifier, settings);
}

const touches = (change: Change, field: string) => change.action === 'create' || change.fields.some((f) => f.path === field || f.path.startsWith(`${field}.`) || f.path.startsWith(`${field}[`));
const TOP_FIELDS = ['name', 'description', 'metadata', 'isVisible', 'ordering', 'license', 'links'] as const;

async function applyPlan(api: Api, plan: CatalogFilePlan, change: Change, publish: PublishOptions): Promise<void> {
  const plans = api.billow.catalog.plans;
  const top = Object.fromEntries(TOP_FIELDS.flatMap((field) => (plan[field] === undefined ? [] : [[field, plan[field]]])));
  if (change.action === 'create') await plans.create({ ...top, name: plan.name, identifier: plan.identifier, product: plan.product });
  if (change.discardsDraft) await plans.discardDraft(plan.identifier);
  if (change.action === 'update' && TOP_FIELDS.some((field) => touches(change, field))) await plans.update(plan.identifier, top);
  if (touches(change, 'prices') && (change.action === 'update' || (plan.prices ?? []).length > 0)) {
    await plans.prices.setMany(plan.identifier, { prices: plan.prices ?? [] });
  }
  await applyEntitlements(api, plan, change);
  if (change.publishes != null) await plans.publish(plan.identifier, publish);
}

async function applyEntitlements(api: Api, plan: CatalogFilePlan, change: Change): Promise<void> {
  const features = api.billow.catalog.plans.features;
  const wanted = new Map((plan.entitlements ?? []).map(({ feature, ...details }) => [feature, details]));
  const changed = new Set(
    change.action === 'create' ? wanted.keys() : change.fields.filter((f) => f.path.startsWith('entitlements.')).map((f) => f.path.split('.')[1] as string),
  );
  const added: { feature: string; details: object }[] = [];
  for (const feature of changed) {
    const details = wanted.get(feature);
    const before = change.fields.find((f) => f.path === `entitlements.${feature}`);
    if (!details) await features.remove(plan.identifier, feature);
    else if (change.action === 'create' || (before && before.from === undefined)) added.push({ feature, details });
    else await features.update(plan.identifier, feature, { details });
  }
  if (added.length > 0) await features.add(plan.identifier, { planEntitlements: added });
}

function discountBody(discount: CatalogFileDiscount) {
  const { restrictions, ...rest } = discount;
  return { ...rest, ...(restrictions ? { restrictions: { planIdentifiers: restrictions.plans ?? [], productIds: restrictions.products ?? [] } } : {}) };
}

/** A promotion as the API takes it; a new one also names its product. */
function promotionBody(promotion: CatalogFilePromotion) {
  const { product: _product, plans, name, ...rest } = promotion;
  return { name, ...rest, ...(plans === undefined ? {} : { planIdentifiers: plans }) };
}
