import type { EntitlementDetails, EntitlementDetailsInput } from '@billow/contract';

export type FeatureType = 'BOOLEAN' | 'CUSTOMIZABLE' | 'METER';

export class DetailsError extends Error {}

function fail(message: string): never {
  throw new DetailsError(message);
}

function defaultsFor(type: FeatureType): EntitlementDetails {
  return {
    value: type === 'BOOLEAN' ? true : null,
    hasUnlimitedUsage: false,
    reset: type === 'METER' ? 'EVERY_MONTH' : null,
    resetTime: type === 'METER' ? 'BEGINNING_OF_PERIOD' : null,
    rollover: {},
    usageAlerts: {},
    hardLimit: false,
    isInherited: false,
    isValueOverridden: false,
  };
}

function dropUndefined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}

/**
 * The stored details of an entitlement: `input` laid over `existing` (fields
 * not given are kept) or over the feature type's defaults, then checked
 * against the feature type. `path` prefixes error messages (e.g. `details`).
 */
export function resolveDetails(
  type: FeatureType,
  input: EntitlementDetailsInput,
  existing: EntitlementDetails | null,
  path = 'details',
): EntitlementDetails {
  const merged = { ...(existing ?? defaultsFor(type)), ...dropUndefined(input) } as EntitlementDetails;
  if (type === 'BOOLEAN') {
    if (typeof merged.value !== 'boolean') fail(`${path}.value: a BOOLEAN feature takes true or false`);
    if (merged.hasUnlimitedUsage) fail(`${path}.hasUnlimitedUsage: does not apply to a BOOLEAN feature`);
    return { ...merged, reset: null, resetTime: null };
  }
  if (typeof merged.value === 'boolean') fail(`${path}.value: a ${type} feature takes a number, not ${merged.value}`);
  if (merged.hasUnlimitedUsage) {
    merged.value = merged.value ?? null;
  } else if (merged.value === null || merged.value === undefined) {
    fail(`${path}.value: a ${type} feature needs a number of at least 0, or hasUnlimitedUsage true`);
  } else if (merged.value < 0 || !Number.isFinite(merged.value)) {
    fail(`${path}.value: must be a number of at least 0`);
  }
  const thresholds = (merged.usageAlerts as { thresholds?: number[] }).thresholds ?? [];
  thresholds.forEach((t, i) => {
    if (i > 0 && t <= thresholds[i - 1]!) fail(`${path}.usageAlerts.thresholds: must be in ascending order`);
  });
  if (type === 'CUSTOMIZABLE' && merged.reset && merged.reset !== 'NEVER') {
    fail(`${path}.reset: a CUSTOMIZABLE value is a setting and does not reset; use a METER feature for usage`);
  }
  if (merged.reset && merged.reset !== 'NEVER' && !merged.resetTime) merged.resetTime = 'BEGINNING_OF_PERIOD';
  return merged;
}
