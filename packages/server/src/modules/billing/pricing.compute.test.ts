import { describe, expect, it } from 'vitest';
import type { StoredCharge, StoredChargeCatalogPrice, StoredPrice, StoredTier } from '../catalog/prices/prices.compute.js';
import { PricingError, priceQuantity, quotePurchase, type PurchaseRequest } from './pricing.compute.js';

const charge = (fields: Partial<StoredCharge>): StoredCharge => ({
  chargePeriod: 'MONTHLY',
  amount: null,
  tiers: [],
  advanced: {},
  ...fields,
});

const entry = (fields: Partial<StoredChargeCatalogPrice>): StoredChargeCatalogPrice => ({
  feature: null,
  priceModel: 'FLAT',
  reset: null,
  resetTime: null,
  hasUnlimitedUsage: false,
  paymentType: 'ADVANCE_COMMITMENT',
  rollover: {},
  usageAlerts: {},
  charges: [],
  ...fields,
});

const price = (fields: Partial<StoredPrice>): StoredPrice => ({
  priceType: 'PAID',
  currency: 'USD',
  freeTrial: false,
  trialPeriod: 0,
  enabled: true,
  taxBehavior: 'EXCLUSIVE',
  chargeCatalogPrice: [],
  ...fields,
});

// 1-10 at 5.00 + 10.00 flat, 11-50 at 4.00, 51+ at 3.00 + 20.00 flat
const TIERS: StoredTier[] = [
  { upTo: 10, unitAmount: 500, flatAmount: 1000 },
  { upTo: 50, unitAmount: 400, flatAmount: null },
  { upTo: 'inf', unitAmount: 300, flatAmount: 2000 },
];
// 1-5: 29.00, 6-20: 79.00, 21+: 199.00
const STAIRS: StoredTier[] = [
  { upTo: 5, unitAmount: null, flatAmount: 2900 },
  { upTo: 20, unitAmount: null, flatAmount: 7900 },
  { upTo: 'inf', unitAmount: null, flatAmount: 19900 },
];

