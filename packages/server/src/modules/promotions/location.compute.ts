import { promotionCovers, promotionFor, type PromotionRules } from './promotion.compute.js';

/**
 * Which promotion a buyer gets at checkout or in the product offering (decision 0036),
 * without I/O: the located country decides, as GET /promotions decides it; with the
 * promotion's strict billing-country check on, a buyer whose billing country is another
 * country gets nothing; among several promotions of the product, the largest percentage.
 */
export interface BuyerLocation {
  /** The country of the buyer's address (a server key's ipAddress, else the request's); null when unknown. */
  located: string | null;
  /** The billing country the purchase is taxed in (the customer's, or the one chosen); null when unknown. */
  billing: string | null;
  /** The caller announced itself as a crawler (only for requests a browser makes). */
  crawler?: boolean;
}

export interface LocatedPromotion {
  id: string;
  percentage: number;
  code: string | null;
  countryCode: string;
}

export function promotionForBuyer(
  promotions: ReadonlyArray<{ id: string; rules: PromotionRules }>,
  productId: string,
  planIdentifier: string | null,
  buyer: BuyerLocation,
): LocatedPromotion | null {
  const located = buyer.located?.toUpperCase() ?? null;
  if (!located) return null;
  let best: LocatedPromotion | null = null;
  for (const { id, rules } of promotions) {
    if (!promotionCovers(rules, productId, planIdentifier)) continue;
    if (rules.security.billingCountry && buyer.billing && buyer.billing.toUpperCase() !== located) continue;
    if (rules.security.crawler && buyer.crawler) continue;
    const discount = promotionFor(rules, located);
    if (discount && (!best || discount.percentage > best.percentage)) best = { id, ...discount, countryCode: located };
  }
  return best;
}
