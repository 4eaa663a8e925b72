import { createHash } from 'node:crypto';
import {
  CHARGE_PERIODS,
  type BillingPeriod,
  type EntitlementDetails,
  type OfferingCharge,
  type OfferingFeature,
  type OfferingPlan,
  type OfferingSubscription,
  type PlanPrice,
  type ProductOffering,
} from '@billow/contract';
import { presentPrice, type StoredPrice } from '../catalog/prices/prices.compute.js';
import { promotedPrice } from './promoted-price.compute.js';

/** A published plan version, with its prices (in position order) and entitlements (in the order they were added). */
export interface OfferingPlanInput {
  identifier: string;
  version: number;
  name: string;
  description: string;
  metadata: Record<string, unknown>;
  isVisible: boolean;
  prices: Array<{ id: string; price: StoredPrice }>;
  entitlements: Array<{ featureId: string; details: EntitlementDetails }>;
  /** The promotion's percentage for the buyer's country (location pricing), if any: charges show the promoted amounts. */
  promotionPercent?: number;
}

export interface OfferingFeatureInput {
  id: string;
  identifier: string;
  name: string;
  description: string;
  featureType: OfferingFeature['featureType'];
  featureDetails: Record<string, unknown>;
  metadata: Record<string, unknown>;
  isArchived: boolean;
}

export interface OfferingInput {
  organizationId: string;
  /** From the customer's billing address; null when unknown (Billow has no geolocation yet). */
  countryCode: string | null;
  /** The currency asked for (already checked to be ISO 4217), or null. */
  requestedCurrency: string | null;
  /** The product settings' currency, or null when the seller has set none. */
  productCurrency: string | null;
  /** Used for the currency only when nothing else names one (a product without plans). */
  fallbackCurrency: string;
  plans: OfferingPlanInput[];
  features: Map<string, OfferingFeatureInput>;
  isCustomerExists: boolean;
  subscription: OfferingSubscription;
}

/** One of the customer's subscriptions of the product, as the offering reads it. */
export interface CustomerSubscriptionInput {
  id: string;
  status: string;
  chargePeriod: string;
  endDate: Date | null;
  planIdentifier: string;
}

const GRANTING = ['active', 'trialing', 'past_due'];

/**
 * The customer's subscription state for a pricing page: whether they ever subscribed to
 * the product, and the subscription that grants them the product now (the newest), if
 * any, so the page can mark the current plan. A cancelled subscription whose end date is
 * still ahead grants until then; one that has ended is only a previous subscription.
 */
export function offeringSubscription(rows: CustomerSubscriptionInput[], now: Date): OfferingSubscription {
  if (rows.length === 0) return { hasPreviousSubscription: false };
  const current = rows.find(
    (row) => GRANTING.includes(row.status) || (row.status === 'canceled' && row.endDate !== null && row.endDate > now),
  );
  return {
    hasPreviousSubscription: true,
    planIdentifier: current?.planIdentifier ?? null,
    subscriptionId: current?.id ?? null,
    chargePeriod: current?.chargePeriod ?? null,
  };
}

const PERIOD_NAMES: Record<string, string> = {
  ONE_TIME: 'One Time',
  DAILY: 'Daily',
  WEEKLY: 'Weekly',
  TWENTY_EIGHT_DAYS: 'Every 28 Days',
  MONTHLY: 'Monthly',
  QUARTERLY: 'Quarterly',
  THREE_MONTHS: 'Every 3 Months',
  SIX_MONTHS: 'Every 6 Months',
  YEARLY: 'Yearly',
};

const periodRank = (period: string): number => {
  const index = (CHARGE_PERIODS as readonly string[]).indexOf(period);
  return index === -1 ? CHARGE_PERIODS.length : index;
};

/** "MONTHLY" -> "Monthly"; an unknown period is title-cased from its name. */
export function periodDisplayName(period: string): string {
  return (
    PERIOD_NAMES[period] ??
    period
      .toLowerCase()
      .split('_')
      .map((word) => word.charAt(0).toUpperCase() + word.slice(1))
      .join(' ')
  );
}

