/**
 * The vocabulary of billing maths. Every amount is an integer in the minor
 * unit of `currency`; rates are integers in basis points (1 % = 100 bp).
 */

export type TaxBehavior = 'INCLUSIVE' | 'EXCLUSIVE' | 'UNSPECIFIED';

/** Why a sale carries its tax rate (tax.compute.ts taxDecision). */
export type TaxReason = 'standard' | 'reverse_charge' | 'no_rate' | 'no_country';

/** A buyer's business tax id as a tax decision records it. */
export interface BuyerTaxId {
  type: string;
  value: string;
  country: string;
}

export interface QuoteLine {
  /** What the line is for, e.g. "Growth (MONTHLY)" or "Seats × 12". */
  description: string;
  /** The feature a usage line prices; null for the plan's base charge. */
  featureId: string | null;
  quantity: number;
  /** Before discount and tax (for INCLUSIVE prices: the tax-inclusive amount). */
  amountMinor: number;
  /**
   * What the invoice says of the line (decision 0064), when the line was priced with it:
   * the plan's base charge, a feature bought in advance, usage billed in arrears, the
   * unused time of a plan given back, or a new plan for the rest of a period.
   */
  kind?: QuoteLineKind;
  /** The plan's or the feature's name, without the period. */
  name?: string;
  /** The charge period the line pays for (MONTHLY, YEARLY, ONE_TIME...). */
  chargePeriod?: string;
  /** The price of one unit, when every unit costs the same (a FLAT price). */
  unitMinor?: number;
}

export type QuoteLineKind = 'plan' | 'feature' | 'usage' | 'unused' | 'remaining';

export interface Quote {
  currency: string;
  chargePeriod: string;
  lines: QuoteLine[];
  /** Sum of the lines as priced (tax-inclusive for INCLUSIVE prices). */
  subtotalMinor: number;
  discountMinor: number;
  taxMinor: number;
  /** What the customer pays. */
  totalMinor: number;
  taxRateBp: number;
  taxBehavior: TaxBehavior;
  taxCountry: string | null;
  /** Why the rate (taxDecision); absent where no decision was made (tests of the maths alone). */
  taxReason?: TaxReason;
  buyerTaxId?: BuyerTaxId | null;
}

export interface Discount {
  percentOffBp?: number;
  amountOffMinor?: number;
}

export interface FeeLine {
  name: 'base_fee' | 'fixed_fee' | 'international_fee' | 'subscription_fee' | 'conversion_fee' | 'fee_adjustment';
  /** As text, e.g. "2.9"; null for fixed amounts. */
  percentage: string | null;
  valueUnits: number;
  currency: string;
}

export interface Fees {
  totalMinor: number;
  breakdown: FeeLine[];
}

export interface Proration {
  /** Unused part of the current period's amount, given back. */
  creditMinor: number;
  /** The new plan's amount for the rest of the period. */
  chargeMinor: number;
  /** chargeMinor − creditMinor: positive is collected now, negative becomes customer credit. */
  netMinor: number;
}
