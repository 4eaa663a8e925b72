import { describe, expect, it } from 'vitest';
import type { Promotion } from '@billow/contract';
import { normalizeCountry } from '../../lib/countries.js';
import { PPP_GROUP_DEFINITIONS, pppGroupOf } from './ppp-groups.js';
import { countryFlag, isCrawler, promotionAnswer, promotionCovers, promotionFor, renderMessage, rulesOf } from './promotion.compute.js';
import { DEFAULT_BANNER, DEFAULT_SECURITY } from './service.js';

const promotion = (changes: Partial<Promotion> = {}): Promotion => ({
  id: '00000000-0000-4000-8000-000000000001',
  object: 'promotion',
  name: 'PPP',
  productId: 'product-1',
  planIdentifiers: null,
  pppDiscounts: [
    { group: 1, percentage: 0 },
    { group: 2, percentage: 10 },
    { group: 3, percentage: 20 },
    { group: 4, percentage: 30 },
    { group: 5, percentage: 40 },
  ],
  countryOverrides: [
    { countryCode: 'IN', percentage: 55 },
    { countryCode: 'BR', percentage: 0 },
  ],
  couponCode: 'PPP40',
  message: 'From {country} {country_flag}: {discount}% off with {code} ({discount_percentage}%, {coupon_code})',
  banner: DEFAULT_BANNER,
  security: DEFAULT_SECURITY,
  enabled: true,
  archivedOn: null,
  createdOn: '2026-01-01T00:00:00.000Z',
  modifiedOn: '2026-01-01T00:00:00.000Z',
  ...changes,
});

describe('the purchasing-power groups', () => {
  it('name real ISO countries, each in one group only', () => {
    const all = PPP_GROUP_DEFINITIONS.flatMap((g) => g.countries);
    expect(all.filter((c) => normalizeCountry(c) !== c)).toEqual([]);
    expect(all.length).toBe(new Set(all).size);
    expect(all.length).toBeGreaterThan(190);
  });

  it('place a few well-known countries where price levels put them', () => {
    expect([pppGroupOf('US'), pppGroupOf('DE'), pppGroupOf('PL'), pppGroupOf('BR'), pppGroupOf('IN')]).toEqual([1, 2, 3, 4, 5]);
    expect(pppGroupOf('AQ')).toBeNull();
  });
});

describe('promotionFor', () => {
  const rules = rulesOf(promotion());

  it("gives a country its group's percentage, and its override over it (0 included)", () => {
    expect(promotionFor(rules, 'DE')).toEqual({ percentage: 10, code: 'PPP40' });
    expect(promotionFor(rules, 'vn')).toEqual({ percentage: 40, code: 'PPP40' });
    expect(promotionFor(rules, 'IN')).toEqual({ percentage: 55, code: 'PPP40' });
    expect(promotionFor(rules, 'BR')).toBeNull();
  });

  it('gives nothing to group 1 at 0%, an unlocated buyer, a country in no group, or a disabled or archived promotion', () => {
    expect(promotionFor(rules, 'US')).toBeNull();
    expect(promotionFor(rules, null)).toBeNull();
    expect(promotionFor(rules, 'AQ')).toBeNull();
    expect(promotionFor(rulesOf(promotion({ enabled: false })), 'IN')).toBeNull();
    expect(promotionFor(rulesOf(promotion({ archivedOn: '2026-02-01T00:00:00.000Z' })), 'IN')).toBeNull();
  });

  it('gives a discount without a code when the promotion has none', () => {
    expect(promotionFor(rulesOf(promotion({ couponCode: null })), 'IN')).toEqual({ percentage: 55, code: null });
  });
});

describe('promotionCovers', () => {
  it('covers the plans of its scope, or every plan of its product', () => {
    expect(promotionCovers(rulesOf(promotion()), 'product-1', 'basic')).toBe(true);
    expect(promotionCovers(rulesOf(promotion()), 'product-2', 'basic')).toBe(false);
    const scoped = rulesOf(promotion({ planIdentifiers: ['pro'] }));
    expect(promotionCovers(scoped, 'product-1', 'pro')).toBe(true);
    expect(promotionCovers(scoped, 'product-1', 'basic')).toBe(false);
  });
});

describe('the answer of GET /promotions', () => {
  const visitor = { countryCode: 'IN', countryName: 'India', userAgent: 'Mozilla/5.0 (X11; Linux x86_64) Chrome/120.0' };

  it('has the reference shape, the message filled in and the banner template verbatim', () => {
    expect(promotionAnswer(rulesOf(promotion()), visitor)).toEqual({
      country: 'India',
      countryCode: 'IN',
      percentage: 55,
      code: 'PPP40',
      message: 'From India 🇮🇳: 55% off with PPP40 (55%, PPP40)',
      widgets: [{ type: 'BANNER', ...DEFAULT_BANNER }],
      security: { vpn: false, tor: false, proxy: false, relay: false, crawler: false },
    });
  });

  it('gives a crawler nothing while the check is on, and flags it', () => {
    const bot = { ...visitor, userAgent: 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)' };
    const flagged = promotionAnswer(rulesOf(promotion()), bot);
    expect(flagged).toMatchObject({ percentage: 0, code: '', message: '', security: { crawler: true } });
    const unchecked = promotionAnswer(rulesOf(promotion({ security: { ...DEFAULT_SECURITY, crawler: false } })), bot);
    expect(unchecked).toMatchObject({ percentage: 55, code: 'PPP40', security: { crawler: false } });
  });

  it('answers an unlocated visitor with empty country fields and no discount', () => {
    expect(promotionAnswer(rulesOf(promotion()), { countryCode: null, countryName: '', userAgent: null })).toMatchObject({
      country: '',
      countryCode: '',
      percentage: 0,
      code: '',
      message: '',
    });
  });
});

describe('helpers', () => {
  it('recognises crawlers by User-Agent, not browsers', () => {
    for (const ua of ['Googlebot/2.1', 'bingbot/2.0', 'facebookexternalhit/1.1', 'curl/8.5.0', 'python-requests/2.31', 'HeadlessChrome/120']) {
      expect(isCrawler(ua), ua).toBe(true);
    }
    for (const ua of [undefined, '', 'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_0) AppleWebKit/605.1.15 Safari/605.1.15']) {
      expect(isCrawler(ua), String(ua)).toBe(false);
    }
  });

  it('fills placeholders, leaves other braces and seller markup as they are', () => {
    expect(renderMessage('<b>{country}</b> {unknown} {discount}%', { country: 'Chile', countryCode: 'CL', percentage: 20, code: '' })).toBe(
      '<b>Chile</b> {unknown} 20%',
    );
    expect(countryFlag('DE')).toBe('🇩🇪');
    expect(countryFlag('')).toBe('');
  });
});
