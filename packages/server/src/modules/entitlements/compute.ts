/**
 * The entitlement answer for one customer, computed from what the database
 * holds and nothing else: the customer's granting subscriptions, the
 * entitlements of each one's effective plan version, the quantities it bought,
 * its price's per-feature charge terms and the usage of its meters. Pure.
 *
 * Rules (DOMAIN.md §3.3, decided where the reference is silent):
 * - One entry per (granting subscription, feature), in subscription order
 *   (oldest first), then in the order the plan lists its entitlements.
 * - BOOLEAN: hasAccess = the value. CUSTOMIZABLE: usageLimit = the value
 *   (null when unlimited), hasAccess true.
 * - METER: usageLimit = value + purchased quantity + rollover into the
 *   current period (null when hasUnlimitedUsage); currentUsage = usage of the
 *   current reset period; remaining = usageLimit − currentUsage (null when
 *   unlimited); hasAccess false only with hardLimit and remaining <= 0.
 * - Terms of a meter come from the plan entitlement's details; the
 *   subscription price's charge for the feature overrides reset, resetTime,
 *   rollover and usageAlerts where it sets them. PAY_AS_YOU_GO usage follows
 *   the subscription's monthly billing period and never rolls over.
 * - Values are whole units: a fractional value is rounded down.
 */
import type { EntitlementDetail } from '@billow/contract';
import {
  anniversaryWindow,
  formatResetAt,
  isReset,
  previousWindow,
  resetWindow,
  rolloverAmount,
  type Reset,
  type ResetTime,
  type RolloverTerms,
  type Window,
} from './reset-periods.compute.js';

export type FeatureType = 'BOOLEAN' | 'CUSTOMIZABLE' | 'METER';

export const AGGREGATIONS = ['COUNT', 'SUM', 'MAX', 'MIN', 'UNIQUE_COUNT', 'LATEST'] as const;
export type Aggregation = (typeof AGGREGATIONS)[number];

/** A RAW_EVENTS meter: which events it counts and how it aggregates them. */
export interface RawMeter {
  aggregation: Aggregation;
  /** The property aggregated (camelCase, as stored); null for COUNT. */
  field: string | null;
  /** The event name the meter's filters ask for; null: events named after the feature (see usage/events). */
  eventName: string | null;
  /** Equality filters on event properties (camelCase keys). */
  properties: Record<string, unknown>;
}

/** A feature as a plan version grants it. */
export interface Grant {
  /** The feature's UUID. */
  featureId: string;
  identifier: string;
  name: string;
  featureType: FeatureType;
  /** The plan entitlement's details (value, hasUnlimitedUsage, reset, resetTime, rollover, usageAlerts, hardLimit). */
  details: Record<string, unknown>;
  /** Set for RAW_EVENTS meters, whose usage is aggregated from events. */
  rawMeter: RawMeter | null;
}

/** The per-feature terms of the subscription's price (an entry of chargeCatalogPrice). */
export interface PriceCharge {
  paymentType?: string | null;
  reset?: string | null;
  resetTime?: string | null;
  hasUnlimitedUsage?: boolean | null;
  rollover?: Record<string, unknown> | null;
  usageAlerts?: Record<string, unknown> | null;
}

export interface GrantingSubscription {
  id: string;
  startDate: Date;
  currentPeriodStart: Date | null;
  currentPeriodEnd: Date | null;
  /** When a cancelled (or cancelling) subscription stops granting. */
  endDate: Date | null;
  /** Purchased quantities by feature UUID. */
  quantities: Record<string, number>;
  /** The price's per-feature charges by feature UUID. */
  charges: Record<string, PriceCharge>;
  grants: Grant[];
}

export interface AlertTerms {
  type: 'PERCENTAGE' | 'BALANCE';
  thresholds: number[];
}

