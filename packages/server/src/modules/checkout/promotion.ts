/**
 * Location pricing at checkout (decision 0036): the promotion the buyer's country gets
 * is priced into the page and charged. The buyer is located by the session's ipAddress
 * when it can be trusted (a server key's, or the address a buy link was opened from),
 * else by the address the page is requested from; the promotion is decided when the
 * buyer pays and kept on the session, so that a completion run again (recovery) charges
 * what the buyer saw.
 */
import type { Executor } from '../../db/transaction.js';
import type { PurchasePromotion } from '../purchases/purchase.js';
import { countryOfIp } from '../../lib/geoip.js';
import { locatedPromotion, productPromotions, type LocatedPromotion } from '../promotions/queries.js';
import type { SessionRow } from './repo.js';

/** The buyer's country for promotions: the trusted ipAddress of the session if it locates, else the page's caller. */
export function locatedCountry(session: Pick<SessionRow, 'ip_trusted' | 'ip_address'>, pageIp: string | null): string | null {
  return (session.ip_trusted ? countryOfIp(session.ip_address) : null) ?? countryOfIp(pageIp);
}

/** The promotion a selection gets; none for a customAmount (a price the seller set for this buyer). */
export function promotionOfSelection(
  db: Executor,
  session: SessionRow,
  planIdentifier: string,
  where: { located: string | null; billing: string | null },
): Promise<LocatedPromotion | null> {
  if (session.custom_amount_minor !== null) return Promise.resolve(null);
  return locatedPromotion(db, session.environment_id, session.product_id, planIdentifier, where);
}

/** The promotion decided when the buyer paid, as the purchase takes it. */
export function promotionOfSession(session: Pick<SessionRow, 'promotion_id' | 'promotion_percent'>): PurchasePromotion | null {
  return session.promotion_id && session.promotion_percent ? { id: session.promotion_id, percent: session.promotion_percent } : null;
}

export const asPurchasePromotion = (promotion: LocatedPromotion | null): PurchasePromotion | null =>
  promotion ? { id: promotion.id, percent: promotion.percentage } : null;

/** Whether `code` is the coupon code of a live promotion of the product (compared without regard to case). */
export async function isPromotionCode(db: Executor, environmentId: string, productId: string, code: string): Promise<boolean> {
  const wanted = code.trim().toLowerCase();
  return (await productPromotions(db, environmentId, productId)).some((p) => p.rules.couponCode?.toLowerCase() === wanted);
}
