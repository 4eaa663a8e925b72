/**
 * How a catalog file's entry is compared with what an environment holds: a field the file
 * leaves out keeps the environment's value (its default when created), a field it gives
 * must be equal. Lists compare entry by entry. A metadata map the file gives is the whole
 * map: a key the environment has beyond it is a key to remove. Nothing here knows the API.
 */

export interface FieldChange {
  /** Where in the entry, e.g. `prices.USD.chargeCatalogPrice[0].charges[0].priceData.amount`. */
  path: string;
  from: unknown;
  to: unknown;
}

type Plain = Record<string, unknown>;

const isObject = (value: unknown): value is Plain => typeof value === 'object' && value !== null && !Array.isArray(value);

/** Nothing to say: left out, an empty text, list or object. */
function isEmpty(value: unknown): boolean {
  if (value === undefined || value === '') return true;
  if (Array.isArray(value)) return value.length === 0;
  return isObject(value) && Object.keys(value).every((key) => isEmpty(value[key]));
}

/**
 * A value as a file shows it: empty texts, lists and objects and undefined fields left out,
 * object keys in a stable order (the given order of `first`, then alphabetical).
 */
export function prune(value: unknown, first: readonly string[] = []): unknown {
  if (Array.isArray(value)) return value.map((item) => prune(item, first));
  if (!isObject(value)) return value;
  const keys = Object.keys(value).sort((a, b) => rank(a, first) - rank(b, first) || a.localeCompare(b));
  const out: Plain = {};
  for (const key of keys) {
    const item = prune(value[key], first);
    if (!isEmpty(item)) out[key] = item;
  }
  return out;
}

/** Long lists go last, after the fields that say what an entry is. */
const LAST = ['charges', 'prices', 'entitlements'];

function rank(key: string, first: readonly string[]): number {
  const at = first.indexOf(key);
  if (at !== -1) return at;
  return first.length + 1 + LAST.indexOf(key);
}

/** The fields where `wanted` (the file) and `actual` (the environment) differ. */
export function differences(wanted: unknown, actual: unknown, path = ''): FieldChange[] {
  if (wanted === undefined) return [];
  if (isEmpty(wanted) || wanted === null) {
    return isEmpty(actual) || actual === null ? [] : [{ path, from: actual, to: wanted }];
  }
  if (Array.isArray(wanted)) {
    if (!Array.isArray(actual) || actual.length !== wanted.length) return [{ path, from: actual, to: wanted }];
    return wanted.flatMap((item, index) => differences(item, actual[index], `${path}[${index}]`));
  }
  if (isObject(wanted)) {
    if (!isObject(actual)) return [{ path, from: actual, to: wanted }];
    const at = (key: string) => (path ? `${path}.${key}` : key);
    const changed = Object.keys(wanted).flatMap((key) => differences(wanted[key], actual[key], at(key)));
    return isWholeMap(path) ? [...changed, ...removedKeys(wanted, actual).map((key) => ({ path: at(key), from: actual[key], to: undefined }))] : changed;
  }
  return wanted === actual ? [] : [{ path, from: actual, to: wanted }];
}

const isWholeMap = (path: string) => path === 'metadata' || path.endsWith('.metadata');

const removedKeys = (wanted: Plain, actual: Plain) => Object.keys(actual).filter((key) => !(key in wanted) && !isEmpty(actual[key]));

/** A list keyed by one field, as a map (the file's checks have refused duplicates). */
export function byKey<T>(items: readonly T[] | undefined, key: (item: T) => string): Map<string, T> {
  return new Map((items ?? []).map((item) => [key(item), item]));
}
