import { MAX_MINOR_AMOUNT } from '../../lib/money.js';
import type { StoredCharge, StoredChargeCatalogPrice, StoredPrice, StoredTier } from '../catalog/prices/prices.compute.js';
import { divRoundHalfUp } from './rounding.compute.js';
import { splitTax } from './tax.compute.js';
import type { BuyerTaxId, Discount, Quote, QuoteLine, TaxReason } from './types.js';

/** A purchase that cannot be priced; the message names what is missing or wrong (a 400 for the API). */
export class PricingError extends Error {
  override name = 'PricingError';
}

const LIMIT = BigInt(MAX_MINOR_AMOUNT);

/** Refuses amounts beyond MAX_MINOR_AMOUNT, so every sum that follows stays exact. */
function checked(value: bigint, what: string): number {
  if (value > LIMIT) throw new PricingError(`${what} is too large`);
  return Number(value);
}

function orZero(value: number | null | undefined): bigint {
  return BigInt(value ?? 0);
}

function tiersOf(charge: StoredCharge, priceModel: string): StoredTier[] {
  if (charge.tiers.length === 0) throw new PricingError(`a ${priceModel} price has no tiers`);
  return charge.tiers;
}

/** Tier bounds are inclusive: a tier with upTo 10 holds units 1 to 10, the next one starts at 11. */
function tierHolding(tiers: StoredTier[], quantity: number): StoredTier {
  const tier = tiers.find((t) => t.upTo === 'inf' || quantity <= t.upTo);
  if (!tier) throw new PricingError(`no tier holds a quantity of ${quantity}; the last tier must be "inf"`);
  return tier;
}

/**
 * The price of `quantity` units, in minor units. A quantity of 0 costs 0 in
 * every model (nothing bought, no tier reached).
 * - FLAT: amount × quantity.
 * - PACKAGE: amount × ceil(quantity / blockSize); a started block counts whole.
 * - TIERED (graduated): each tier's units at its unitAmount, plus the flatAmount of every tier reached.
 * - VOLUME: every unit at the unitAmount of the tier the total falls in, plus that tier's flatAmount.
 * - STAIRSTEP: the flatAmount of the tier the total falls in.
 */
export function priceQuantity(charge: StoredCharge, priceModel: string, quantity: number): number {
  if (!Number.isSafeInteger(quantity) || quantity < 0) {
    throw new PricingError(`the quantity must be a whole number of at least 0, got ${quantity}`);
  }
  const q = BigInt(quantity);
  switch (priceModel) {
    case 'FLAT': {
      if (charge.amount === null) throw new PricingError('a FLAT price has no amount');
      return checked(BigInt(charge.amount) * q, 'the amount');
    }
    case 'PACKAGE': {
      if (charge.amount === null) throw new PricingError('a PACKAGE price has no amount');
      const size = charge.blockSize;
      if (size === undefined || !Number.isSafeInteger(size) || size < 1) {
        throw new PricingError(`a PACKAGE price needs a block size of at least 1, got ${size}`);
      }
      const blocks = (q + BigInt(size) - 1n) / BigInt(size);
      return checked(BigInt(charge.amount) * blocks, 'the amount');
    }
    case 'TIERED': {
      const tiers = tiersOf(charge, priceModel);
      let total = 0n;
      let below = 0n; // the units the tiers before this one hold
      for (const tier of tiers) {
        if (q <= below) break;
        const top = tier.upTo === 'inf' ? q : BigInt(tier.upTo);
        const units = (q < top ? q : top) - below;
        total += units * orZero(tier.unitAmount) + orZero(tier.flatAmount);
        below = top;
      }
      if (q > below) throw new PricingError(`no tier holds a quantity of ${quantity}; the last tier must be "inf"`);
      return checked(total, 'the amount');
    }
    case 'VOLUME': {
      const tiers = tiersOf(charge, priceModel);
      if (quantity === 0) return 0;
      const tier = tierHolding(tiers, quantity);
      return checked(q * orZero(tier.unitAmount) + orZero(tier.flatAmount), 'the amount');
    }
    case 'STAIRSTEP': {
      const tiers = tiersOf(charge, priceModel);
      if (quantity === 0) return 0;
      return checked(orZero(tierHolding(tiers, quantity).flatAmount), 'the amount');
    }
    default:
      throw new PricingError(`unknown price model "${priceModel}"`);
  }
}

