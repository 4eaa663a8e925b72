/**
 * Conversion into a reporting currency (docs/analytics.md, "Currencies"; decision 0102), pure
 * and exact. A rate is a decimal kept as an integer and a scale (1.08 is 108 / 10²), never a
 * float. A converted amount is held exactly over a fixed denominator (REPORTING_SCALE times
 * the amount's own unit), summed across currencies, and rounded once, half up, when shown.
 */
import { divRoundHalfUp } from '../billing/rounding.compute.js';

/** A positive decimal, exactly: digits ÷ 10^scale. */
export interface Decimal {
  digits: bigint;
  scale: number;
}

/** The precision a rate is kept in: at most 12 digits before the point and 12 after. */
export const RATE_MAX_DECIMALS = 12;
export const RATE_MAX_INTEGER_DIGITS = 12;
/** A derived rate is rounded to this many significant digits, as exchange rates are quoted. */
export const DERIVED_SIGNIFICANT_DIGITS = 6;
/** Minor-unit digits of a currency never differ by more than this (JPY 0, CLF 4). */
const MAX_DIGITS_APART = 4;
const SCALE_DIGITS = RATE_MAX_DECIMALS + MAX_DIGITS_APART;
/** Converted amounts are exact in 10^-16ths of the unit they are counted in. */
export const REPORTING_SCALE = 10n ** BigInt(SCALE_DIGITS);

const RATE_TEXT = new RegExp(`^(\\d{1,${RATE_MAX_INTEGER_DIGITS}})(?:\\.(\\d{1,${RATE_MAX_DECIMALS}}))?$`);

/** A rate as text ("1.08", "160.5", "0.00625") exactly; null when it is not a positive decimal within the precision kept. */
export function parseRate(text: string): Decimal | null {
  const match = RATE_TEXT.exec(text.trim());
  if (!match) return null;
  const fraction = match[2] ?? '';
  const rate = normalized({ digits: BigInt(match[1]! + fraction), scale: fraction.length });
  return rate.digits > 0n ? rate : null;
}

/** The same decimal without trailing zeros after the point. */
function normalized(value: Decimal): Decimal {
  let { digits, scale } = value;
  while (scale > 0 && digits % 10n === 0n && digits !== 0n) {
    digits /= 10n;
    scale -= 1;
  }
  return { digits, scale: digits === 0n ? 0 : scale };
}

/** A decimal as text: "1.08", "160.5", "2". */
export function decimalText(value: Decimal): string {
  const { digits, scale } = normalized(value);
  if (scale === 0) return digits.toString();
  const text = digits.toString().padStart(scale + 1, '0');
  return `${text.slice(0, -scale)}.${text.slice(-scale)}`;
}

/**
 * An amount in `fromDigits` minor units (or any unit of them: 336ths of a month) converted at
 * `rate` into the reporting currency's minor units, exactly, in REPORTING_SCALE-ths of the same unit.
 */
export function scaledConversion(amount: bigint, rate: Decimal, fromDigits: number, toDigits: number): bigint {
  const shift = SCALE_DIGITS - rate.scale + toDigits - fromDigits;
  if (shift < 0 || toDigits - fromDigits < -MAX_DIGITS_APART) throw new RangeError('rate or currency precision out of range');
  return amount * rate.digits * 10n ** BigInt(shift);
}

/** Minor units of one currency into minor units of another, rounded once, half up (a cash amount, a price). */
export function convertMinor(amount: bigint, rate: Decimal, fromDigits: number, toDigits: number): bigint {
  return divRoundHalfUp(scaledConversion(amount, rate, fromDigits, toDigits), REPORTING_SCALE);
}

/** A positive fraction n ÷ d. */
export interface Ratio {
  n: bigint;
  d: bigint;
}

/**
 * A positive ratio rounded half up to `significant` digits and at most RATE_MAX_DECIMALS after
 * the point; null when it is too small or too large for a rate.
 */
export function ratioAsRate({ n, d }: Ratio, significant = DERIVED_SIGNIFICANT_DIGITS): Decimal | null {
  if (n <= 0n || d <= 0n) return null;
  const low = 10n ** BigInt(significant - 1);
  let exponent = 0;
  const scaled = (e: number) => (e >= 0 ? (n * 10n ** BigInt(e)) / d : n / (d * 10n ** BigInt(-e)));
  while (scaled(exponent) < low) exponent += 1;
  while (scaled(exponent) >= low * 10n) exponent -= 1;
  exponent = Math.min(exponent, RATE_MAX_DECIMALS);
  let digits = exponent >= 0 ? divRoundHalfUp(n * 10n ** BigInt(exponent), d) : divRoundHalfUp(n, d * 10n ** BigInt(-exponent));
  if (exponent < 0) {
    digits *= 10n ** BigInt(-exponent);
    exponent = 0;
  }
  if (digits === 0n || digits >= 10n ** BigInt(RATE_MAX_INTEGER_DIGITS + exponent)) return null;
  return normalized({ digits, scale: exponent });
}