describe('priceQuantity', () => {
  it.each([
    [0, 0],
    [1, 1500],
    [7, 10500],
  ])('FLAT 15.00 × %i = %i', (quantity, expected) => {
    expect(priceQuantity(charge({ amount: 1500 }), 'FLAT', quantity)).toBe(expected);
  });

  it.each([
    [0, 0],
    [1, 1000], // a started block counts whole
    [99, 1000],
    [100, 1000], // exactly one block
    [101, 2000], // one past: a second block
    [250, 3000],
  ])('PACKAGE 10.00 per block of 100, quantity %i = %i', (quantity, expected) => {
    expect(priceQuantity(charge({ amount: 1000, blockSize: 100 }), 'PACKAGE', quantity)).toBe(expected);
  });

  it('PACKAGE with a block size of 1 is per unit', () => {
    expect(priceQuantity(charge({ amount: 1000, blockSize: 1 }), 'PACKAGE', 3)).toBe(3000);
  });

  it.each([
    [0, 0],
    [1, 1500], // 1 × 5.00 + 10.00
    [10, 6000], // tier edge: 10 × 5.00 + 10.00
    [11, 6400], // one past: + 1 × 4.00
    [50, 22000], // 6000 + 40 × 4.00
    [51, 24300], // 22000 + 1 × 3.00 + 20.00
    [75, 31500], // inside the last tier: 22000 + 25 × 3.00 + 20.00
  ])('TIERED (graduated), quantity %i = %i', (quantity, expected) => {
    expect(priceQuantity(charge({ tiers: TIERS }), 'TIERED', quantity)).toBe(expected);
  });

  it.each([
    [0, 0],
    [1, 1500], // 1 × 5.00 + 10.00
    [10, 6000], // tier edge, still the first tier: 10 × 5.00 + 10.00
    [11, 4400], // one past: all 11 at 4.00
    [50, 20000],
    [51, 17300], // 51 × 3.00 + 20.00
    [75, 24500], // 75 × 3.00 + 20.00
  ])('VOLUME, quantity %i = %i', (quantity, expected) => {
    expect(priceQuantity(charge({ tiers: TIERS }), 'VOLUME', quantity)).toBe(expected);
  });

  it.each([
    [0, 0],
    [1, 2900],
    [5, 2900], // tier edge
    [6, 7900], // one past
    [20, 7900],
    [21, 19900],
    [1000, 19900], // inside the last tier
  ])('STAIRSTEP, quantity %i = %i', (quantity, expected) => {
    expect(priceQuantity(charge({ tiers: STAIRS }), 'STAIRSTEP', quantity)).toBe(expected);
  });

  it('prices a zero-decimal currency (JPY) and a three-decimal one (KWD) in their minor units', () => {
    // JPY: 980 yen per seat.
    expect(priceQuantity(charge({ amount: 980 }), 'FLAT', 3)).toBe(2940);
    // KWD: 1-100 at 0.125 KWD, 101+ at 0.095 KWD with 1.500 KWD flat, in fils.
    const kwd: StoredTier[] = [
      { upTo: 100, unitAmount: 125, flatAmount: null },
      { upTo: 'inf', unitAmount: 95, flatAmount: 1500 },
    ];
    expect(priceQuantity(charge({ tiers: kwd }), 'TIERED', 100)).toBe(12500);
    expect(priceQuantity(charge({ tiers: kwd }), 'TIERED', 101)).toBe(14095);
    expect(priceQuantity(charge({ tiers: kwd }), 'VOLUME', 101)).toBe(11095);
  });

  it('treats a missing unit or flat amount of a tier as 0', () => {
    const tiers: StoredTier[] = [
      { upTo: 3, unitAmount: null, flatAmount: 1000 },
      { upTo: 'inf', unitAmount: 200, flatAmount: null },
    ];
    expect(priceQuantity(charge({ tiers }), 'TIERED', 5)).toBe(1400);
    expect(priceQuantity(charge({ tiers }), 'VOLUME', 3)).toBe(1000);
    expect(priceQuantity(charge({ tiers }), 'VOLUME', 5)).toBe(1000);
  });

  it('refuses quantities that are not whole numbers of at least 0', () => {
    expect(() => priceQuantity(charge({ amount: 100 }), 'FLAT', 1.5)).toThrow(PricingError);
    expect(() => priceQuantity(charge({ amount: 100 }), 'FLAT', -1)).toThrow(/at least 0, got -1/);
    expect(() => priceQuantity(charge({ amount: 100 }), 'FLAT', Number.NaN)).toThrow(PricingError);
  });

  it('refuses charges it cannot price', () => {
    expect(() => priceQuantity(charge({}), 'FLAT', 1)).toThrow(/FLAT price has no amount/);
    expect(() => priceQuantity(charge({ amount: 100 }), 'PACKAGE', 1)).toThrow(/block size/);
    expect(() => priceQuantity(charge({ amount: 100, blockSize: 0 }), 'PACKAGE', 1)).toThrow(/block size/);
    expect(() => priceQuantity(charge({}), 'TIERED', 1)).toThrow(/no tiers/);
    expect(() => priceQuantity(charge({ amount: 100 }), 'BESPOKE', 1)).toThrow(/unknown price model "BESPOKE"/);
    const capped: StoredTier[] = [{ upTo: 10, unitAmount: 100, flatAmount: null }];
    expect(() => priceQuantity(charge({ tiers: capped }), 'TIERED', 11)).toThrow(/no tier holds a quantity of 11/);
    expect(() => priceQuantity(charge({ tiers: capped }), 'VOLUME', 11)).toThrow(/no tier holds/);
  });

  it('refuses amounts beyond the largest amount Billow keeps', () => {
    expect(() => priceQuantity(charge({ amount: 10 ** 15 }), 'FLAT', 2)).toThrow(/too large/);
  });
});

