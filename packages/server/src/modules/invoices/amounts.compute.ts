/**
 * The amounts an invoice prints per line and per tax rate (decision 0064), from what it
 * recorded as a whole: the discount and the tax are shared among the lines in proportion,
 * so that the lines add up to the invoice exactly. Pure, integer minor units, BigInt.
 */
import { divRoundHalfUp } from '../billing/rounding.compute.js';

export interface AmountsInput {
  /** Each line's amount as priced (tax included for INCLUSIVE prices). */
  lineAmounts: number[];
  /** The discount, without customer credit. */
  discountMinor: number;
  taxMinor: number;
  taxRateBp: number;
  taxBehavior: string;
}

export interface LineAmounts {
  discountMinor: number;
  /** The taxable amount of the line, without tax. */
  netMinor: number;
  taxMinor: number;
}

export interface RateAmounts {
  taxRateBp: number;
  netMinor: number;
  taxMinor: number;
}

/**
 * `total` shared by `weights`: each share is the rounded running total less the one
 * before, so the shares add up to `total` whatever the rounding (weights may be negative).
 */
export function share(total: number, weights: number[]): number[] {
  const sum = weights.reduce((acc, w) => acc + BigInt(w), 0n);
  if (sum === 0n) return weights.map(() => 0);
  const t = BigInt(total);
  let running = 0n;
  let before = 0n;
  return weights.map((w) => {
    running += BigInt(w);
    const upTo = divRoundHalfUp(t * running, sum < 0n ? -sum : sum) * (sum < 0n ? -1n : 1n);
    const part = upTo - before;
    before = upTo;
    return Number(part);
  });
}

/** Each line's discount (over the lines that cost something), taxable amount and tax. */
export function lineAmounts(input: AmountsInput): LineAmounts[] {
  const positive = input.lineAmounts.map((a) => (a > 0 ? a : 0));
  const discounts = share(input.discountMinor, positive);
  const taxable = input.lineAmounts.map((a, i) => a - discounts[i]!);
  const taxes = share(input.taxMinor, taxable);
  const inclusive = input.taxBehavior === 'INCLUSIVE';
  return taxable.map((amount, i) => ({
    discountMinor: discounts[i]!,
    netMinor: inclusive ? amount - taxes[i]! : amount,
    taxMinor: taxes[i]!,
  }));
}

/** The lines' taxable amounts and taxes summed per rate, lowest rate first. */
export function rateTotals(lines: Array<LineAmounts & { taxRateBp: number }>): RateAmounts[] {
  const byRate = new Map<number, RateAmounts>();
  for (const line of lines) {
    const rate = byRate.get(line.taxRateBp) ?? { taxRateBp: line.taxRateBp, netMinor: 0, taxMinor: 0 };
    rate.netMinor += line.netMinor;
    rate.taxMinor += line.taxMinor;
    byRate.set(line.taxRateBp, rate);
  }
  return [...byRate.values()].sort((a, b) => a.taxRateBp - b.taxRateBp);
}
