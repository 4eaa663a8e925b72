import { currencyDigits } from '../../lib/money.js';
import { divRoundHalfUp, exact, percentText, toNumber } from './rounding.compute.js';
import type { FeeLine, Fees } from './types.js';

/** The merchant-of-record fee schedule; rates in basis points, amounts in minor units. */
export interface FeeSchedule {
  /** Percentage on the gross while the organization's volume is below the threshold. */
  basePercentBp: number;
  /** Percentage on the gross once the volume has reached the threshold. */
  highVolumeBasePercentBp: number;
  /** The organization's cumulative volume, in US cents, from which the high-volume rate applies. */
  highVolumeThresholdUsdMinor: number;
  /** Fixed fee per charge by currency, in that currency's minor unit; see fixedFeeFor for currencies not listed. */
  fixedFeeMinor: Record<string, number>;
  /** Added for recurring (subscription) charges. */
  subscriptionPercentBp: number;
  /** Added for cards issued outside the seller's country. */
  internationalPercentBp: number;
}

/**
 * 0.40 USD in the currencies whose minor unit is the whole unit (no
 * decimals), rounded to a plain figure at rates of late 2025. Every other
 * currency pays 0.40 of its own major unit (40 for USD and EUR, 400 for KWD).
 */
const ZERO_DECIMAL_FIXED_FEES: Record<string, number> = {
  CLP: 380,
  COP: 1600,
  HUF: 140,
  IDR: 6500,
  ISK: 55,
  JPY: 60,
  KRW: 550,
  PKR: 115,
  PYG: 3200,
  UGX: 1500,
  VND: 10000,
  XAF: 230,
  XOF: 230,
};

/** The reference's fees page: 2.9 % + 0.40, 3.5 % + 0.40 from 5,000 USD of volume, +0.7 % recurring, +1.5 % international. */
export const DEFAULT_FEE_SCHEDULE: FeeSchedule = Object.freeze({
  basePercentBp: 290,
  highVolumeBasePercentBp: 350,
  highVolumeThresholdUsdMinor: 500_000,
  fixedFeeMinor: Object.freeze({ USD: 40, EUR: 40, GBP: 40, ...ZERO_DECIMAL_FIXED_FEES }),
  subscriptionPercentBp: 70,
  internationalPercentBp: 150,
});

/**
 * The fixed fee in the currency: the schedule's entry, else 0.40 of the
 * currency's major unit rounded half up to its minor unit (40 with 2 decimals,
 * 400 with 3; 0 for a currency without decimals that the table does not list).
 */
export function fixedFeeFor(currency: string, schedule: FeeSchedule = DEFAULT_FEE_SCHEDULE): number {
  const listed = schedule.fixedFeeMinor[currency];
  if (listed !== undefined) return listed;
  const scale = 10n ** BigInt(currencyDigits(currency));
  return Number(divRoundHalfUp(40n * scale, 100n));
}

/**
 * The merchant-of-record fee on a charge of `grossMinor` (tax included).
 * Each percentage is taken on the gross and rounded half up on its own; the
 * fixed fee is added once. The high-volume base rate applies when the
 * organization's volume before this charge (in US cents) has reached the
 * threshold. A zero gross bears no fee at all.
 */
export function morFee(
  input: {
    grossMinor: number;
    currency: string;
    recurring: boolean;
    international: boolean;
    priorVolumeUsdMinor?: number;
    /** Known already: the seller's volume has reached the threshold (overrides priorVolumeUsdMinor). */
    highVolume?: boolean;
  },
  schedule: FeeSchedule = DEFAULT_FEE_SCHEDULE,
): Fees {
  const gross = exact(input.grossMinor, 'the gross amount');
  if (gross < 0n) throw new RangeError(`a fee is taken on a charge, not on ${input.grossMinor}`);
  if (gross === 0n) return { totalMinor: 0, breakdown: [] };
  const { currency } = input;
  const highVolume = input.highVolume ?? (input.priorVolumeUsdMinor ?? 0) >= schedule.highVolumeThresholdUsdMinor;
  const lines: FeeLine[] = [];
  const percent = (name: FeeLine['name'], bp: number) => {
    if (bp === 0) return;
    const value = divRoundHalfUp(gross * exact(bp, `the ${name} rate`), 10_000n);
    lines.push({ name, percentage: percentText(bp), valueUnits: toNumber(value, `the ${name}`), currency });
  };
  percent('base_fee', highVolume ? schedule.highVolumeBasePercentBp : schedule.basePercentBp);
  const fixed = fixedFeeFor(currency, schedule);
  if (fixed !== 0) lines.push({ name: 'fixed_fee', percentage: null, valueUnits: fixed, currency });
  if (input.recurring) percent('subscription_fee', schedule.subscriptionPercentBp);
  if (input.international) percent('international_fee', schedule.internationalPercentBp);
  return { totalMinor: lines.reduce((sum, line) => sum + line.valueUnits, 0), breakdown: lines };
}