const SEATS = 'f-seats';
const STORAGE = 'f-storage';
const CALLS = 'f-calls';

const PRO_USD = price({
  chargeCatalogPrice: [
    entry({ charges: [charge({ amount: 2900 }), charge({ chargePeriod: 'YEARLY', amount: 29000 })] }),
    entry({ feature: SEATS, charges: [charge({ amount: 1000, advanced: { minQuantity: 1, maxQuantity: 50 } })] }),
    entry({ feature: STORAGE, priceModel: 'PACKAGE', charges: [charge({ amount: 500, blockSize: 10 })] }),
    entry({ feature: CALLS, priceModel: 'TIERED', paymentType: 'PAY_AS_YOU_GO', charges: [charge({ tiers: TIERS })] }),
  ],
});

const request = (fields: Partial<PurchaseRequest>): PurchaseRequest => ({
  price: PRO_USD,
  chargePeriod: 'MONTHLY',
  quantities: {},
  taxRateBp: 0,
  taxCountry: null,
  planName: 'Pro',
  featureNames: { [SEATS]: 'Seats', [STORAGE]: 'Storage (GB)', [CALLS]: 'API calls' },
  ...fields,
});

describe('quotePurchase', () => {
  it('adds the base charge and the committed features, discounts, then adds exclusive tax', () => {
    const quote = quotePurchase(
      request({ quantities: { [SEATS]: 5, [STORAGE]: 25 }, discount: { percentOffBp: 1000 }, taxRateBp: 1900, taxCountry: 'DE' }),
    );
    expect(quote).toEqual({
      currency: 'USD',
      chargePeriod: 'MONTHLY',
      lines: [
        { description: 'Pro (MONTHLY)', featureId: null, quantity: 1, amountMinor: 2900, kind: 'plan', name: 'Pro', chargePeriod: 'MONTHLY' },
        { description: 'Seats × 5', featureId: SEATS, quantity: 5, amountMinor: 5000, kind: 'feature', name: 'Seats', chargePeriod: 'MONTHLY', unitMinor: 1000 },
        { description: 'Storage (GB) × 25', featureId: STORAGE, quantity: 25, amountMinor: 1500, kind: 'feature', name: 'Storage (GB)', chargePeriod: 'MONTHLY' },
      ],
      subtotalMinor: 9400,
      discountMinor: 940,
      taxMinor: 1607, // 8460 × 19 % = 1607.4
      totalMinor: 10067,
      taxRateBp: 1900,
      taxBehavior: 'EXCLUSIVE',
      taxCountry: 'DE',
    });
  });

  it('defaults a quantity to the minimum, else 0, and adds no line for pay-as-you-go usage', () => {
    const quote = quotePurchase(request({ quantities: { [CALLS]: 1000 } }));
    expect(quote.lines.map((l) => [l.description, l.amountMinor])).toEqual([
      ['Pro (MONTHLY)', 2900],
      ['Seats × 1', 1000],
      ['Storage (GB) × 0', 0],
    ]);
    expect(quote.totalMinor).toBe(3900);
  });

  it('bills pay-as-you-go usage of the ended period in arrears, by its model, taxed with the rest', () => {
    const used = priceQuantity(charge({ tiers: TIERS }), 'TIERED', 1500);
    const quote = quotePurchase(request({ arrears: { [CALLS]: 1500, [SEATS]: 7 }, taxRateBp: 1000 }));
    expect(quote.lines.map((l) => [l.description, l.amountMinor])).toEqual([
      ['Pro (MONTHLY)', 2900],
      ['Seats × 1', 1000],
      ['Storage (GB) × 0', 0],
      ['API calls: 1500 used', used],
    ]);
    expect(quote.subtotalMinor).toBe(3900 + used);
    expect(quote.taxMinor).toBe(Math.round((3900 + used) / 10));
    expect(quotePurchase(request({ arrears: { [CALLS]: 0 } })).lines).toHaveLength(3);
  });

  it('prices another period with the charges of that period only', () => {
    const quote = quotePurchase(request({ chargePeriod: 'YEARLY' }));
    expect(quote.lines).toEqual([{ description: 'Pro (YEARLY)', featureId: null, quantity: 1, amountMinor: 29000, kind: 'plan', name: 'Pro', chargePeriod: 'YEARLY' }]);
    expect(quote.totalMinor).toBe(29000);
  });

  it('names the period and currency when the plan has no base charge for them', () => {
    expect(() => quotePurchase(request({ chargePeriod: 'WEEKLY', planName: 'pro' }))).toThrow(
      new PricingError('plan "pro" has no WEEKLY charge in USD'),
    );
  });

  it('names the feature when a quantity is out of bounds or not a whole number', () => {
    expect(() => quotePurchase(request({ quantities: { [SEATS]: 0 } }))).toThrow(
      'feature "Seats": the quantity 0 is below the minimum of 1',
    );
    expect(() => quotePurchase(request({ quantities: { [SEATS]: 51 } }))).toThrow(
      'feature "Seats": the quantity 51 is above the maximum of 50',
    );
    expect(() => quotePurchase(request({ quantities: { [SEATS]: 2.5 } }))).toThrow(/feature "Seats": .*whole number.*2\.5/);
    expect(() => quotePurchase(request({ quantities: { [STORAGE]: -1 } }))).toThrow(/feature "Storage \(GB\)": .*-1/);
    // The bounds themselves are allowed.
    expect(quotePurchase(request({ quantities: { [SEATS]: 50 } })).lines[1]!.amountMinor).toBe(50000);
  });

  it('refuses a quantity for a feature the price does not sell, or not in this period', () => {
    expect(() => quotePurchase(request({ quantities: { 'f-unknown': 1 } }))).toThrow(
      new PricingError('plan "Pro" does not sell feature "f-unknown" in USD'),
    );
    expect(() => quotePurchase(request({ chargePeriod: 'YEARLY', quantities: { [SEATS]: 3 } }))).toThrow(
      new PricingError('plan "Pro" has no YEARLY charge for feature "Seats" in USD'),
    );
  });

  it('takes the percentage first, then the fixed amount, and never more than the subtotal', () => {
    const both = quotePurchase(request({ quantities: { [SEATS]: 5, [STORAGE]: 25 }, discount: { percentOffBp: 1000, amountOffMinor: 500 } }));
    expect([both.subtotalMinor, both.discountMinor, both.totalMinor]).toEqual([9400, 1440, 7960]);
    const half = quotePurchase(request({ discount: { percentOffBp: 1250 } })); // 12.5 % of 3900 = 487.5
    expect(half.discountMinor).toBe(488);
    const all = quotePurchase(request({ discount: { amountOffMinor: 100_000 }, taxRateBp: 1900 }));
    expect([all.subtotalMinor, all.discountMinor, all.taxMinor, all.totalMinor]).toEqual([3900, 3900, 0, 0]);
  });

  it('refuses a discount out of range', () => {
    expect(() => quotePurchase(request({ discount: { percentOffBp: 10_001 } }))).toThrow(PricingError);
    expect(() => quotePurchase(request({ discount: { amountOffMinor: -1 } }))).toThrow(PricingError);
  });

  it('takes the tax out of an INCLUSIVE price, after the discount', () => {
    const eur = price({ currency: 'EUR', taxBehavior: 'INCLUSIVE', chargeCatalogPrice: [entry({ charges: [charge({ amount: 999 })] })] });
    const plain = quotePurchase(request({ price: eur, taxRateBp: 1900, taxCountry: 'DE' }));
    expect([plain.subtotalMinor, plain.discountMinor, plain.taxMinor, plain.totalMinor]).toEqual([999, 0, 160, 999]);
    expect(plain.taxBehavior).toBe('INCLUSIVE');
    const off = quotePurchase(request({ price: eur, taxRateBp: 1900, taxCountry: 'DE', discount: { percentOffBp: 2000 } }));
    // 20 % of 9.99 = 1.998 -> 2.00; 7.99 holds 7.99 / 1.19 = 6.714 -> 6.71 net, 1.28 tax.
    expect([off.subtotalMinor, off.discountMinor, off.taxMinor, off.totalMinor]).toEqual([999, 200, 128, 799]);
  });

  it('prices in JPY (no decimals)', () => {
    const jpy = price({ currency: 'JPY', chargeCatalogPrice: [entry({ charges: [charge({ amount: 4980 })] })] });
    const quote = quotePurchase(request({ price: jpy, taxRateBp: 1000, taxCountry: 'JP', discount: { percentOffBp: 1500 } }));
    // 15 % of 4980 = 747; 4233 × 10 % = 423.3 -> 423
    expect([quote.subtotalMinor, quote.discountMinor, quote.taxMinor, quote.totalMinor]).toEqual([4980, 747, 423, 4656]);
    expect(quote.currency).toBe('JPY');
  });

  it('prices in KWD (three decimals)', () => {
    const kwd = price({
      currency: 'KWD',
      chargeCatalogPrice: [
        entry({ charges: [charge({ amount: 9750 })] }),
        entry({ feature: SEATS, charges: [charge({ amount: 2125 })] }),
      ],
    });
    const quote = quotePurchase(request({ price: kwd, quantities: { [SEATS]: 3 }, taxRateBp: 500, taxCountry: 'KW', discount: { percentOffBp: 1250 } }));
    // 9.750 + 3 × 2.125 = 16.125; 12.5 % off = 2.015625 -> 2.016; 14.109 × 5 % = 0.70545 -> 0.705
    expect([quote.subtotalMinor, quote.discountMinor, quote.taxMinor, quote.totalMinor]).toEqual([16125, 2016, 705, 14814]);
  });

  it('charges 0 for a FREE or CUSTOM price without a base charge, but a PAID one must have one', () => {
    for (const priceType of ['FREE', 'CUSTOM'] as const) {
      const quote = quotePurchase(request({ price: price({ priceType }), chargePeriod: 'ONE_TIME', taxRateBp: 1900 }));
      expect(quote.lines).toEqual([{ description: 'Pro (ONE_TIME)', featureId: null, quantity: 1, amountMinor: 0, kind: 'plan', name: 'Pro', chargePeriod: 'ONE_TIME' }]);
      expect(quote.totalMinor).toBe(0);
    }
    expect(() => quotePurchase(request({ price: price({}), chargePeriod: 'ONE_TIME' }))).toThrow(
      'plan "Pro" has no ONE_TIME charge in USD',
    );
  });

  it('uses the feature id when no display name is given', () => {
    const quote = quotePurchase(request({ featureNames: undefined, quantities: { [SEATS]: 2 } }));
    expect(quote.lines[1]!.description).toBe('f-seats × 2');
  });

  it('prices committed TIERED, VOLUME and STAIRSTEP features by their model', () => {
    const tiered = price({
      chargeCatalogPrice: [
        entry({ charges: [charge({ amount: 0 })] }),
        entry({ feature: 'a', priceModel: 'TIERED', charges: [charge({ tiers: TIERS })] }),
        entry({ feature: 'b', priceModel: 'VOLUME', charges: [charge({ tiers: TIERS })] }),
        entry({ feature: 'c', priceModel: 'STAIRSTEP', charges: [charge({ tiers: STAIRS })] }),
      ],
    });
    const quote = quotePurchase(request({ price: tiered, quantities: { a: 11, b: 11, c: 6 } }));
    expect(quote.lines.map((l) => l.amountMinor)).toEqual([0, 6400, 4400, 7900]);
    expect(quote.totalMinor).toBe(18700);
  });
});