export interface PurchaseRequest {
  price: StoredPrice;
  chargePeriod: string;
  /** Feature id -> quantity, for ADVANCE_COMMITMENT features. */
  quantities: Record<string, number>;
  /** Feature id -> units used in the period that ended, for PAY_AS_YOU_GO features billed at renewal. */
  arrears?: Record<string, number>;
  /** Only the usage in `arrears`: the last bill of a period that ends with no next one (a cancellation, a change). */
  arrearsOnly?: boolean;
  /**
   * The price the usage in `arrears` was sold at, when it is not `price`: a renewal that moves the
   * subscription to a newer version's price (decision 0113) bills the period that ended at its old rates.
   */
  arrearsPrice?: StoredPrice;
  discount?: Discount;
  taxRateBp: number;
  taxCountry: string | null;
  taxReason?: TaxReason;
  buyerTaxId?: BuyerTaxId | null;
  planName: string;
  /** Feature id -> display name for line descriptions. */
  featureNames?: Record<string, string>;
}

function discountOf(subtotal: number, discount: Discount | undefined): number {
  if (!discount) return 0;
  const percent = discount.percentOffBp ?? 0;
  const amount = discount.amountOffMinor ?? 0;
  if (!Number.isSafeInteger(percent) || percent < 0 || percent > 10_000) {
    throw new PricingError(`a percentage discount lies between 0 and 100 %, got ${percent} basis points`);
  }
  if (!Number.isSafeInteger(amount) || amount < 0) {
    throw new PricingError(`a fixed discount is a whole number of minor units of at least 0, got ${amount}`);
  }
  const percentOff = divRoundHalfUp(BigInt(subtotal) * BigInt(percent), 10_000n);
  const total = percentOff + BigInt(amount);
  return total > BigInt(subtotal) ? subtotal : Number(total);
}

/** The price of one unit where all units cost the same (a FLAT price), for the invoice's words. */
function unitOf(charge: StoredCharge, priceModel: string): { unitMinor?: number } {
  return priceModel === 'FLAT' && charge.amount !== null ? { unitMinor: charge.amount } : {};
}

/** The PAY_AS_YOU_GO lines of a renewal: each unit used in the period that ended, priced by its model. */
function arrearsLines(request: PurchaseRequest, names: Record<string, string>): QuoteLine[] {
  const lines: QuoteLine[] = [];
  for (const entry of (request.arrearsPrice ?? request.price).chargeCatalogPrice) {
    const used = entry.feature === null ? 0 : (request.arrears?.[entry.feature] ?? 0);
    if (entry.paymentType !== 'PAY_AS_YOU_GO' || used <= 0 || entry.feature === null) continue;
    // PAY_AS_YOU_GO is sold with a MONTHLY charge only (prices.compute.ts).
    const charge = entry.charges.find((c) => c.chargePeriod === 'MONTHLY') ?? entry.charges[0];
    if (!charge) continue;
    const name = names[entry.feature] ?? entry.feature;
    const amountMinor = priceQuantity(charge, entry.priceModel, used);
    lines.push({ description: `${name}: ${used} used`, featureId: entry.feature, quantity: used, amountMinor, kind: 'usage', name, ...unitOf(charge, entry.priceModel) });
  }
  return lines;
}

/**
 * What a purchase costs: the plan's base charge for the period, the
 * ADVANCE_COMMITMENT features at the quantities bought, then the discount
 * (percentage first, then the fixed amount, never more than the subtotal),
 * then tax on what remains, by the price's tax behaviour.
 * PAY_AS_YOU_GO features bill in arrears: a line each for the usage in `arrears`
 * (a renewal), none on a purchase; `arrearsOnly` bills that usage alone.
 */
export function quotePurchase(request: PurchaseRequest): Quote {
  const { price, chargePeriod } = request;
  const names = request.featureNames ?? {};
  const lines: QuoteLine[] = request.arrearsOnly ? [] : committedLines(request);
  lines.push(...arrearsLines(request, names));
  const subtotalMinor = checked(
    lines.reduce((sum, line) => sum + BigInt(line.amountMinor), 0n),
    'the subtotal',
  );
  const discountMinor = discountOf(subtotalMinor, request.discount);
  const { taxMinor, grossMinor } = splitTax(subtotalMinor - discountMinor, request.taxRateBp, price.taxBehavior);
  return {
    currency: price.currency,
    chargePeriod,
    lines,
    subtotalMinor,
    discountMinor,
    taxMinor,
    totalMinor: grossMinor,
    taxRateBp: request.taxRateBp,
    taxBehavior: price.taxBehavior,
    taxCountry: request.taxCountry,
    ...(request.taxReason ? { taxReason: request.taxReason, buyerTaxId: request.buyerTaxId ?? null } : {}),
  };
}

