import { describe, expect, it } from 'vitest';
import { splitTax, TAX_RATES_BP, taxDecision, taxRateBp } from './tax.compute.js';

const EU = ['AT', 'BE', 'BG', 'HR', 'CY', 'CZ', 'DK', 'EE', 'FI', 'FR', 'DE', 'GR', 'HU', 'IE', 'IT', 'LV', 'LT', 'LU', 'MT', 'NL', 'PL', 'PT', 'RO', 'SK', 'SI', 'ES', 'SE'];

describe('taxRateBp', () => {
  it.each([
    ['DE', 1900],
    ['FR', 2000],
    ['HU', 2700],
    ['LU', 1700],
    ['FI', 2550],
    ['GB', 2000],
    ['NO', 2500],
    ['CH', 810],
    ['AU', 1000],
    ['NZ', 1500],
    ['CA', 500],
    ['IN', 1800],
    ['JP', 1000],
    ['SG', 900],
    ['US', 0],
    ['ZZ', 0],
    ['KW', 0],
  ])('%s -> %i bp', (country, rate) => {
    expect(taxRateBp(country)).toBe(rate);
  });

  it('has a positive standard rate for each of the 27 EU countries', () => {
    expect(EU).toHaveLength(27);
    for (const country of EU) expect(TAX_RATES_BP[country], country).toBeGreaterThan(0);
  });

  it('reads lower case and spaces, and gives 0 without a country', () => {
    expect(taxRateBp(' de ')).toBe(1900);
    expect(taxRateBp(null)).toBe(0);
    expect(taxRateBp('')).toBe(0);
  });
});

describe('splitTax', () => {
  it.each([
    // amount, rate, net, tax, gross
    [999, 1900, 999, 190, 1189], // 189.81 -> 190
    [10000, 1900, 10000, 1900, 11900],
    [150, 1900, 150, 29, 179], // 28.5 -> 29: half up, not to even
    [250, 1900, 250, 48, 298], // 47.5 -> 48
    [1, 2000, 1, 0, 1], // 0.2 -> 0
    [1234, 1000, 1234, 123, 1357], // JPY at 10 %: 123.4 -> 123
    [12345, 1500, 12345, 1852, 14197], // KWD (fils) at 15 %: 1851.75 -> 1852
    [12345, 0, 12345, 0, 12345],
    [0, 1900, 0, 0, 0],
  ])('EXCLUSIVE %i at %i bp: net %i, tax %i, gross %i', (amount, rate, net, tax, gross) => {
    expect(splitTax(amount, rate, 'EXCLUSIVE')).toEqual({ netMinor: net, taxMinor: tax, grossMinor: gross });
  });

  it.each([
    [999, 1900, 839, 160], // 999 / 1.19 = 839.496 -> 839
    [11900, 1900, 10000, 1900],
    [9, 2000, 8, 1], // 9 / 1.2 = 7.5 -> 8: half up
    [3, 2000, 3, 0], // 3 / 1.2 = 2.5 -> 3
    [1000, 1000, 909, 91], // JPY: 1000 / 1.1 = 909.09
    [5478, 1000, 4980, 498],
    [14197, 1500, 12345, 1852], // KWD (fils)
    [1, 2550, 1, 0],
    [500, 0, 500, 0],
    [0, 2000, 0, 0],
  ])('INCLUSIVE %i at %i bp: net %i, tax %i, gross unchanged', (amount, rate, net, tax) => {
    expect(splitTax(amount, rate, 'INCLUSIVE')).toEqual({ netMinor: net, taxMinor: tax, grossMinor: amount });
  });

  it('treats UNSPECIFIED as EXCLUSIVE', () => {
    expect(splitTax(999, 1900, 'UNSPECIFIED')).toEqual({ netMinor: 999, taxMinor: 190, grossMinor: 1189 });
  });

  it('stays exact for amounts whose products pass 2^53', () => {
    // 999 999 999 999 999 × 1900 = 1 899 999 999 999 998 100, far beyond 2^53.
    expect(splitTax(999_999_999_999_999, 1900, 'EXCLUSIVE')).toEqual({
      netMinor: 999_999_999_999_999,
      taxMinor: 190_000_000_000_000, // 189 999 999 999 999.81
      grossMinor: 1_189_999_999_999_999,
    });
    // 999 999 999 999 999 × 10000 / 11900 = 840 336 134 453 780.67 -> ...781
    expect(splitTax(999_999_999_999_999, 1900, 'INCLUSIVE')).toEqual({
      netMinor: 840_336_134_453_781,
      taxMinor: 159_663_865_546_218,
      grossMinor: 999_999_999_999_999,
    });
  });

  it('refuses fractions and negative rates', () => {
    expect(() => splitTax(9.5, 1900, 'EXCLUSIVE')).toThrow(RangeError);
    expect(() => splitTax(100, -1, 'EXCLUSIVE')).toThrow(RangeError);
  });
});

describe('taxDecision', () => {
  const fr = { type: 'eu_vat', value: 'FR40303265045', country: 'FR' };
  const de = { type: 'eu_vat', value: 'DE136695976', country: 'DE' };
  const gb = { type: 'gb_vat', value: 'GB980780684', country: 'GB' };

  it('reverse charges an EU VAT id of a member state where the seller is not registered', () => {
    expect(taxDecision({ buyerCountry: 'FR', buyerTaxIds: [fr], sellerCountries: ['DE'] })).toEqual({ rateBp: 0, country: 'FR', reason: 'reverse_charge', buyerTaxId: fr });
    // A seller with no EU registration: every EU business accounts for the VAT itself.
    expect(taxDecision({ buyerCountry: 'FR', buyerTaxIds: [fr], sellerCountries: [] }).reason).toBe('reverse_charge');
  });

  it("charges the standard rate in the seller's own country, to a consumer, and outside the EU", () => {
    expect(taxDecision({ buyerCountry: 'DE', buyerTaxIds: [de], sellerCountries: ['DE'] })).toEqual({ rateBp: 1900, country: 'DE', reason: 'standard', buyerTaxId: de });
    expect(taxDecision({ buyerCountry: 'fr', buyerTaxIds: [], sellerCountries: ['DE'] })).toEqual({ rateBp: 2000, country: 'FR', reason: 'standard', buyerTaxId: null });
    expect(taxDecision({ buyerCountry: 'GB', buyerTaxIds: [gb], sellerCountries: ['DE'] })).toEqual({ rateBp: 2000, country: 'GB', reason: 'standard', buyerTaxId: gb });
  });

  it('says when no rate applies: a country Billow taxes at 0, or none known', () => {
    expect(taxDecision({ buyerCountry: 'US', buyerTaxIds: [], sellerCountries: [] })).toEqual({ rateBp: 0, country: 'US', reason: 'no_rate', buyerTaxId: null });
    expect(taxDecision({ buyerCountry: null, buyerTaxIds: [], sellerCountries: [] })).toEqual({ rateBp: 0, country: null, reason: 'no_country', buyerTaxId: null });
  });
});
