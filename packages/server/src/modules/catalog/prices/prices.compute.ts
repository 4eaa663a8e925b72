import type { PlanPrice, PlanPriceInput } from '@billow/contract';
import { AmountError, currencyDigits, fromMinor, isCurrency, toMinor } from '../../../lib/money.js';

type ChargeInput = NonNullable<PlanPriceInput['chargeCatalogPrice']>[number];
type ChargeEntryInput = ChargeInput['charges'][number];

export interface FeatureRef {
  id: string;
  identifier: string;
  featureType: 'BOOLEAN' | 'CUSTOMIZABLE' | 'METER';
  archived: boolean;
}

export interface StoredTier {
  upTo: number | 'inf';
  flatAmount: number | null;
  unitAmount: number | null;
}

export interface StoredCharge {
  chargePeriod: string;
  /** Minor units; null where the model prices by tiers. */
  amount: number | null;
  blockSize?: number;
  tiers: StoredTier[];
  advanced: { minQuantity?: number; maxQuantity?: number };
}

export interface StoredChargeCatalogPrice {
  feature: string | null;
  priceModel: string;
  reset: string | null;
  resetTime: string | null;
  hasUnlimitedUsage: boolean;
  paymentType: string;
  rollover: Record<string, unknown>;
  usageAlerts: Record<string, unknown>;
  charges: StoredCharge[];
}

/** A validated price, every amount an integer in the currency's minor unit. */
export interface StoredPrice {
  priceType: 'FREE' | 'PAID' | 'CUSTOM';
  currency: string;
  freeTrial: boolean;
  trialPeriod: number;
  enabled: boolean;
  taxBehavior: 'INCLUSIVE' | 'EXCLUSIVE' | 'UNSPECIFIED';
  chargeCatalogPrice: StoredChargeCatalogPrice[];
}

export class PriceError extends Error {}

export const DEFAULT_TRIAL_DAYS = 7;
const TIERED_MODELS = new Set(['TIERED', 'VOLUME', 'STAIRSTEP']);

function fail(path: string, message: string): never {
  throw new PriceError(`${path}: ${message}`);
}

function minor(value: number | null | undefined, digits: number, path: string): number | null {
  if (value === undefined || value === null) return null;
  try {
    return toMinor(value, digits);
  } catch (error) {
    if (error instanceof AmountError) fail(path, `${value} ${error.message}`);
    throw error;
  }
}

function checkAlerts(alerts: ChargeInput['usageAlerts'], path: string): Record<string, unknown> {
  if (!alerts) return {};
  const thresholds = alerts.thresholds ?? [];
  thresholds.forEach((t, i) => {
    if (i > 0 && t <= thresholds[i - 1]!) fail(`${path}.thresholds`, 'must be in ascending order, without repeats');
    if ((alerts.thresholdType ?? 'PERCENTAGE') === 'PERCENTAGE' && (t <= 0 || t > 100)) {
      fail(`${path}.thresholds[${i}]`, 'a PERCENTAGE threshold lies between 1 and 100');
    }
  });
  return { ...alerts };
}

function tiersOf(entry: ChargeEntryInput, model: string, digits: number, path: string): StoredTier[] {
  const tiers = entry.tiers ?? [];
  if (!TIERED_MODELS.has(model)) {
    if (tiers.length > 0) fail(`${path}.tiers`, `are only for TIERED, VOLUME and STAIRSTEP prices, not ${model}`);
    return [];
  }
  if (tiers.length === 0) fail(`${path}.tiers`, `a ${model} price needs at least one tier`);
  let previous = 0;
  return tiers.map((tier, i) => {
    const at = `${path}.tiers[${i}]`;
    const last = i === tiers.length - 1;
    if (tier.upTo === 'inf') {
      if (!last) fail(`${at}.upTo`, '"inf" may only close the last tier');
    } else {
      if (last) fail(`${at}.upTo`, 'the last tier must be "inf"');
      if (tier.upTo <= previous) fail(`${at}.upTo`, 'tiers must be in ascending order of upTo');
      previous = tier.upTo;
    }
    const flatAmount = minor(tier.flatAmount, digits, `${at}.flatAmount`);
    const unitAmount = minor(tier.unitAmount, digits, `${at}.unitAmount`);
    if (model === 'STAIRSTEP') {
      if (flatAmount === null) fail(`${at}.flatAmount`, 'a STAIRSTEP tier is priced by flatAmount');
      if (unitAmount !== null) fail(`${at}.unitAmount`, 'a STAIRSTEP tier has no per-unit amount');
    } else if (flatAmount === null && unitAmount === null) {
      fail(at, 'needs a unitAmount, a flatAmount, or both');
    }
    return { upTo: tier.upTo, flatAmount, unitAmount };
  });
}

