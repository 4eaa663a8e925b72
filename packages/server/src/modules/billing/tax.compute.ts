import { EU_COUNTRIES } from '../../lib/countries.js';
import { divRoundHalfUp, exact, toNumber } from './rounding.compute.js';
import type { BuyerTaxId, TaxBehavior, TaxReason } from './types.js';

/**
 * Standard VAT/GST rates for digital services (SaaS, software, e-services) sold
 * to consumers, in basis points (19 % = 1900), by ISO 3166-1 alpha-2 country.
 * Rates in force on 1 September 2025. This is the only place Billow keeps tax
 * rates; a seller-configurable table (reduced rates, US sales tax) is to come;
 * the EU's B2B reverse charge is taxDecision's. Countries not listed, and the United States, are 0.
 */
export const TAX_RATES_BP: Readonly<Record<string, number>> = Object.freeze({
  // European Union
  AT: 2000, // Austria
  BE: 2100, // Belgium
  BG: 2000, // Bulgaria
  HR: 2500, // Croatia
  CY: 1900, // Cyprus
  CZ: 2100, // Czechia
  DK: 2500, // Denmark
  EE: 2400, // Estonia (24 % since 1 July 2025)
  FI: 2550, // Finland (25.5 % since 1 September 2024)
  FR: 2000, // France
  DE: 1900, // Germany
  GR: 2400, // Greece
  HU: 2700, // Hungary
  IE: 2300, // Ireland
  IT: 2200, // Italy
  LV: 2100, // Latvia
  LT: 2100, // Lithuania
  LU: 1700, // Luxembourg
  MT: 1800, // Malta
  NL: 2100, // Netherlands
  PL: 2300, // Poland
  PT: 2300, // Portugal (mainland)
  RO: 2100, // Romania (21 % since 1 August 2025)
  SK: 2300, // Slovakia (23 % since 1 January 2025)
  SI: 2200, // Slovenia
  ES: 2100, // Spain (mainland)
  SE: 2500, // Sweden
  // Elsewhere
  GB: 2000, // United Kingdom, VAT
  NO: 2500, // Norway, VAT
  CH: 810, // Switzerland, VAT (8.1 % since 1 January 2024)
  AU: 1000, // Australia, GST
  NZ: 1500, // New Zealand, GST
  CA: 500, // Canada, federal GST only (provincial HST/PST not applied)
  IN: 1800, // India, GST on online services (OIDAR)
  JP: 1000, // Japan, consumption tax
  SG: 900, // Singapore, GST (9 % since 1 January 2024)
  US: 0, // United States: no federal sales tax; state taxes are not computed
});

/** The standard rate of the country in basis points; 0 for the US, unknown countries and null. */
export function taxRateBp(country: string | null): number {
  if (!country) return 0;
  return TAX_RATES_BP[country.trim().toUpperCase()] ?? 0;
}

export interface TaxDecision {
  rateBp: number;
  /** The country whose tax applies (the VAT id's, for a reverse charge); null: unknown. */
  country: string | null;
  reason: TaxReason;
  /** The buyer's tax id the decision relied on, or printed with it; null: none. */
  buyerTaxId: BuyerTaxId | null;
}

/**
 * What tax a sale carries, and why. A buyer with an EU VAT id of a member state where the
 * seller has no registration (seller profile) is charged none: the buyer accounts for the
 * VAT (reverse charge, Art. 196 of Directive 2006/112/EC). Otherwise the standard rate of the
 * buyer's billing country (`no_rate`: a country Billow charges nothing in; `no_country`: unknown).
 */
export function taxDecision(input: {
  buyerCountry: string | null;
  buyerTaxIds: readonly BuyerTaxId[];
  sellerCountries: readonly string[];
}): TaxDecision {
  const vat = input.buyerTaxIds.find((id) => id.type === 'eu_vat' && EU_COUNTRIES.has(id.country));
  if (vat && !input.sellerCountries.includes(vat.country)) {
    return { rateBp: 0, country: vat.country, reason: 'reverse_charge', buyerTaxId: pick(vat) };
  }
  const country = input.buyerCountry ? input.buyerCountry.trim().toUpperCase() : null;
  const printed = input.buyerTaxIds.find((id) => id.country === country) ?? input.buyerTaxIds[0];
  const buyerTaxId = printed ? pick(printed) : null;
  if (!country) return { rateBp: 0, country: null, reason: 'no_country', buyerTaxId };
  const rateBp = taxRateBp(country);
  return { rateBp, country, reason: rateBp > 0 ? 'standard' : 'no_rate', buyerTaxId };
}

const pick = (id: BuyerTaxId): BuyerTaxId => ({ type: id.type, value: id.value, country: id.country });

/**
 * Splits an amount into net, tax and gross. EXCLUSIVE (and UNSPECIFIED): the
 * amount is net and the tax, round_half_up(amount × rate / 10000), is added on
 * top. INCLUSIVE: the amount is gross and already holds the tax, which is
 * amount − round_half_up(amount × 10000 / (10000 + rate)). Exact integers.
 */
export function splitTax(
  amountMinor: number,
  rateBp: number,
  behavior: TaxBehavior,
): { netMinor: number; taxMinor: number; grossMinor: number } {
  const amount = exact(amountMinor, 'the taxed amount');
  const rate = exact(rateBp, 'the tax rate');
  if (rate < 0n) throw new RangeError(`the tax rate must not be negative, got ${rateBp}`);
  if (behavior === 'INCLUSIVE') {
    const net = divRoundHalfUp(amount * 10_000n, 10_000n + rate);
    return { netMinor: toNumber(net, 'the net amount'), taxMinor: toNumber(amount - net, 'the tax'), grossMinor: amountMinor };
  }
  const tax = divRoundHalfUp(amount * rate, 10_000n);
  return { netMinor: amountMinor, taxMinor: toNumber(tax, 'the tax'), grossMinor: toNumber(amount + tax, 'the gross amount') };
}