/** The locale prices are formatted with: English, with the buyer's country's conventions when it is known. */
export function pricingLocaleOf(countryCode: string | null): string {
  if (!countryCode) return 'en-US';
  try {
    return Intl.getCanonicalLocales(`en-${countryCode}`)[0] ?? 'en-US';
  } catch {
    return 'en-US';
  }
}

/** The symbol the locale writes the currency with: "$" for USD in en-US, "CA$" for CAD there, "€" for EUR. */
export function currencySymbol(currency: string, locale: string): string {
  const parts = new Intl.NumberFormat(locale, { style: 'currency', currency }).formatToParts(0);
  return parts.find((p) => p.type === 'currency')?.value ?? currency;
}

/**
 * Charges are stored inside their price, without ids of their own. Published
 * prices never change, so an id derived from the price id, the feature and
 * the period (a name-based UUID, version 8) is stable across calls.
 */
export function chargeId(priceId: string, feature: string | null, chargePeriod: string): string {
  const hex = createHash('sha256').update(`${priceId}|${feature ?? ''}|${chargePeriod}`).digest('hex');
  const variant = ((parseInt(hex[16]!, 16) & 0x3) | 0x8).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-8${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

type PresentedEntry = PlanPrice['chargeCatalogPrice'][number];

function chargesOf(priceId: string, entry: PresentedEntry): OfferingCharge[] {
  const unitPriced = entry.priceModel === 'FLAT' || entry.priceModel === 'PACKAGE';
  return entry.charges.map((charge) => ({
    id: chargeId(priceId, entry.feature, charge.chargePeriod),
    chargePeriod: charge.chargePeriod,
    tiers: charge.tiers,
    priceData: charge.priceData,
    details: {},
    advanced: charge.advanced,
    featureQuantityPrice: unitPriced ? charge.priceData.amount : null,
  }));
}

/**
 * The price a plan is shown with: its enabled price in the target currency,
 * else in the product's currency, else its first enabled price.
 */
export function choosePrice<P extends { price: StoredPrice }>(
  prices: P[],
  target: string,
  productCurrency: string | null,
): P | null {
  const enabled = prices.filter((p) => p.price.enabled);
  return (
    enabled.find((p) => p.price.currency === target) ??
    (productCurrency ? enabled.find((p) => p.price.currency === productCurrency) : undefined) ??
    enabled[0] ??
    null
  );
}

function featureEntry(
  feature: OfferingFeatureInput,
  details: EntitlementDetails | null,
  priced: { entry: PresentedEntry; priceId: string } | undefined,
): OfferingFeature {
  return {
    id: feature.id,
    identifier: feature.identifier,
    name: feature.name,
    description: feature.description,
    featureType: feature.featureType,
    featureDetails: feature.featureDetails,
    metadata: feature.metadata,
    isArchived: feature.isArchived,
    enabled: true,
    displayName: feature.name,
    displayDescription: feature.description,
    displayTooltipDescription: false,
    details,
    value: details?.value ?? null,
    hasUnlimitedUsage: details?.hasUnlimitedUsage ?? priced?.entry.hasUnlimitedUsage ?? false,
    hardLimit: details ? details.hardLimit : null,
    reset: details?.reset ?? priced?.entry.reset ?? null,
    resetTime: details?.resetTime ?? priced?.entry.resetTime ?? null,
    priceModel: priced?.entry.priceModel ?? null,
    paymentType: priced?.entry.paymentType ?? null,
    charges: priced ? chargesOf(priced.priceId, priced.entry) : null,
  };
}

function planEntry(
  plan: OfferingPlanInput,
  chosen: { id: string; price: StoredPrice },
  features: Map<string, OfferingFeatureInput>,
): OfferingPlan {
  const presented = presentPrice(promotedPrice(chosen.price, plan.promotionPercent ?? 0), chosen.id, plan.version);
  const base = presented.chargeCatalogPrice.find((e) => e.feature === null);
  const baseCharges = base ? chargesOf(chosen.id, base) : [];
  // The list price before any promotion: a page strikes it through when a charge shows less.
  const listed = presentPrice(chosen.price, chosen.id, plan.version).chargeCatalogPrice.find((e) => e.feature === null);
  const originalPrice: Record<string, number> = {};
  for (const charge of listed?.charges ?? []) {
    if (charge.priceData.amount !== null) originalPrice[charge.chargePeriod] = charge.priceData.amount;
  }
  const pricedFeatures = new Map<string, { entry: PresentedEntry; priceId: string }>();
  for (const entry of presented.chargeCatalogPrice) {
    if (entry.feature !== null) pricedFeatures.set(entry.feature, { entry, priceId: chosen.id });
  }
  const granted = new Set(plan.entitlements.map((e) => e.featureId));
  const featureEntries: OfferingFeature[] = [];
  for (const entitlement of plan.entitlements) {
    const feature = features.get(entitlement.featureId);
    if (feature) featureEntries.push(featureEntry(feature, entitlement.details, pricedFeatures.get(feature.id)));
  }
  // A feature that is priced but not granted (seats bought at checkout, say) still belongs on the page.
  for (const [featureId, priced] of pricedFeatures) {
    const feature = features.get(featureId);
    if (feature && !granted.has(featureId)) featureEntries.push(featureEntry(feature, null, priced));
  }
  return {
    name: plan.name,
    description: plan.description,
    identifier: plan.identifier,
    version: plan.version,
    details: {},
    isVisible: plan.isVisible,
    metadata: plan.metadata,
    basePlan: null,
    price: {
      id: chosen.id,
      priceType: presented.priceType,
      freeTrial: presented.freeTrial,
      trialPeriod: presented.trialPeriod,
      currency: presented.currency,
      enabled: presented.enabled,
      taxBehavior: presented.taxBehavior,
      charges: baseCharges,
    },
    originalPrice,
    features: featureEntries,
    shouldHighlight: false,
    enabled: true,
    displayName: plan.name,
    displayDescription: plan.description,
    includes: '',
  };
}

/** The charge periods the shown prices use, in the catalog's order; monthly is preselected when offered. */
export function billingPeriodsOf(plans: OfferingPlan[]): BillingPeriod[] {
  const periods = new Set<string>();
  for (const plan of plans) {
    for (const charge of plan.price.charges) periods.add(charge.chargePeriod);
    for (const feature of plan.features) for (const charge of feature.charges ?? []) periods.add(charge.chargePeriod);
  }
  const ordered = [...periods].sort((a, b) => periodRank(a) - periodRank(b) || a.localeCompare(b));
  const preselected = ordered.includes('MONTHLY') ? 'MONTHLY' : ordered[0];
  return ordered.map((chargePeriod) => ({
    chargePeriod,
    enabled: true,
    displayName: periodDisplayName(chargePeriod),
    promoCaption: '',
    defaultSelected: chargePeriod === preselected,
  }));
}

/** The product offering, from everything read for it. */
export function buildOffering(input: OfferingInput): ProductOffering {
  const firstEnabled = input.plans.flatMap((p) => p.prices).find((p) => p.price.enabled)?.price.currency;
  const currencyCode = input.requestedCurrency ?? input.productCurrency ?? firstEnabled ?? input.fallbackCurrency;
  const baseCurrencyCode = input.productCurrency ?? currencyCode;
  const plans: OfferingPlan[] = [];
  for (const plan of input.plans) {
    const chosen = choosePrice(plan.prices, currencyCode, input.productCurrency);
    // A published version always has an enabled price; a plan without one is not for sale and is left out.
    if (chosen) plans.push(planEntry(plan, chosen, input.features));
  }
  const pricingLocale = pricingLocaleOf(input.countryCode);
  return {
    organizationId: input.organizationId,
    countryCode: input.countryCode,
    pricingLocale,
    currencyCode,
    currencySymbol: currencySymbol(currencyCode, pricingLocale),
    currencyConversionRate: 1,
    baseCurrencyCode,
    baseCurrencySymbol: currencySymbol(baseCurrencyCode, pricingLocale),
    plans,
    subscription: input.subscription,
    isCustomerExists: input.isCustomerExists,
    billingPeriods: billingPeriodsOf(plans),
  };
}