function chargeOf(
  entry: ChargeEntryInput,
  model: string,
  hasFeature: boolean,
  currency: string,
  digits: number,
  path: string,
): StoredCharge {
  const data = entry.priceData ?? {};
  if (data.currency !== undefined && data.currency.toUpperCase() !== currency) {
    fail(`${path}.priceData.currency`, `must match the price's currency ${currency}`);
  }
  const amount = minor(data.amount, digits, `${path}.priceData.amount`);
  if ((model === 'FLAT' || model === 'PACKAGE') && amount === null) {
    fail(`${path}.priceData.amount`, `is required for a ${model} price`);
  }
  if (TIERED_MODELS.has(model) && amount !== null) {
    fail(`${path}.priceData.amount`, `a ${model} price is set by its tiers, not an amount`);
  }
  if (model === 'PACKAGE' && data.blockSize === undefined) {
    fail(`${path}.priceData.blockSize`, 'is required for a PACKAGE price');
  }
  if (model !== 'PACKAGE' && data.blockSize !== undefined) {
    fail(`${path}.priceData.blockSize`, 'applies only to PACKAGE prices');
  }
  const advanced = entry.advanced ?? {};
  if (Object.keys(advanced).length > 0) {
    if (model !== 'FLAT' || !hasFeature) fail(`${path}.advanced`, 'applies only to FLAT prices of a feature');
    if (
      advanced.minQuantity !== undefined &&
      advanced.maxQuantity !== undefined &&
      advanced.minQuantity > advanced.maxQuantity
    ) {
      fail(`${path}.advanced.minQuantity`, 'must not exceed maxQuantity');
    }
  }
  return {
    chargePeriod: entry.chargePeriod,
    amount,
    ...(data.blockSize !== undefined ? { blockSize: data.blockSize } : {}),
    tiers: tiersOf(entry, model, digits, path),
    advanced: { ...advanced },
  };
}

function chargeCatalogPriceOf(
  input: ChargeInput,
  features: Map<string, FeatureRef>,
  currency: string,
  digits: number,
  path: string,
): StoredChargeCatalogPrice {
  const model = input.priceModel ?? 'FLAT';
  let feature: FeatureRef | null = null;
  if (input.feature !== undefined && input.feature !== null) {
    feature = features.get(input.feature) ?? fail(`${path}.feature`, `no feature "${input.feature}" in this environment`);
    if (feature.archived) fail(`${path}.feature`, `the feature "${feature.identifier}" is archived`);
    if (feature.featureType === 'BOOLEAN') {
      fail(`${path}.feature`, `"${feature.identifier}" is a BOOLEAN feature; only METER and CUSTOMIZABLE features are priced`);
    }
  } else if (model !== 'FLAT') {
    fail(`${path}.feature`, `a ${model} price must name the feature it meters`);
  }
  const paymentType = input.paymentType ?? 'ADVANCE_COMMITMENT';
  const periods = new Set<string>();
  const charges = input.charges.map((entry, i) => {
    if (periods.has(entry.chargePeriod)) {
      fail(`${path}.charges[${i}].chargePeriod`, `${entry.chargePeriod} appears twice`);
    }
    periods.add(entry.chargePeriod);
    return chargeOf(entry, model, feature !== null, currency, digits, `${path}.charges[${i}]`);
  });
  const rollover = { ...(input.rollover ?? {}) };
  if (paymentType === 'PAY_AS_YOU_GO') {
    if (model === 'STAIRSTEP') fail(`${path}.priceModel`, 'PAY_AS_YOU_GO is not offered with STAIRSTEP');
    if (rollover.enabled) fail(`${path}.rollover`, 'PAY_AS_YOU_GO usage does not roll over');
    if (input.reset !== undefined && input.reset !== null) {
      fail(`${path}.reset`, 'PAY_AS_YOU_GO usage resets with each monthly renewal; leave reset out');
    }
    input.charges.forEach((entry, i) => {
      if (entry.chargePeriod !== 'MONTHLY') {
        fail(`${path}.charges[${i}].chargePeriod`, 'PAY_AS_YOU_GO is billed MONTHLY only');
      }
    });
  }
  const reset = input.reset ?? null;
  return {
    feature: feature?.id ?? null,
    priceModel: model,
    reset,
    resetTime: input.resetTime ?? (reset && reset !== 'NEVER' ? 'BEGINNING_OF_PERIOD' : null),
    hasUnlimitedUsage: input.hasUnlimitedUsage ?? false,
    paymentType,
    rollover,
    usageAlerts: checkAlerts(input.usageAlerts, `${path}.usageAlerts`),
    charges,
  };
}

