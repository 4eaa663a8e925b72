import type { PromotionBanner } from '@billow/contract';
import { invalidPromotion } from './errors.js';

/**
 * The banner's style values reach a page's CSS through the promotions UI: only plain
 * colours and lengths are accepted, so that no value can smuggle in other declarations.
 */
const COLOR = /^(#[0-9a-f]{3,4}|#[0-9a-f]{6}|#[0-9a-f]{8}|[a-z]{3,30}|(rgb|rgba|hsl|hsla)\([0-9.,%\s/]{1,40}\))$/i;
const LENGTH = /^(0|\d{1,4}(\.\d{1,3})?(px|rem|em|%|pt|vw|vh))$/;

export function checkBanner(banner: PromotionBanner): PromotionBanner {
  for (const field of ['backgroundColor', 'fontColor', 'highlightFontColor'] as const) {
    if (!COLOR.test(banner[field])) throw invalidPromotion(`banner.${field} must be a CSS colour (#rgb, #rrggbb, a name, rgb() or hsl())`);
  }
  for (const field of ['fontSize', 'borderRadius'] as const) {
    if (!LENGTH.test(banner[field])) throw invalidPromotion(`banner.${field} must be 0 or a CSS length such as 1rem or 12px`);
  }
  return banner;
}

const COUPON_CODE = /^[A-Za-z0-9_-]{1,50}$/;

export function checkCouponCode(code: string | null): string | null {
  if (code === null) return null;
  if (!COUPON_CODE.test(code)) throw invalidPromotion('couponCode may contain only letters, digits, - and _ (1 to 50)');
  return code;
}