/** One plan's recurring price for one charge period in both currencies, in their minor units. */
export interface PricePair {
  plan: string;
  fromMinor: bigint;
  toMinor: bigint;
}

/**
 * The rate the plans' own prices imply (docs/analytics.md): each pair's ratio (the price in the
 * reporting currency ÷ the price in the other, in major units), the median of them (the mean of
 * the two middle ones when their number is even), to six significant digits. Null without pairs.
 */
export function derivedRate(pairs: readonly PricePair[], fromDigits: number, toDigits: number): { rate: Decimal; plans: number } | null {
  const ratios: Ratio[] = pairs
    .filter((p) => p.fromMinor > 0n && p.toMinor > 0n)
    .map((p) => ({ n: p.toMinor * 10n ** BigInt(fromDigits), d: p.fromMinor * 10n ** BigInt(toDigits) }))
    .sort((a, b) => (a.n * b.d < b.n * a.d ? -1 : a.n * b.d > b.n * a.d ? 1 : 0));
  if (ratios.length === 0) return null;
  const middle = Math.floor(ratios.length / 2);
  const [a, b] = ratios.length % 2 === 1 ? [ratios[middle]!, ratios[middle]!] : [ratios[middle - 1]!, ratios[middle]!];
  const rate = ratioAsRate({ n: a.n * b.d + b.n * a.d, d: 2n * a.d * b.d });
  const plans = new Set(pairs.filter((p) => p.fromMinor > 0n && p.toMinor > 0n).map((p) => p.plan)).size;
  return rate && { rate, plans };
}

/** Where a currency's rate comes from. */
export type RateOrigin =
  | { source: 'reporting' }
  | { source: 'seller'; setAt: Date; setBy: string }
  | { source: 'plans'; plans: number }
  | { source: 'none' };

export interface CurrencyRate {
  currency: string;
  digits: number;
  /** Null when the currency is not converted. */
  rate: Decimal | null;
  origin: RateOrigin;
}

/** How every currency of a figure becomes the reporting currency's. */
export interface Conversion {
  to: string;
  toDigits: number;
  rates: CurrencyRate[];
}

export interface RateChoices {
  /** The rates the seller set into the reporting currency, by currency. */
  set: ReadonlyMap<string, { rate: Decimal; setAt: Date; setBy: string }>;
  /** The rates derived from the plans, by currency. */
  derived: ReadonlyMap<string, { rate: Decimal; plans: number }>;
}

/** Each currency's rate: 1 for the reporting currency, else the seller's, else the plans', else none. */
export function conversionOf(to: string, currencies: readonly string[], choices: RateChoices, digitsOf: (currency: string) => number): Conversion {
  const rates = [...new Set(currencies)].sort().map((currency): CurrencyRate => {
    const digits = digitsOf(currency);
    if (currency === to) return { currency, digits, rate: { digits: 1n, scale: 0 }, origin: { source: 'reporting' } };
    const set = choices.set.get(currency);
    if (set) return { currency, digits, rate: set.rate, origin: { source: 'seller', setAt: set.setAt, setBy: set.setBy } };
    const derived = choices.derived.get(currency);
    if (derived) return { currency, digits, rate: derived.rate, origin: { source: 'plans', plans: derived.plans } };
    return { currency, digits, rate: null, origin: { source: 'none' } };
  });
  return { to, toDigits: digitsOf(to), rates };
}

/**
 * The sum of amounts in several currencies (each in minor units, or in `per`ths of one), in the
 * reporting currency's minor units, converted exactly and rounded once; currencies the
 * conversion has no rate for are left out (the conversion lists them).
 */
export function convertedSum(amounts: readonly { currency: string; amount: bigint }[], conversion: Conversion, per = 1n): number {
  return Number(divRoundHalfUp(exactSum(amounts, conversion), per * REPORTING_SCALE));
}

/** The same sum, exact, in REPORTING_SCALE-ths of the amounts' unit. */
export function exactSum(amounts: readonly { currency: string; amount: bigint }[], conversion: Conversion): bigint {
  let sum = 0n;
  for (const { currency, amount } of amounts) {
    const found = conversion.rates.find((r) => r.currency === currency);
    if (found?.rate) sum += scaledConversion(amount, found.rate, found.digits, conversion.toDigits);
  }
  return sum;
}

/** The conversion in a sentence, for people reading the API or a CSV. */
export function conversionStatement(conversion: Conversion): string {
  const parts = conversion.rates.map(({ currency, rate, origin }) => {
    const at = rate ? `${currency} at ${decimalText(rate)} ${conversion.to}` : '';
    switch (origin.source) {
      case 'reporting':
        return `${currency} as it is`;
      case 'seller':
        return `${at}, set by ${origin.setBy} on ${origin.setAt.toISOString().slice(0, 10)}`;
      case 'plans':
        return `${at}, derived from ${origin.plans} ${origin.plans === 1 ? "plan's" : "plans'"} prices`;
      case 'none':
        return `${currency} not converted: no rate set, and no plan priced in both ${currency} and ${conversion.to}`;
    }
  });
  return parts.length === 0 ? `Nothing to convert into ${conversion.to}` : parts.join('; ');
}