function checkPriceAsAWhole(price: StoredPrice, path: string): void {
  const entries = price.chargeCatalogPrice;
  const base = entries.filter((e) => e.feature === null);
  if (base.length > 1) fail(`${path}.chargeCatalogPrice`, 'holds more than one base charge (feature null)');
  const seen = new Set<string>();
  entries.forEach((e, i) => {
    if (e.feature === null) return;
    if (seen.has(e.feature)) fail(`${path}.chargeCatalogPrice[${i}].feature`, 'is priced twice');
    seen.add(e.feature);
  });
  if (entries.some((e) => e.paymentType === 'PAY_AS_YOU_GO')) {
    entries.forEach((e, i) =>
      e.charges.forEach((c, j) => {
        if (c.chargePeriod !== 'MONTHLY') {
          fail(
            `${path}.chargeCatalogPrice[${i}].charges[${j}].chargePeriod`,
            'a price with PAY_AS_YOU_GO usage is billed MONTHLY only',
          );
        }
      }),
    );
  }
  const oneTimeBase = base.some((e) => e.charges.some((c) => c.chargePeriod === 'ONE_TIME'));
  if (oneTimeBase) {
    entries.forEach((e, i) => {
      if (e.feature !== null && e.priceModel !== 'FLAT' && e.priceModel !== 'PACKAGE') {
        fail(`${path}.chargeCatalogPrice[${i}].priceModel`, 'with a one-time base fee, features are priced FLAT or PACKAGE');
      }
    });
  }
  const amounts = entries.flatMap((e) =>
    e.charges.flatMap((c) => [c.amount ?? 0, ...c.tiers.flatMap((t) => [t.flatAmount ?? 0, t.unitAmount ?? 0])]),
  );
  if (price.priceType === 'FREE' && amounts.some((a) => a > 0)) {
    fail(`${path}.chargeCatalogPrice`, 'a FREE price charges nothing: every amount must be 0');
  }
  if (price.priceType === 'PAID' && entries.length === 0) {
    fail(`${path}.chargeCatalogPrice`, 'a PAID price needs at least one charge');
  }
}

/**
 * Validates a full replacement set of prices and converts every amount to
 * integer minor units. Throws PriceError naming the first field at fault.
 */
export function normalizePrices(
  inputs: PlanPriceInput[],
  features: Map<string, FeatureRef>,
  defaultCurrency: string,
): StoredPrice[] {
  const currencies = new Map<string, number>();
  return inputs.map((input, i) => {
    const path = `prices[${i}]`;
    const currency = (input.currency ?? defaultCurrency).trim().toUpperCase();
    if (!isCurrency(currency)) fail(`${path}.currency`, `"${input.currency}" is not an ISO 4217 currency code`);
    const first = currencies.get(currency);
    if (first !== undefined) {
      const both = input.priceType === 'PAID' && inputs[first]!.priceType === 'PAID' ? 'two PAID prices' : 'two prices';
      fail(`${path}.currency`, `${both} in ${currency} (prices[${first}] and prices[${i}]); a plan has one price per currency`);
    }
    currencies.set(currency, i);
    const digits = currencyDigits(currency);
    const freeTrial = input.freeTrial ?? false;
    const trialPeriod = input.trialPeriod ?? (freeTrial ? DEFAULT_TRIAL_DAYS : 0);
    if (freeTrial && trialPeriod < 1) fail(`${path}.trialPeriod`, 'a free trial lasts at least 1 day');
    const price: StoredPrice = {
      priceType: input.priceType,
      currency,
      freeTrial,
      trialPeriod,
      enabled: input.enabled ?? true,
      taxBehavior: input.taxBehavior ?? 'EXCLUSIVE',
      chargeCatalogPrice: (input.chargeCatalogPrice ?? []).map((entry, j) =>
        chargeCatalogPriceOf(entry, features, currency, digits, `${path}.chargeCatalogPrice[${j}]`),
      ),
    };
    checkPriceAsAWhole(price, path);
    return price;
  });
}

/** Every feature a set of price inputs names, to look up in one query. */
export function featureRefsOf(inputs: PlanPriceInput[]): string[] {
  const refs = new Set<string>();
  for (const price of inputs) {
    for (const entry of price.chargeCatalogPrice ?? []) if (entry.feature) refs.add(entry.feature);
  }
  return [...refs];
}

/** The wire form: amounts back in the major unit, exactly as they were sent. */
export function presentPrice(stored: StoredPrice, id: string, version: number): PlanPrice {
  const digits = currencyDigits(stored.currency);
  const major = (value: number | null) => (value === null ? null : fromMinor(value, digits));
  return {
    id,
    version,
    priceType: stored.priceType,
    currency: stored.currency,
    freeTrial: stored.freeTrial,
    trialPeriod: stored.trialPeriod,
    enabled: stored.enabled,
    taxBehavior: stored.taxBehavior,
    chargeCatalogPrice: stored.chargeCatalogPrice.map((entry) => ({
      ...entry,
      charges: entry.charges.map((charge) => ({
        chargePeriod: charge.chargePeriod,
        priceData: {
          amount: major(charge.amount),
          ...(charge.blockSize !== undefined ? { blockSize: charge.blockSize } : {}),
          currency: stored.currency,
        },
        tiers: charge.tiers.map((t) => ({ upTo: t.upTo, flatAmount: major(t.flatAmount), unitAmount: major(t.unitAmount) })),
        advanced: charge.advanced,
      })),
    })),
  };
}
