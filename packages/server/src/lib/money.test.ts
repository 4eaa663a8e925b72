import { describe, expect, it } from 'vitest';
import { AmountError, MAX_MINOR_AMOUNT, currencyDigits, formatMinor, fromMinor, isCurrency, toMinor } from './money.js';

describe('money', () => {
  it('knows ISO 4217 codes and their minor units', () => {
    expect(isCurrency('USD')).toBe(true);
    expect(isCurrency('usd')).toBe(false);
    expect(isCurrency('XYZ')).toBe(false);
    expect(currencyDigits('USD')).toBe(2);
    expect(currencyDigits('JPY')).toBe(0);
    expect(currencyDigits('BHD')).toBe(3);
  });

  it.each([
    [19.99, 2, 1999],
    [0.1, 2, 10],
    [0.07, 2, 7],
    [20, 2, 2000],
    [0, 2, 0],
    [1234.567, 3, 1234567],
    [500, 0, 500],
    [4.35, 2, 435],
    [1.005, 3, 1005],
  ])('converts %s with %i digits to %i minor units and back', (amount, digits, minor) => {
    expect(toMinor(amount, digits)).toBe(minor);
    expect(fromMinor(minor, digits)).toBe(amount);
  });

  it.each([
    [-1, 2, /negative/],
    [19.999, 2, /decimal places/],
    [0.5, 0, /whole number/],
    [Number.NaN, 2, /finite/],
    [Number.POSITIVE_INFINITY, 2, /finite/],
    [1e-7, 2, /decimal places/],
    [1e21, 2, /too large/],
    [1e14, 2, /too large/],
  ])('refuses %s with %i digits', (amount, digits, reason) => {
    expect(() => toMinor(amount, digits)).toThrow(AmountError);
    expect(() => toMinor(amount, digits)).toThrow(reason);
  });

  it('formats minor units as decimal text', () => {
    expect(formatMinor(26100, 2)).toBe('261.00');
    expect(formatMinor(5, 2)).toBe('0.05');
    expect(formatMinor(-150, 2)).toBe('-1.50');
    expect(formatMinor(700, 0)).toBe('700');
  });
});

describe('money at every small amount and at the limits', () => {
  const DIGITS = [0, 2, 3];
  const SMALL = Array.from({ length: 201 }, (_, i) => i - 100);
  const LIMITS = [MAX_MINOR_AMOUNT, -MAX_MINOR_AMOUNT, MAX_MINOR_AMOUNT - 1, -(MAX_MINOR_AMOUNT - 1)];

  /** The decimal text a reader expects, from the digits alone: sign, whole part, exactly `digits` decimals. */
  function expectedText(minor: number, digits: number): string {
    const sign = minor < 0 ? '-' : '';
    const abs = Math.abs(minor);
    if (digits === 0) return `${sign}${abs}`;
    const scale = 10 ** digits;
    return `${sign}${Math.floor(abs / scale)}.${String(abs % scale).padStart(digits, '0')}`;
  }

  it.each(DIGITS)('formats and converts -100..100 minor units and the limits with %i digits', (digits) => {
    for (const minor of [...SMALL, ...LIMITS]) {
      const text = formatMinor(minor, digits);
      expect(text, `${minor}`).toBe(expectedText(minor, digits));
      const major = fromMinor(minor, digits);
      expect(Number.isFinite(major), `${minor} -> ${major}`).toBe(true);
      expect(major, `${minor}`).toBe(Number(text));
      expect(Math.sign(major), `${minor}`).toBe(Math.sign(minor));
      // Back to minor units through the public conversion: exact for every amount.
      expect(toMinor(Math.abs(major), digits), `${minor}`).toBe(Math.abs(minor));
    }
  });
});
