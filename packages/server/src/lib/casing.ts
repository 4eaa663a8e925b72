const PRESERVED_KEYS = new Set(['metadata']);

export function snakeToCamel(key: string): string {
  return key.includes('_') ? key.replace(/_+([a-z0-9])/g, (_, c: string) => c.toUpperCase()) : key;
}

const UPPER = /[A-Z]/;

export function camelToSnake(key: string): string {
  return UPPER.test(key) ? key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`) : key;
}

/**
 * Rewrites object keys deeply with `rename`, except the contents of `metadata`,
 * which belong to the seller and are kept exactly as sent.
 */
export function renameKeysDeep(value: unknown, rename: (key: string) => string): unknown {
  if (Array.isArray(value)) return value.map((item) => renameKeysDeep(item, rename));
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [key, inner] of Object.entries(value as Record<string, unknown>)) {
    const renamed = rename(key);
    out[renamed] = PRESERVED_KEYS.has(renamed) ? inner : renameKeysDeep(inner, rename);
  }
  return out;
}
