import { describe, expect, it } from 'vitest';
import { conversionOf, conversionStatement, convertedSum, convertMinor, decimalText, derivedRate, parseRate, ratioAsRate, scaledConversion } from './conversion.compute.js';
import { MONTH_PARTS } from '../billing/month-parts.compute.js';

const digits = (currency: string) => ({ JPY: 0, KWD: 3 })[currency] ?? 2;
const rate = (text: string) => parseRate(text)!;

describe('rates as exact decimals', () => {
  it('reads a positive decimal of bounded precision, and nothing else', () => {
    expect(parseRate('1.08')).toEqual({ digits: 108n, scale: 2 });
    expect(parseRate('160.50')).toEqual({ digits: 1605n, scale: 1 });
    expect(parseRate('0.000000000001')).toEqual({ digits: 1n, scale: 12 });
    expect(parseRate('999999999999.999999999999')).not.toBeNull();
    for (const bad of ['0', '0.000', '-1.08', '1,08', '1e3', '.5', '1.', '0.0000000000001', '1000000000000', 'NaN', '']) expect(parseRate(bad), bad).toBeNull();
  });

  it('writes them back without trailing zeros', () => {
    expect(['1.080000000000', '2', '0.00625', '160.500'].map((t) => decimalText(rate(t)))).toEqual(['1.08', '2', '0.00625', '160.5']);
  });
});

describe('converting exactly, rounding once', () => {
  it('gives the example of docs/analytics.md: $1,000.00 and €500.00 at 1 EUR = 1.08 USD is $1,540.00', () => {
    const conversion = conversionOf('USD', ['USD', 'EUR'], { set: new Map([['EUR', { rate: rate('1.08'), setAt: new Date('2026-11-01T09:00:00Z'), setBy: 'ana@example.com' }]]), derived: new Map() }, digits);
    const mrr = [
      { currency: 'USD', amount: 100_000n * MONTH_PARTS },
      { currency: 'EUR', amount: 50_000n * MONTH_PARTS },
    ];
    expect(convertedSum(mrr, conversion, MONTH_PARTS)).toBe(154_000);
    expect(conversionStatement(conversion)).toBe('EUR at 1.08 USD, set by ana@example.com on 2026-11-01; USD as it is');
  });

  it('sums the exact amounts before rounding, half up', () => {
    // Three €0.01 at 1.5: each $0.015 would round to $0.02 ($0.06); the exact sum $0.045 rounds once to $0.05.
    const conversion = conversionOf('USD', ['EUR'], { set: new Map([['EUR', { rate: rate('1.5'), setAt: new Date(), setBy: 'x' }]]), derived: new Map() }, digits);
    expect(convertedSum([1n, 1n, 1n].map((amount) => ({ currency: 'EUR', amount })), conversion)).toBe(5);
    expect(convertMinor(1n, rate('1.5'), 2, 2)).toBe(2n);
    expect(convertMinor(-1n, rate('1.5'), 2, 2)).toBe(-2n);
    // A monthly amount in 336ths: €10.00 a year (83.333… cents a month) at 1.5 is $1.25 exactly.
    expect(convertedSum([{ currency: 'EUR', amount: 1000n * 28n }], conversion, MONTH_PARTS)).toBe(125);
  });

  it('moves between currencies of different minor units', () => {
    expect(convertMinor(100n, rate('160.5'), 2, 0)).toBe(161n);
    expect(convertMinor(1000n, rate('0.00625'), 0, 2)).toBe(625n);
    expect(convertMinor(1234n, rate('3.25'), 3, 2)).toBe(401n);
    expect(scaledConversion(1n, rate('1'), 2, 2)).toBe(10n ** 16n);
  });

  it('leaves out a currency without a rate, and says so', () => {
    const conversion = conversionOf('USD', ['GBP', 'USD'], { set: new Map(), derived: new Map() }, digits);
    expect(convertedSum([{ currency: 'GBP', amount: 500n }, { currency: 'USD', amount: 700n }], conversion)).toBe(700);
    expect(conversion.rates.map((r) => [r.currency, r.origin.source])).toEqual([['GBP', 'none'], ['USD', 'reporting']]);
    expect(conversionStatement(conversion)).toContain('GBP not converted');
  });
});

describe('rates derived from the plans', () => {
  it('takes the median of the ratios, to six significant digits', () => {
    // Pro at $100.00 and €92.00 a month: 1 EUR = 1.08696 USD.
    const pro = { plan: 'pro', fromMinor: 9200n, toMinor: 10_000n };
    expect(derivedRate([pro], 2, 2)).toEqual({ rate: rate('1.08696'), plans: 1 });
    const solo = { plan: 'solo', fromMinor: 1000n, toMinor: 1000n };
    const team = { plan: 'team', fromMinor: 10_000n, toMinor: 12_000n };
    expect(derivedRate([team, pro, solo], 2, 2)).toEqual({ rate: rate('1.08696'), plans: 3 });
    // Even: the mean of the two middle ratios, 1.0 and 1.0869565…
    expect(derivedRate([solo, pro], 2, 2)).toEqual({ rate: rate('1.04348'), plans: 2 });
    // Two periods of one plan are two ratios of one plan.
    expect(derivedRate([pro, { plan: 'pro', fromMinor: 92_000n, toMinor: 100_000n }], 2, 2)?.plans).toBe(1);
    expect(derivedRate([], 2, 2)).toBeNull();
  });

  it('keeps the scale of currencies apart', () => {
    // ¥1,500 and $10.00: 1 JPY = 0.00666667 USD; 1 USD = 150 JPY.
    expect(derivedRate([{ plan: 'p', fromMinor: 1500n, toMinor: 1000n }], 0, 2)!.rate).toEqual(rate('0.00666667'));
    expect(derivedRate([{ plan: 'p', fromMinor: 1000n, toMinor: 1500n }], 2, 0)!.rate).toEqual(rate('150'));
  });

  it('rounds a ratio half up to significant digits, within the precision a rate keeps', () => {
    expect(ratioAsRate({ n: 2n, d: 3n })).toEqual(rate('0.666667'));
    expect(ratioAsRate({ n: 12_345_675n, d: 1n })).toEqual(rate('12345700'));
    expect(ratioAsRate({ n: 1n, d: 10n ** 15n })).toBeNull();
    expect(ratioAsRate({ n: 10n ** 13n, d: 1n })).toBeNull();
  });
});
