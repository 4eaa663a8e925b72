import { describe, expect, it } from 'vitest';
import { conversionOf, parseRate } from './conversion.compute.js';
import { mrrSeries } from './series.compute.js';
import { periodRatios } from './ratios.compute.js';
import { pricePairs, reportingFigures } from './reporting.compute.js';
import type { StoredPrice } from '../catalog/prices/prices.compute.js';

const month = (minor: number) => BigInt(minor) * 336n;
const at = (day: string) => new Date(`${day}T12:00:00Z`);
const periods = [
  { label: '2026-10', start: at('2026-10-01'), end: at('2026-11-01') },
  { label: '2026-11', start: at('2026-11-01'), end: at('2026-12-01') },
];
const eur = (text: string) => ({ set: new Map([['EUR', { rate: parseRate(text)!, setAt: at('2026-11-01'), setBy: 'ana@example.com' }]]), derived: new Map() });

describe('reportingFigures', () => {
  it("converts each period's exact MRR and movements, and rounds them so they still add up", () => {
    const history = [
      { customerId: 'a', currency: 'USD', at: at('2026-10-02'), parts: month(100_000) },
      { customerId: 'b', currency: 'EUR', at: at('2026-10-03'), parts: month(50_000) },
      // Yearly €10.00 (€0.8333… a month), then a second such customer.
      { customerId: 'c', currency: 'EUR', at: at('2026-11-02'), parts: 1000n * 28n },
      { customerId: 'd', currency: 'EUR', at: at('2026-11-03'), parts: 1000n * 28n },
      { customerId: 'a', currency: 'USD', at: at('2026-11-04'), parts: 0n },
      { customerId: 'g', currency: 'GBP', at: at('2026-11-05'), parts: month(4000) },
    ];
    const figures = mrrSeries(history, periods);
    const conversion = conversionOf('USD', figures.map((f) => f.currency), eur('1.08'), () => 2);
    const [october, november] = reportingFigures(figures, conversion);
    expect(october).toMatchObject({ label: '2026-10', currency: 'USD', startMinor: 0, endMinor: 154_000, movements: { new: 154_000 }, customers: { start: 0, end: 2, new: 2 } });
    // November: two × €0.8333… × 1.08 = $1.80 exactly, and $1,000.00 churned; the pounds are left out.
    expect(november).toMatchObject({ startMinor: 154_000, endMinor: 54_180, movements: { new: 180, churned: -100_000, expansion: 0 }, customers: { start: 2, end: 3, new: 2, churned: 1 } });
    const m = november!.movements;
    expect(november!.startMinor + m.new + m.expansion + m.reactivation + m.contraction + m.churned).toBe(november!.endMinor);
    // ARPU from the exact converted MRR: $541.80 ÷ 3.
    expect(periodRatios(november!)).toMatchObject({ arpuMinor: 18_060, customerChurnBp: 5000 });
  });
});

describe('pricePairs', () => {
  const price = (currency: string, charges: Array<[string, number]>): StoredPrice => ({
    priceType: 'PAID',
    currency,
    freeTrial: false,
    trialPeriod: 0,
    enabled: true,
    taxBehavior: 'EXCLUSIVE',
    chargeCatalogPrice: [{ feature: null, priceModel: 'FLAT', reset: null, resetTime: null, hasUnlimitedUsage: false, paymentType: 'RECURRING', rollover: {}, usageAlerts: {}, charges: charges.map(([chargePeriod, amount]) => ({ chargePeriod, amount, tiers: [], advanced: {} })) }],
  });

  it('pairs the prices of one plan for the periods both currencies have', () => {
    const prices = [
      { planId: 'pro', price: price('USD', [['MONTHLY', 10_000], ['YEARLY', 100_000]]) },
      { planId: 'pro', price: price('EUR', [['MONTHLY', 9200]]) },
      { planId: 'solo', price: price('USD', [['MONTHLY', 1000]]) },
      { planId: 'eu', price: price('EUR', [['MONTHLY', 500]]) },
    ];
    expect(pricePairs(prices, 'EUR', 'USD')).toEqual([{ plan: 'pro', fromMinor: 9200n, toMinor: 10_000n }]);
  });
});
