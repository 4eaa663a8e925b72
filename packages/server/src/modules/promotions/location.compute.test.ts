import { describe, expect, it } from 'vitest';
import type { Promotion } from '@billow/contract';
import { promotionForBuyer } from './location.compute.js';
import { rulesOf } from './promotion.compute.js';
import { DEFAULT_BANNER, DEFAULT_SECURITY } from './service.js';

const rules = (changes: Partial<Promotion> = {}) =>
  rulesOf({
    id: 'p',
    object: 'promotion',
    name: 'PPP',
    productId: 'product-1',
    planIdentifiers: null,
    pppDiscounts: [1, 2, 3, 4, 5].map((group) => ({ group, percentage: group * 10 - 10 })),
    countryOverrides: [{ countryCode: 'IN', percentage: 55 }],
    couponCode: 'PPP',
    message: '',
    banner: DEFAULT_BANNER,
    security: DEFAULT_SECURITY,
    enabled: true,
    archivedOn: null,
    createdOn: '',
    modifiedOn: '',
    ...changes,
  });

describe('promotionForBuyer', () => {
  const india = { located: 'IN', billing: 'IN' };

  it('gives the located country its percentage, and nothing without a location', () => {
    expect(promotionForBuyer([{ id: 'a', rules: rules() }], 'product-1', 'basic', india)).toEqual({ id: 'a', percentage: 55, code: 'PPP', countryCode: 'IN' });
    expect(promotionForBuyer([{ id: 'a', rules: rules() }], 'product-1', 'basic', { located: null, billing: 'IN' })).toBeNull();
  });

  it('keeps to its product and plans, and picks the largest of several', () => {
    const scoped = { id: 'b', rules: rules({ planIdentifiers: ['pro'], countryOverrides: [{ countryCode: 'IN', percentage: 70 }] }) };
    const all = { id: 'a', rules: rules() };
    expect(promotionForBuyer([all, scoped], 'product-1', 'pro', india)?.id).toBe('b');
    expect(promotionForBuyer([all, scoped], 'product-1', 'basic', india)?.id).toBe('a');
    expect(promotionForBuyer([all], 'product-2', 'basic', india)).toBeNull();
  });

  it('refuses another billing country while the strict check is on, and a crawler while that check is on', () => {
    const strict = [{ id: 'a', rules: rules() }];
    expect(promotionForBuyer(strict, 'product-1', 'basic', { located: 'IN', billing: 'DE' })).toBeNull();
    expect(promotionForBuyer(strict, 'product-1', 'basic', { located: 'IN', billing: null })?.percentage).toBe(55);
    expect(promotionForBuyer(strict, 'product-1', 'basic', { ...india, crawler: true })).toBeNull();
    const lax = [{ id: 'a', rules: rules({ security: { ...DEFAULT_SECURITY, billingCountry: false, crawler: false } }) }];
    expect(promotionForBuyer(lax, 'product-1', 'basic', { located: 'IN', billing: 'DE', crawler: true })?.percentage).toBe(55);
  });
});
