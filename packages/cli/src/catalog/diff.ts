/**
 * What `apply` would change: the file against the environment, entry by entry, keyed by
 * identifiers. A change the API cannot make (a feature's content, a plan's product) is a
 * problem: `apply` refuses the whole run before anything is written.
 */
import { createHash } from 'node:crypto';
import type { CatalogFile, CatalogFilePlan } from '@billow/contract';
import { byKey, differences, type FieldChange } from './compare.js';
import type { PlanState, RemoteCatalog } from './remote.js';

export type EntryKind = 'product' | 'feature' | 'plan' | 'discount' | 'promotion';

export interface Change {
  kind: EntryKind;
  key: string;
  /** `replace`: archived and created again (discounts, and promotions moved to another product: the API updates neither). */
  action: 'create' | 'update' | 'replace' | 'archive';
  fields: FieldChange[];
  /** Plans: the version this change publishes (null: the plan stays a draft), and a pending draft it discards first. */
  publishes?: number | null;
  discardsDraft?: number;
}

export interface CatalogDiff {
  changes: Change[];
  /** Changes the API cannot make: apply refuses while there is one. */
  problems: string[];
  /** Of the environment's catalog as read: apply compares it with the one `diff` recorded. */
  fingerprint: string;
}

export function fingerprintOf(remote: RemoteCatalog): string {
  return createHash('sha256').update(JSON.stringify(remote.file)).digest('hex').slice(0, 16);
}

type Keyed = { [key: string]: unknown };

/** Entries of one kind: created, changed, archived. */
function compareEntries<T extends Keyed>(kind: EntryKind, wanted: readonly T[] | undefined, actual: readonly T[], key: (item: T) => string): Change[] {
  const remote = byKey(actual, key);
  const changes: Change[] = [];
  for (const entry of wanted ?? []) {
    const there = remote.get(key(entry));
    if (!there) changes.push({ kind, key: key(entry), action: 'create', fields: created(entry, key(entry)) });
    else {
      const fields = differences(entry, there);
      if (fields.length > 0) changes.push({ kind, key: key(entry), action: 'update', fields });
    }
  }
  const kept = new Set((wanted ?? []).map(key));
  for (const entry of actual) if (!kept.has(key(entry))) changes.push({ kind, key: key(entry), action: 'archive', fields: [] });
  return changes;
}

/** A plan's content with prices keyed by currency and entitlements by feature, so a change names them. */
export function planContent(plan: CatalogFilePlan | undefined): Keyed | undefined {
  if (!plan) return undefined;
  const { prices, entitlements, published: _published, product: _product, identifier: _identifier, ...rest } = plan;
  return {
    ...rest,
    prices: Object.fromEntries((prices ?? []).map(({ currency, ...price }) => [currency, price])),
    entitlements: Object.fromEntries((entitlements ?? []).map(({ feature, ...details }) => [feature, details])),
  };
}

/** What a created entry will hold, field by field (its key aside). */
function created(entry: Keyed, key: string): FieldChange[] {
  return Object.entries(entry)
    .filter(([field, value]) => value !== key || field === 'name')
    .map(([path, to]) => ({ path, from: undefined, to }));
}

/** Keyed lists compare as wholes per key: a currency or a grant the file leaves out is removed. */
function planFields(wanted: CatalogFilePlan, actual: CatalogFilePlan | undefined): FieldChange[] {
  const want = planContent(wanted) as Keyed;
  const have = (planContent(actual) ?? { prices: {}, entitlements: {} }) as Keyed;
  const removed = (field: 'prices' | 'entitlements'): FieldChange[] =>
    Object.keys(have[field] as Keyed)
      .filter((key) => !(key in (want[field] as Keyed)))
      .map((key) => ({ path: `${field}.${key}`, from: (have[field] as Keyed)[key], to: undefined }));
  const { prices: _p, entitlements: _e, ...top } = want;
  const fields = differences(top, have);
  for (const field of ['prices', 'entitlements'] as const) {
    const theirs = have[field] as Keyed;
    for (const [key, value] of Object.entries(want[field] as Keyed)) {
      fields.push(...(key in theirs ? differences(value, theirs[key], `${field}.${key}`) : [{ path: `${field}.${key}`, from: undefined, to: value }]));
    }
    fields.push(...removed(field));
  }
  return fields;
}

function comparePlans(wanted: readonly CatalogFilePlan[] | undefined, remote: RemoteCatalog, problems: string[]): Change[] {
  const actual = byKey(remote.file.plans, (p) => p.identifier);
  const changes: Change[] = [];
  for (const plan of wanted ?? []) {
    const there = actual.get(plan.identifier);
    const publish = plan.published !== false;
    if (!there) {
      changes.push({ kind: 'plan', key: plan.identifier, action: 'create', fields: planFields(plan, undefined), publishes: publish ? 1 : null });
      continue;
    }
    if (there.product !== plan.product) problems.push(`plan ${plan.identifier}: its product is ${there.product}; a plan cannot move to another product (give the plan a new identifier)`);
    const state = remote.plans.get(plan.identifier) as PlanState;
    if (!publish && state.published !== null) problems.push(`plan ${plan.identifier} is on sale: it cannot become a draft again (archive it instead)`);
    const fields = planFields(plan, there);
    const publishesDraft = publish && state.published === null;
    if (fields.length === 0 && !publishesDraft) continue;
    const draftFirst = state.published !== null && state.newestIsDraft ? state.newest : undefined;
    const publishes = publish ? (state.published === null ? state.newest : state.published + 1) : null;
    changes.push({ kind: 'plan', key: plan.identifier, action: 'update', fields, publishes, ...(draftFirst ? { discardsDraft: draftFirst } : {}) });
  }
  const kept = new Set((wanted ?? []).map((p) => p.identifier));
  for (const plan of remote.file.plans) if (!kept.has(plan.identifier)) changes.push({ kind: 'plan', key: plan.identifier, action: 'archive', fields: [] });
  return changes;
}

/** What a feature shows, which PATCH /catalog/features/{pk}/ changes. */
const isShownField = (path: string) => ['name', 'description', 'metadata'].includes(path.split('.')[0] as string);

export function diffCatalog(file: CatalogFile, remote: RemoteCatalog): CatalogDiff {
  const problems: string[] = [];
  const features = compareEntries('feature', file.features, remote.file.features, (f) => f.identifier);
  for (const change of features.filter((c) => c.action === 'update')) {
    const fixed = change.fields.map((f) => f.path).filter((path) => !isShownField(path));
    if (fixed.length === 0) continue;
    problems.push(`feature ${change.key}: a feature's type, details and meter never change (${fixed.join(', ')} ${fixed.length > 1 ? 'differ' : 'differs'}); archive it and grant a new identifier instead`);
  }
  const promotions = compareEntries('promotion', file.promotions, remote.file.promotions, (p) => p.name).map((change) =>
    change.action === 'update' && change.fields.some((f) => f.path === 'product') ? { ...change, action: 'replace' as const } : change,
  );
  const changes = [
    ...compareEntries('product', file.products, remote.file.products, (p) => p.identifier),
    ...features,
    ...comparePlans(file.plans, remote, problems),
    ...compareEntries('discount', file.discounts, remote.file.discounts, (d) => d.code).map((change) =>
      change.action === 'update' ? { ...change, action: 'replace' as const } : change,
    ),
    ...promotions,
  ];
  return { changes, problems, fingerprint: fingerprintOf(remote) };
}