/** Whether `price` bills a period of `chargePeriod` at these quantities: what moving a subscription onto it needs. */
export function pricesPeriod(price: StoredPrice, chargePeriod: string, quantities: Record<string, number>): boolean {
  try {
    committedLines({ price, chargePeriod, quantities, planName: '', taxRateBp: 0, taxCountry: null });
    return true;
  } catch (error) {
    if (error instanceof PricingError) return false;
    throw error;
  }
}

/** The lines paid in advance: the plan's base charge for the period, and the committed features at their quantities. */
function committedLines(request: PurchaseRequest): QuoteLine[] {
  const { price, chargePeriod, planName } = request;
  const currency = price.currency;
  const names = request.featureNames ?? {};
  const nameOf = (featureId: string) => `"${names[featureId] ?? featureId}"`;
  const quantities = request.quantities ?? {};
  const chargeFor = (entry: StoredChargeCatalogPrice) => entry.charges.find((c) => c.chargePeriod === chargePeriod);
  const byFeature = new Map<string, StoredChargeCatalogPrice>();
  for (const entry of price.chargeCatalogPrice) if (entry.feature !== null) byFeature.set(entry.feature, entry);
  for (const featureId of Object.keys(quantities)) {
    const entry = byFeature.get(featureId);
    if (!entry) throw new PricingError(`plan "${planName}" does not sell feature ${nameOf(featureId)} in ${currency}`);
    if (entry.paymentType !== 'PAY_AS_YOU_GO' && !chargeFor(entry)) {
      throw new PricingError(`plan "${planName}" has no ${chargePeriod} charge for feature ${nameOf(featureId)} in ${currency}`);
    }
  }
  const lines: QuoteLine[] = [];
  const base = price.chargeCatalogPrice.find((e) => e.feature === null);
  const baseCharge = base ? chargeFor(base) : undefined;
  if (base && baseCharge) {
    const amountMinor = priceQuantity(baseCharge, base.priceModel, 1);
    lines.push({ description: `${planName} (${chargePeriod})`, featureId: null, quantity: 1, amountMinor, kind: 'plan', name: planName, chargePeriod });
  } else if (price.priceType === 'FREE' || price.priceType === 'CUSTOM') {
    lines.push({ description: `${planName} (${chargePeriod})`, featureId: null, quantity: 1, amountMinor: 0, kind: 'plan', name: planName, chargePeriod });
  } else {
    throw new PricingError(`plan "${planName}" has no ${chargePeriod} charge in ${currency}`);
  }

  for (const entry of price.chargeCatalogPrice) {
    if (entry.feature === null || entry.paymentType === 'PAY_AS_YOU_GO') continue;
    const charge = chargeFor(entry);
    if (!charge) continue;
    const featureId = entry.feature;
    const { minQuantity, maxQuantity } = charge.advanced;
    const quantity = quantities[featureId] ?? minQuantity ?? 0;
    if (!Number.isSafeInteger(quantity) || quantity < 0) {
      throw new PricingError(`feature ${nameOf(featureId)}: the quantity must be a whole number of at least 0, got ${quantity}`);
    }
    if (minQuantity !== undefined && quantity < minQuantity) {
      throw new PricingError(`feature ${nameOf(featureId)}: the quantity ${quantity} is below the minimum of ${minQuantity}`);
    }
    if (maxQuantity !== undefined && quantity > maxQuantity) {
      throw new PricingError(`feature ${nameOf(featureId)}: the quantity ${quantity} is above the maximum of ${maxQuantity}`);
    }
    let amountMinor: number;
    try {
      amountMinor = priceQuantity(charge, entry.priceModel, quantity);
    } catch (error) {
      if (error instanceof PricingError) throw new PricingError(`feature ${nameOf(featureId)}: ${error.message}`);
      throw error;
    }
    const name = names[featureId] ?? featureId;
    lines.push({ description: `${name} × ${quantity}`, featureId, quantity, amountMinor, kind: 'feature', name, chargePeriod, ...unitOf(charge, entry.priceModel) });
  }
  return lines;
}
