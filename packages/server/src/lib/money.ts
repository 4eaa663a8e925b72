/**
 * Amounts are integers in the currency's minor unit; decimal numbers exist
 * only at the wire. Conversions go through the decimal text, never through
 * floating-point arithmetic.
 */

const ISO_CURRENCIES = new Set(Intl.supportedValuesOf('currency'));
/** Largest amount accepted, in minor units: far below 2^53, so every amount stays exact. */
export const MAX_MINOR_AMOUNT = 10 ** 15;

export function isCurrency(code: string): boolean {
  return /^[A-Z]{3}$/.test(code) && ISO_CURRENCIES.has(code);
}

const DIGITS = new Map<string, number>();

/** Decimal places of the currency's minor unit (USD 2, JPY 0, BHD 3); remembered per code, as making a NumberFormat is slow. */
export function currencyDigits(code: string): number {
  let digits = DIGITS.get(code);
  if (digits === undefined) {
    digits = new Intl.NumberFormat('en', { style: 'currency', currency: code }).resolvedOptions().maximumFractionDigits ?? 2;
    // A malformed code throws above; well-formed ones are three letters, so the map stays small (at most 26³).
    DIGITS.set(code, digits);
  }
  return digits;
}

export class AmountError extends Error {}

/** 19.99 USD -> 1999. Refuses negatives, non-finite values and more decimals than the currency has. */
export function toMinor(amount: number, digits: number): number {
  if (typeof amount !== 'number' || !Number.isFinite(amount)) throw new AmountError('must be a finite number');
  if (amount < 0) throw new AmountError('must not be negative');
  const text = String(amount);
  const match = /^(\d+)(?:\.(\d+))?$/.exec(text);
  if (!match) {
    throw new AmountError(amount < 1 ? `has more than ${digits} decimal places` : 'is too large');
  }
  const whole = match[1]!;
  const fraction = match[2] ?? '';
  if (fraction.length > digits) {
    throw new AmountError(digits === 0 ? 'must be a whole number in this currency' : `has more than ${digits} decimal places`);
  }
  const minor = Number(`${whole}${fraction.padEnd(digits, '0')}`);
  if (minor > MAX_MINOR_AMOUNT) throw new AmountError('is too large');
  return minor;
}

/** 1999 with 2 digits -> 19.99 (and -1 -> -0.01), built from the digits rather than by division. */
export function fromMinor(minor: number, digits: number): number {
  if (digits === 0) return minor;
  return Number(formatMinor(minor, digits));
}

/** 1999 USD -> "19.99": the decimal string form used where the wire carries text. */
export function formatMinor(minor: number, digits: number): string {
  if (digits === 0) return String(minor);
  const text = String(Math.abs(minor)).padStart(digits + 1, '0');
  return `${minor < 0 ? '-' : ''}${text.slice(0, -digits)}.${text.slice(-digits)}`;
}
