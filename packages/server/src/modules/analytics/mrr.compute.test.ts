import { describe, expect, it } from 'vitest';
import type { StoredPrice } from '../catalog/prices/prices.compute.js';
import { mrrByCurrency, recurringNetMinor } from './mrr.compute.js';

const flat = (chargePeriod: string, amount: number, taxBehavior: StoredPrice['taxBehavior'] = 'EXCLUSIVE'): StoredPrice =>
  ({
    priceType: 'PAID',
    currency: 'USD',
    freeTrial: false,
    trialPeriod: 0,
    enabled: true,
    taxBehavior,
    chargeCatalogPrice: [
      { feature: null, priceModel: 'FLAT', reset: null, resetTime: null, hasUnlimitedUsage: false, paymentType: 'ADVANCE_COMMITMENT', rollover: {}, usageAlerts: {}, charges: [{ chargePeriod, amount, tiers: [], advanced: {} }] },
    ],
  }) as StoredPrice;

describe('recurringNetMinor', () => {
  it('is the amount of a period after the discount and before tax', () => {
    expect(recurringNetMinor({ chargePeriod: 'MONTHLY', price: flat('MONTHLY', 1000), quantities: {}, discount: { percentOffBp: 1000 }, taxRateBp: 2000 })).toBe(900);
    // Tax inside an inclusive price is taken out: 1200 at 20 % holds 200 of tax.
    expect(recurringNetMinor({ chargePeriod: 'MONTHLY', price: flat('MONTHLY', 1200, 'INCLUSIVE'), quantities: {}, discount: null, taxRateBp: 2000 })).toBe(1000);
    expect(recurringNetMinor({ chargePeriod: 'MONTHLY', price: flat('MONTHLY', 1000), quantities: {}, discount: { amountOffMinor: 250 }, taxRateBp: 0 })).toBe(750);
  });

  it('is null for a free price, a one-time period, or a price that cannot be priced', () => {
    expect(recurringNetMinor({ chargePeriod: 'MONTHLY', price: { ...flat('MONTHLY', 0), priceType: 'FREE' }, quantities: {}, discount: null, taxRateBp: 0 })).toBeNull();
    expect(recurringNetMinor({ chargePeriod: 'ONE_TIME', price: flat('ONE_TIME', 1000), quantities: {}, discount: null, taxRateBp: 0 })).toBeNull();
    const broken = { ...flat('MONTHLY', 1000), chargeCatalogPrice: [{ ...flat('MONTHLY', 1000).chargeCatalogPrice[0]!, priceModel: 'NOPE' }] } as StoredPrice;
    expect(recurringNetMinor({ chargePeriod: 'MONTHLY', price: broken, quantities: {}, discount: null, taxRateBp: 0 })).toBeNull();
  });
});

describe('mrrByCurrency', () => {
  it('normalises each period to a month and rounds the sum once, half up', () => {
    const items = [
      { currency: 'USD', chargePeriod: 'YEARLY', netMinor: 100 }, // 8.33
      { currency: 'USD', chargePeriod: 'YEARLY', netMinor: 100 }, // 8.33
      { currency: 'USD', chargePeriod: 'QUARTERLY', netMinor: 1 }, // 0.33
      { currency: 'EUR', chargePeriod: 'WEEKLY', netMinor: 3 }, // 13
      { currency: 'EUR', chargePeriod: 'DAILY', netMinor: 1 }, // 30.42
      { currency: 'EUR', chargePeriod: 'SIX_MONTHS', netMinor: 3 }, // 0.5
      { currency: 'EUR', chargePeriod: 'TWENTY_EIGHT_DAYS', netMinor: 28 }, // 30.42
      { currency: 'GBP', chargePeriod: 'MONTHLY', netMinor: 0 }, // free: not counted
    ];
    // USD: 16.67 + 0.33 = 17 exactly (rounding each would give 8 + 8 + 0 = 16).
    // EUR: 13 + 30.4167 + 0.5 + 30.4167 = 74.33 -> 74.
    expect(mrrByCurrency(items)).toEqual([
      { currency: 'EUR', amountUnits: 74, subscriptions: 4 },
      { currency: 'USD', amountUnits: 17, subscriptions: 3 },
    ]);
    expect(mrrByCurrency([{ currency: 'USD', chargePeriod: 'SIX_MONTHS', netMinor: 3 }])).toEqual([{ currency: 'USD', amountUnits: 1, subscriptions: 1 }]);
  });
});
