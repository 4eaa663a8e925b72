/**
 * How a discount enters a checkout session: resolved (and refused with a 400 when unknown,
 * expired, exhausted or not applicable) when the session is created and when the page
 * applies a code, priced into the purchase's quote, and redeemed once, in the purchase's
 * own transaction, when the session completes (decision 0032).
 */
import type { Executor, Tx } from '../../db/transaction.js';
import type { PurchaseDiscount, ResolvedPurchase } from '../purchases/purchase.js';
import { isDiscountCodeUnknown } from '../discounts/errors.js';
import { quoteDiscountOf, redeemDiscount, resolveDiscountCode, type ResolvedDiscount } from '../discounts/queries.js';
import { isPromotionCode } from './promotion.js';
import type { SessionRow } from './repo.js';

type DiscountContext = Parameters<typeof resolveDiscountCode>[3];

/**
 * The discount of a code, or null when the code is a live promotion's coupon code of the
 * product and no discount has it: the promotion applies by the buyer's location, not by
 * its code, so its code is accepted and gives nothing more (decision 0036).
 */
async function codeDiscount(db: Executor, environmentId: string, productId: string, code: string, context: DiscountContext): Promise<ResolvedDiscount | null> {
  try {
    return await resolveDiscountCode(db, environmentId, code, context);
  } catch (error) {
    if (isDiscountCodeUnknown(error) && (await isPromotionCode(db, environmentId, productId, code))) return null;
    throw error;
  }
}

/** The code, for this purchase; a 400 DomainError of the discounts module when it cannot apply. */
export function resolveCheckoutDiscount(
  tx: Executor,
  scope: { environmentId: string },
  code: string,
  purchase: ResolvedPurchase,
  now: Date,
): Promise<ResolvedDiscount | null> {
  return codeDiscount(tx, scope.environmentId, purchase.product.id, code, {
    planIdentifier: purchase.plan.identifier,
    productId: purchase.product.id,
    currency: purchase.quote.currency,
    now,
  });
}

/** The discount the session's code gives a purchase of `planIdentifier` now; null without a code. */
/** A session's discount as the price takes it, and how many payments it lasts (null: every payment). */
export interface SessionDiscount extends PurchaseDiscount {
  payments: number | null;
}

export async function discountOfSession(db: Executor, session: SessionRow, planIdentifier: string, now: Date): Promise<SessionDiscount | null> {
  if (!session.discount_code || !session.discounts_enabled) return null;
  const resolved = await codeDiscount(db, session.environment_id, session.product_id, session.discount_code, { planIdentifier, now });
  if (!resolved) return null;
  const payments = resolved.duration === 'FOREVER' ? null : resolved.duration === 'ONCE' ? 1 : (resolved.durationInCycles ?? 1);
  return { ...quoteDiscountOf(resolved), payments };
}

/** Counts the session's code once, with the purchase it paid for; a subscription carries it to its renewals. */
export async function redeemSessionDiscount(
  tx: Tx,
  session: SessionRow,
  redemption: { customerId: string; subscriptionId: string | null; orderId: string; discountedFirstPayment: boolean; now: Date },
): Promise<void> {
  if (!session.discount_code || !session.discounts_enabled) return;
  const resolved = await codeDiscount(tx, session.environment_id, session.product_id, session.discount_code, { planIdentifier: session.plan_identifier, now: redemption.now });
  if (!resolved) return;
  await redeemDiscount(tx, resolved.id, {
    customerId: redemption.customerId,
    ...(redemption.subscriptionId ? { subscriptionId: redemption.subscriptionId } : {}),
    orderId: redemption.orderId,
    now: redemption.now,
    appliedToFirstPayment: redemption.discountedFirstPayment,
  });
}