/** How one meter of one subscription counts. */
export interface MeterTerms {
  /** The reset period that contains the instant of the computation. */
  window: Window;
  /** The period before, when rollover applies and the subscription lived in it. */
  previous: Window | null;
  /** Value plus purchased quantity, before rollover; null: unlimited. */
  base: number | null;
  hardLimit: boolean;
  rollover: RolloverTerms | null;
  alerts: AlertTerms | null;
}

/** Usage of one meter of one subscription in one period. */
export interface Usage {
  value: number;
  /** What the period's counter took over from the period before, fixed when the counter was made. */
  rollover?: number;
}

export type UsageLookup = (subscriptionId: string, featureId: string, periodStart: Date) => Usage | undefined;

export interface MeterState {
  terms: MeterTerms;
  rollover: number;
  usageLimit: number | null;
  currentUsage: number;
  remaining: number | null;
  hasAccess: boolean;
}

const whole = (value: unknown): number => (typeof value === 'number' && Number.isFinite(value) ? Math.floor(value) : 0);
const objectOr = (value: unknown): Record<string, unknown> | null =>
  value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : null;

function rolloverTerms(config: Record<string, unknown> | null): RolloverTerms | null {
  if (!config || config.enabled === false) return null;
  const percentage = typeof config.percentage === 'number' ? config.percentage : 0;
  if (!(percentage > 0)) return null;
  return { percentage, limit: typeof config.limit === 'number' ? config.limit : null };
}

function alertTerms(config: Record<string, unknown> | null): AlertTerms | null {
  if (!config || config.enabled === false || !Array.isArray(config.thresholds)) return null;
  const thresholds = config.thresholds.filter((t): t is number => typeof t === 'number' && t > 0);
  if (thresholds.length === 0) return null;
  return { type: config.thresholdType === 'BALANCE' ? 'BALANCE' : 'PERCENTAGE', thresholds };
}

const hasThresholds = (config: Record<string, unknown> | null) => Array.isArray(config?.thresholds) && config.thresholds.length > 0;

/** The terms of a METER grant of `subscription` at `at`. */
export function meterTerms(subscription: GrantingSubscription, grant: Grant, at: Date): MeterTerms {
  const details = grant.details;
  const charge = subscription.charges[grant.featureId];
  const unlimited = details.hasUnlimitedUsage === true || charge?.hasUnlimitedUsage === true;
  const base = unlimited ? null : whole(details.value) + whole(subscription.quantities[grant.featureId]);
  const hardLimit = details.hardLimit === true;
  const chargeAlerts = objectOr(charge?.usageAlerts);
  const alerts = alertTerms(hasThresholds(chargeAlerts) ? chargeAlerts : objectOr(details.usageAlerts));

  if (charge?.paymentType === 'PAY_AS_YOU_GO') {
    // Billed in arrears each month: usage follows the billing period.
    const start = subscription.currentPeriodStart;
    const end = subscription.currentPeriodEnd;
    const window =
      start && end && start <= at && at < end
        ? { start, end }
        : anniversaryWindow(start ?? subscription.startDate, 'MONTHLY', at);
    return { window, previous: null, base, hardLimit, rollover: null, alerts };
  }

  // A charge that sets a reset brings its reset time; otherwise the entitlement's terms hold.
  const fromCharge = Boolean(charge?.reset);
  const rawReset = fromCharge ? charge?.reset : details.reset;
  const reset: Reset = isReset(rawReset) ? rawReset : 'NEVER';
  const rawTime = fromCharge ? (charge?.resetTime ?? details.resetTime) : details.resetTime;
  const resetTime: ResetTime = rawTime === 'SUBSCRIPTION_START' ? 'SUBSCRIPTION_START' : 'BEGINNING_OF_PERIOD';
  const cadence = { reset, resetTime, subscriptionStart: subscription.startDate };
  const window = resetWindow({ ...cadence, at });
  const chargeRollover = objectOr(charge?.rollover);
  const rollover =
    reset === 'NEVER' ? null : rolloverTerms(chargeRollover && 'enabled' in chargeRollover ? chargeRollover : objectOr(details.rollover));
  let previous: Window | null = null;
  if (rollover && base !== null) {
    previous = previousWindow({ ...cadence, window });
    // No rollover into the subscription's first period: it did not exist before.
    if (previous && previous.end !== null && previous.end <= subscription.startDate) previous = null;
  }
  return { window, previous, base, hardLimit, rollover: base === null ? null : rollover, alerts };
}

