/**
 * The ratios of a period (docs/analytics.md), pure and exact: each is computed from the
 * period's exact MRR (336ths of a minor unit) and customer counts, and rounded once.
 * Rates are in basis points of one (10000 = 100 %); an amount in minor units. A figure whose
 * denominator is 0 is null: the dashboard says it cannot be told yet, never "0 %" or infinity.
 */
import { MONTH_PARTS } from '../billing/month-parts.compute.js';
import { divRoundHalfUp } from '../billing/rounding.compute.js';
import { REPORTING_SCALE, scaledConversion } from './conversion.compute.js';
import type { PeriodFigures } from './series.compute.js';

const ONE = 10_000n;

/** n / d in basis points, rounded half up; null when d is 0. */
export function basisPoints(n: bigint, d: bigint): number | null {
  return d === 0n ? null : Number(divRoundHalfUp(n * ONE, d));
}

export interface PeriodRatios {
  /** Customers lost in the period ÷ paying customers at its start. */
  customerChurnBp: number | null;
  /** MRR lost to churn and contraction ÷ MRR at the start (gross revenue churn). */
  revenueChurnBp: number | null;
  /** (MRR at the start + expansion − contraction − churn) ÷ MRR at the start; new and returning customers excluded. */
  netRevenueRetentionBp: number | null;
  /** MRR at the end ÷ paying customers at the end, minor units. */
  arpuMinor: number | null;
  /** ARPU ÷ the customer churn rate, minor units: what a customer brings over its expected life. */
  lifetimeValueMinor: number | null;
}

export function periodRatios(figures: PeriodFigures): PeriodRatios {
  const { sums, customers, endParts } = figures;
  const per = figures.per ?? MONTH_PARTS;
  const startParts = endParts - (sums.new + sums.expansion + sums.reactivation + sums.contraction + sums.churned);
  const lost = -(sums.contraction + sums.churned);
  const arpu = customers.end === 0 ? null : divRoundHalfUp(endParts, per * BigInt(customers.end));
  // ARPU × start ÷ churned, from the exact MRR: rounded once, not ARPU rounded then divided.
  const lifetime =
    customers.end === 0 || customers.churned === 0
      ? null
      : divRoundHalfUp(endParts * BigInt(customers.start), per * BigInt(customers.end) * BigInt(customers.churned));
  return {
    customerChurnBp: basisPoints(BigInt(customers.churned), BigInt(customers.start)),
    revenueChurnBp: basisPoints(lost, startParts),
    netRevenueRetentionBp: basisPoints(startParts + sums.expansion - lost, startParts),
    arpuMinor: arpu === null ? null : Number(arpu),
    lifetimeValueMinor: lifetime === null ? null : Number(lifetime),
  };
}

/** A rate between two currencies: one unit of `from` is `micros` millionths of one unit of `to`. */
export interface ExchangeRate {
  from: string;
  to: string;
  micros: bigint;
}

/**
 * A monthly amount in 336ths of a minor unit of `rate.from`, in minor units of `rate.to`,
 * converted exactly and rounded once. `fromDigits`/`toDigits`: the currencies' minor-unit digits.
 */
export function convertParts(parts: bigint, rate: ExchangeRate, fromDigits: number, toDigits: number): number {
  return Number(divRoundHalfUp(scaledConversion(parts, { digits: rate.micros, scale: 6 }, fromDigits, toDigits), MONTH_PARTS * REPORTING_SCALE));
}
