import type { Promotion, PromotionBanner, PromotionResponse, PromotionSecurityToggles, PppGroup } from '@billow/contract';
import { pppGroupOf } from './ppp-groups.js';

/**
 * Location pricing, without I/O: what a promotion gives a visitor from a country.
 * The Edge API's GET /promotions, the product offering and (later) the checkout
 * all decide with these functions, so that they never disagree.
 */

/** A promotion's rules, compiled for lookups: what every decision reads. */
export interface PromotionRules {
  productId: string;
  /** Null: every published plan of the product. */
  planIdentifiers: readonly string[] | null;
  groups: ReadonlyMap<PppGroup, number>;
  overrides: ReadonlyMap<string, number>;
  couponCode: string | null;
  message: string;
  banner: PromotionBanner;
  security: PromotionSecurityToggles;
  enabled: boolean;
  archived: boolean;
}

export interface PromotionDiscount {
  percentage: number;
  code: string | null;
}

export function rulesOf(promotion: Promotion): PromotionRules {
  return {
    productId: promotion.productId,
    planIdentifiers: promotion.planIdentifiers,
    groups: new Map(promotion.pppDiscounts.map((d) => [d.group, d.percentage])),
    overrides: new Map(promotion.countryOverrides.map((o) => [o.countryCode.toUpperCase(), o.percentage])),
    couponCode: promotion.couponCode,
    message: promotion.message,
    banner: promotion.banner,
    security: promotion.security,
    enabled: promotion.enabled,
    archived: promotion.archivedOn !== null,
  };
}

/** The percentage a country gets: its override if it has one (0 included), else its group's, else 0. */
export function percentageFor(rules: PromotionRules, countryCode: string): number {
  const country = countryCode.toUpperCase();
  const override = rules.overrides.get(country);
  if (override !== undefined) return override;
  const group = pppGroupOf(country);
  return group === null ? 0 : (rules.groups.get(group) ?? 0);
}

/**
 * What the promotion gives a buyer located in `countryCode`: a percentage over 0 and
 * the coupon code, or null when it gives nothing (disabled, archived, no country,
 * or 0% for that country). The checkout and the product offering call this.
 */
export function promotionFor(rules: PromotionRules, countryCode: string | null | undefined): PromotionDiscount | null {
  if (!rules.enabled || rules.archived || !countryCode) return null;
  const percentage = percentageFor(rules, countryCode);
  return percentage > 0 ? { percentage, code: rules.couponCode } : null;
}

/** Whether the promotion is for this product and plan (a plan of its scope, or any plan when it names none). */
export function promotionCovers(rules: PromotionRules, productId: string, planIdentifier: string | null): boolean {
  if (rules.productId !== productId) return false;
  if (rules.planIdentifiers === null || planIdentifier === null) return true;
  return rules.planIdentifiers.includes(planIdentifier);
}

/** User agents of crawlers, link previewers, headless browsers and HTTP libraries that announce themselves. */
const CRAWLER =
  /bot\b|bot\/|crawl|spider|slurp|archiver|facebookexternalhit|embedly|preview|headlesschrome|phantomjs|lighthouse|python-requests|scrapy|curl\/|wget\/|httpclient|go-http-client|okhttp|java\//i;

export function isCrawler(userAgent: string | null | undefined): boolean {
  return !!userAgent && CRAWLER.test(userAgent);
}

export interface Visitor {
  countryCode: string | null;
  /** The country's English name; empty when unknown. */
  countryName: string;
  userAgent: string | null;
}

/**
 * The security results of GET /promotions: a check is reported only when the
 * promotion runs it. Billow has no VPN, Tor, proxy or Private Relay data (it has
 * no network access of its own), so those are never flagged; crawlers are
 * recognised by their User-Agent.
 */
export function securityFlags(toggles: PromotionSecurityToggles, visitor: Visitor): PromotionResponse['security'] {
  return { vpn: false, tor: false, proxy: false, relay: false, crawler: toggles.crawler && isCrawler(visitor.userAgent) };
}

/** 🇮🇳 from IN: two regional indicator symbols. */
export function countryFlag(countryCode: string): string {
  if (!/^[A-Z]{2}$/.test(countryCode)) return '';
  return String.fromCodePoint(...[...countryCode].map((c) => 0x1f1e6 + c.charCodeAt(0) - 65));
}

const PLACEHOLDER = /\{(country|country_flag|coupon_code|code|discount_percentage|discount)\}/g;

/** The message template with its placeholders filled in; seller text stays as it is (the answer is JSON). */
export function renderMessage(template: string, values: { country: string; countryCode: string; percentage: number; code: string }): string {
  return template.replace(PLACEHOLDER, (_, name: string) => {
    switch (name) {
      case 'country':
        return values.country;
      case 'country_flag':
        return countryFlag(values.countryCode);
      case 'coupon_code':
      case 'code':
        return values.code;
      default:
        return String(values.percentage);
    }
  });
}

/**
 * The answer of GET /promotions (DOMAIN.md §2.15) for a visitor. A flagged visitor,
 * or one whose country gets nothing, gets percentage 0, no code and no message;
 * the banner is always described (the promotions UI shows it only with a discount).
 */
export function promotionAnswer(rules: PromotionRules, visitor: Visitor): PromotionResponse {
  const security = securityFlags(rules.security, visitor);
  const flagged = security.vpn || security.tor || security.proxy || security.relay || security.crawler;
  const discount = flagged ? null : promotionFor(rules, visitor.countryCode);
  const countryCode = visitor.countryCode ?? '';
  const percentage = discount?.percentage ?? 0;
  const code = discount?.code ?? '';
  return {
    country: visitor.countryName,
    countryCode,
    percentage,
    code,
    message: discount ? renderMessage(rules.message, { country: visitor.countryName, countryCode, percentage, code }) : '',
    widgets: [{ type: 'BANNER', ...rules.banner }],
    security,
  };
}