/**
 * What the current period takes over from the previous one: the unused part
 * of the previous period's allowance (its base plus what it had taken over,
 * minus its usage), by the rollover terms.
 */
export function rolloverInto(terms: MeterTerms, previous: Usage | undefined): number {
  if (!terms.rollover || !terms.previous || terms.base === null) return 0;
  const unused = terms.base + (previous?.rollover ?? 0) - (previous?.value ?? 0);
  return rolloverAmount(unused, terms.rollover);
}

/** The state of one meter: the period's counter when it exists decides the rollover; else it is computed. */
export function meterState(terms: MeterTerms, current: Usage | undefined, previous: Usage | undefined): MeterState {
  const rollover = terms.base === null ? 0 : (current?.rollover ?? rolloverInto(terms, previous));
  const usageLimit = terms.base === null ? null : terms.base + rollover;
  const currentUsage = current?.value ?? 0;
  const remaining = usageLimit === null ? null : usageLimit - currentUsage;
  const hasAccess = remaining === null || !terms.hardLimit || remaining > 0;
  return { terms, rollover, usageLimit, currentUsage, remaining, hasAccess };
}

export interface EntitlementsAnswer {
  entitlements: EntitlementDetail[];
  /** The instant (ms) from which time alone changes the answer (a period resets, a subscription ends); null: never. */
  validUntil: number | null;
}

/** Every entitlement entry of the customer at `at`; only `featureIdentifier`'s when given. */
export function computeEntitlements(input: {
  subscriptions: GrantingSubscription[];
  usage: UsageLookup;
  at: Date;
  featureIdentifier?: string | undefined;
}): EntitlementsAnswer {
  const { subscriptions, usage, at, featureIdentifier } = input;
  const entitlements: EntitlementDetail[] = [];
  let validUntil: number | null = null;
  const until = (instant: Date | null) => {
    if (instant && instant > at && (validUntil === null || instant.getTime() < validUntil)) validUntil = instant.getTime();
  };
  for (const subscription of subscriptions) {
    until(subscription.endDate);
    for (const grant of subscription.grants) {
      if (featureIdentifier !== undefined && grant.identifier !== featureIdentifier) continue;
      const details = grant.details;
      const hardLimit = details.hardLimit === true;
      if (grant.featureType === 'BOOLEAN') {
        entitlements.push({
          featureId: grant.identifier,
          featureType: 'BOOLEAN',
          hasAccess: details.value === true,
          resetAt: null,
          hardLimit,
          usageLimit: null,
          currentUsage: null,
          remaining: null,
        });
      } else if (grant.featureType === 'CUSTOMIZABLE') {
        entitlements.push({
          featureId: grant.identifier,
          featureType: 'CUSTOMIZABLE',
          hasAccess: true,
          resetAt: null,
          hardLimit,
          usageLimit: details.hasUnlimitedUsage === true ? null : whole(details.value),
          currentUsage: null,
          remaining: null,
        });
      } else {
        const terms = meterTerms(subscription, grant, at);
        until(terms.window.end);
        const current = usage(subscription.id, grant.featureId, terms.window.start);
        const previous = terms.previous ? usage(subscription.id, grant.featureId, terms.previous.start) : undefined;
        const state = meterState(terms, current, previous);
        entitlements.push({
          featureId: grant.identifier,
          featureType: 'METER',
          hasAccess: state.hasAccess,
          resetAt: formatResetAt(terms.window.end),
          hardLimit: terms.hardLimit,
          usageLimit: state.usageLimit,
          currentUsage: state.currentUsage,
          remaining: state.remaining,
        });
      }
    }
  }
  return { entitlements, validUntil };
}
