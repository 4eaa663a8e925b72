/**
 * The MRR series in the reporting currency (decision 0102), pure: for each period, every
 * converted currency's exact MRR and movements converted at its rate and summed exactly, then
 * rounded once as any period is, so the converted movements still add up to the converted
 * change of MRR. Currencies without a rate are left out; the conversion says which.
 */
import { MONTH_PARTS } from '../billing/month-parts.compute.js';
import type { StoredPrice } from '../catalog/prices/prices.compute.js';
import type { ReportingConversion } from '@billow/contract';
import { conversionStatement, decimalText, REPORTING_SCALE, scaledConversion, type Conversion, type PricePair } from './conversion.compute.js';
import { recurringNetMinor } from './mrr.compute.js';
import { MOVEMENT_KINDS, noMovements, roundPeriod } from './movements.compute.js';
import type { PeriodFigures } from './series.compute.js';

/** The figures of each period (in the order the series gives them) in the reporting currency. */
export function reportingFigures(figures: readonly PeriodFigures[], conversion: Conversion): PeriodFigures[] {
  const per = MONTH_PARTS * REPORTING_SCALE;
  const periods = new Map<string, PeriodFigures>();
  for (const f of figures) {
    let period = periods.get(f.label);
    if (!period) {
      const customers = { start: 0, end: 0, new: 0, reactivated: 0, churned: 0 };
      period = { label: f.label, currency: conversion.to, startMinor: 0, endMinor: 0, movements: { new: 0, expansion: 0, reactivation: 0, contraction: 0, churned: 0 }, endParts: 0n, sums: noMovements(), customers, per };
      periods.set(f.label, period);
    }
    const found = conversion.rates.find((r) => r.currency === f.currency);
    if (!found?.rate) continue;
    const convert = (parts: bigint) => scaledConversion(parts, found.rate!, found.digits, conversion.toDigits);
    period.endParts += convert(f.endParts);
    for (const kind of MOVEMENT_KINDS) period.sums[kind] += convert(f.sums[kind]);
    for (const key of Object.keys(period.customers) as (keyof typeof period.customers)[]) period.customers[key] += f.customers[key];
  }
  return [...periods.values()].map((period) => {
    const moved = MOVEMENT_KINDS.reduce((sum, kind) => sum + period.sums[kind], 0n);
    return { ...period, ...roundPeriod(period.endParts - moved, period.sums, per) };
  });
}

/** The charge periods a price charges in. */
function chargePeriodsOf(price: StoredPrice): Set<string> {
  return new Set(price.chargeCatalogPrice.flatMap((entry) => entry.charges.map((charge) => charge.chargePeriod)));
}

/**
 * For each plan priced in both currencies, and each charge period both prices have, what one
 * period of it costs in each (with no quantities, before any discount or tax): the pairs a
 * derived rate compares.
 */
export function pricePairs(prices: readonly { planId: string; price: StoredPrice }[], from: string, to: string): PricePair[] {
  const byPlan = new Map<string, Map<string, StoredPrice>>();
  for (const { planId, price } of prices) {
    const plan = byPlan.get(planId) ?? new Map<string, StoredPrice>();
    if (!plan.has(price.currency)) plan.set(price.currency, price);
    byPlan.set(planId, plan);
  }
  const pairs: PricePair[] = [];
  for (const [plan, currencies] of byPlan) {
    const [source, target] = [currencies.get(from), currencies.get(to)];
    if (!source || !target) continue;
    const targetPeriods = chargePeriodsOf(target);
    for (const chargePeriod of chargePeriodsOf(source)) {
      if (!targetPeriods.has(chargePeriod)) continue;
      const once = (price: StoredPrice) => recurringNetMinor({ chargePeriod, price, quantities: {}, discount: null, taxRateBp: 0 });
      const [fromMinor, toMinor] = [once(source), once(target)];
      if (fromMinor && toMinor && fromMinor > 0 && toMinor > 0) pairs.push({ plan, fromMinor: BigInt(fromMinor), toMinor: BigInt(toMinor) });
    }
  }
  return pairs;
}

/** A conversion as the API states it. */
export function conversionView(conversion: Conversion): ReportingConversion {
  return {
    currency: conversion.to,
    rates: conversion.rates.map(({ currency, rate, origin }) => ({
      currency,
      rate: rate && decimalText(rate),
      source: origin.source,
      setOn: origin.source === 'seller' ? origin.setAt.toISOString() : null,
      setBy: origin.source === 'seller' ? origin.setBy : null,
      plans: origin.source === 'plans' ? origin.plans : null,
    })),
    notConverted: conversion.rates.filter((r) => !r.rate).map((r) => r.currency),
    statement: conversionStatement(conversion),
  };
}
