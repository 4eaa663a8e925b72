import { divRoundHalfUp, exact, toNumber } from './rounding.compute.js';
import type { Proration } from './types.js';

function timeOf(date: Date, what: string): bigint {
  const ms = date instanceof Date ? date.getTime() : Number.NaN;
  if (Number.isNaN(ms)) throw new RangeError(`${what} must be a valid date`);
  return BigInt(ms);
}

/**
 * A change of price within a period, by the exact milliseconds left:
 * credit = round_half_up(old × remaining / total) for the unused part of the
 * old price, charge = round_half_up(new × remaining / total) for the new price
 * over the same time, net = charge − credit (negative for a downgrade: the
 * customer's credit). `at` before the period's start leaves the whole period;
 * at or after its end nothing remains and everything is 0.
 */
export function prorate(input: { oldAmountMinor: number; newAmountMinor: number; periodStart: Date; periodEnd: Date; at: Date }): Proration {
  const start = timeOf(input.periodStart, 'the period start');
  const end = timeOf(input.periodEnd, 'the period end');
  const at = timeOf(input.at, 'the time of the change');
  if (end <= start) throw new RangeError('the period must end after it starts');
  const oldAmount = exact(input.oldAmountMinor, 'the old amount');
  const newAmount = exact(input.newAmountMinor, 'the new amount');
  if (oldAmount < 0n || newAmount < 0n) throw new RangeError('prorated amounts must not be negative');
  const total = end - start;
  const remaining = at <= start ? total : at >= end ? 0n : end - at;
  const credit = divRoundHalfUp(oldAmount * remaining, total);
  const charge = divRoundHalfUp(newAmount * remaining, total);
  return {
    creditMinor: toNumber(credit, 'the credit'),
    chargeMinor: toNumber(charge, 'the charge'),
    netMinor: toNumber(charge - credit, 'the net amount'),
  };
}
