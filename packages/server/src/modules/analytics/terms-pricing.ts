/**
 * A subscription's recurring terms as a row states them (Home's MRR reads them grouped,
 * the analytics job from the terms log), priced into what a month of it is worth.
 */
import type { Discount } from '../billing/types.js';
import { partsOfAMonth } from '../billing/month-parts.compute.js';
import type { StoredPrice } from '../catalog/prices/prices.compute.js';
import { overriddenPrice } from '../purchases/purchase.js';
import { recurringNetMinor } from './mrr.compute.js';

export interface TermsRow {
  charge_period: string;
  quantities: unknown;
  custom_amount_minor: number | string | null;
  custom_tax_behavior: 'INCLUSIVE' | 'EXCLUSIVE' | null;
  promotion_percent: number | null;
  discount_type: string | null;
  percent_off_bp: number | null;
  discount_amount_minor: number | string | null;
  tax_rate_bp: number | null;
  /** The log's usage of the last closed period; Home's grouped rows have none. */
  usage?: Record<string, number | string> | null;
}

/** The discount a renewal of the row applies: the one it carries (with cycles left), else its promotion. */
export function discountOf(row: TermsRow): Discount | null {
  if (row.discount_type === 'PERCENTAGE') return { percentOffBp: row.percent_off_bp ?? 0 };
  if (row.discount_type === 'FIXED_AMOUNT') return { amountOffMinor: Number(row.discount_amount_minor ?? 0) };
  return row.promotion_percent ? { percentOffBp: row.promotion_percent * 100 } : null;
}

/** One period's recurring amount after the discount and before tax, minor units; null when it cannot be priced or does not recur. */
export function recurringNetOfRow(row: TermsRow, listed: StoredPrice): number | null {
  const custom = row.custom_amount_minor === null ? null : Number(row.custom_amount_minor);
  const price = custom && row.custom_tax_behavior ? overriddenPrice(listed, row.charge_period, { amountMinor: custom, taxBehavior: row.custom_tax_behavior }) : listed;
  const quantities = (row.quantities ?? {}) as Record<string, number>;
  const usage = row.usage ? Object.fromEntries(Object.entries(row.usage).map(([feature, used]) => [feature, Number(used)])) : undefined;
  return recurringNetMinor({ chargePeriod: row.charge_period, price, quantities, discount: discountOf(row), taxRateBp: row.tax_rate_bp ?? 0, ...(usage ? { usage } : {}) });
}

/** What a month of the row is worth, in 336ths of a minor unit: 0 when it does not count or cannot be priced. */
export function monthlyPartsOfRow(row: TermsRow, listed: StoredPrice | undefined): bigint {
  const net = listed ? recurringNetOfRow(row, listed) : null;
  const parts = partsOfAMonth(row.charge_period);
  return net === null || net <= 0 || parts === undefined ? 0n : BigInt(net) * parts;
}
