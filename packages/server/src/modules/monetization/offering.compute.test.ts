import { describe, expect, it } from 'vitest';
import { chargeId, choosePrice, currencySymbol, offeringSubscription, periodDisplayName, pricingLocaleOf } from './offering.compute.js';
import type { StoredPrice } from '../catalog/prices/prices.compute.js';

const price = (currency: string, enabled = true): { price: StoredPrice } => ({
  price: {
    priceType: 'PAID',
    currency,
    freeTrial: false,
    trialPeriod: 0,
    enabled,
    taxBehavior: 'EXCLUSIVE',
    chargeCatalogPrice: [],
  },
});

describe('offering computations', () => {
  it('derives a stable, well-formed, distinct UUID per charge', () => {
    const a = chargeId('43856a3d-255c-4f60-a17d-98e1d113bb98', null, 'MONTHLY');
    expect(a).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-8[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(chargeId('43856a3d-255c-4f60-a17d-98e1d113bb98', null, 'MONTHLY')).toBe(a);
    expect(chargeId('43856a3d-255c-4f60-a17d-98e1d113bb98', null, 'YEARLY')).not.toBe(a);
    expect(chargeId('43856a3d-255c-4f60-a17d-98e1d113bb98', 'f', 'MONTHLY')).not.toBe(a);
  });

  it('writes currency symbols as the locale does', () => {
    expect(currencySymbol('USD', 'en-US')).toBe('$');
    expect(currencySymbol('EUR', 'en-US')).toBe('€');
    expect(currencySymbol('CAD', 'en-US')).toBe('CA$');
    expect(currencySymbol('CAD', 'en-CA')).toBe('$');
  });

  it('picks the locale from the country, and names charge periods', () => {
    expect(pricingLocaleOf(null)).toBe('en-US');
    expect(pricingLocaleOf('FR')).toBe('en-FR');
    expect(periodDisplayName('TWENTY_EIGHT_DAYS')).toBe('Every 28 Days');
    expect(periodDisplayName('SOME_NEW_PERIOD')).toBe('Some New Period');
  });

  it('chooses the target currency, then the product currency, then the first enabled price', () => {
    const prices = [price('GBP', false), price('USD'), price('EUR')];
    expect(choosePrice(prices, 'EUR', 'USD')?.price.currency).toBe('EUR');
    expect(choosePrice(prices, 'JPY', 'EUR')?.price.currency).toBe('EUR');
    expect(choosePrice(prices, 'GBP', null)?.price.currency).toBe('USD');
    expect(choosePrice([price('GBP', false)], 'GBP', null)).toBeNull();
  });
});

describe("the customer's subscription on an offering", () => {
  const now = new Date('2026-06-15T12:00:00Z');
  const row = (id: string, status: string, endDate: string | null = null, planIdentifier = `plan-${id}`) => ({
    id,
    status,
    chargePeriod: 'MONTHLY',
    endDate: endDate ? new Date(endDate) : null,
    planIdentifier,
  });

  it('is only "never subscribed" without subscriptions', () => {
    expect(offeringSubscription([], now)).toEqual({ hasPreviousSubscription: false });
  });

  it.each(['active', 'trialing', 'past_due'])('names a %s subscription as the current one', (status) => {
    expect(offeringSubscription([row('a', status)], now)).toEqual({
      hasPreviousSubscription: true,
      planIdentifier: 'plan-a',
      subscriptionId: 'a',
      chargePeriod: 'MONTHLY',
    });
  });

  it('counts a cancelled subscription as current until its end date, and as previous after it', () => {
    expect(offeringSubscription([row('a', 'canceled', '2026-06-15T12:00:01Z')], now).subscriptionId).toBe('a');
    expect(offeringSubscription([row('a', 'canceled', '2026-06-15T12:00:00Z')], now)).toEqual({
      hasPreviousSubscription: true,
      planIdentifier: null,
      subscriptionId: null,
      chargePeriod: null,
    });
  });

  it('takes the newest granting subscription, passing over ended ones before it', () => {
    const rows = [row('newest', 'canceled', '2026-01-01T00:00:00Z'), row('older', 'active'), row('oldest', 'active')];
    expect(offeringSubscription(rows, now).subscriptionId).toBe('older');
  });
});
