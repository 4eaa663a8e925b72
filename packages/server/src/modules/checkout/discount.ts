/**
 * THE DISCOUNT SEAM of the hosted checkout: the one place a discount enters a session.
 *
 * The discounts module (issue 13 item 4: resolveDiscountCode / discountAmountMinor /
 * redeemDiscount) is being built separately. Until it lands, no discount exists, so
 * every code is unknown: `discountCode` is refused with 400 at creation, the page's
 * discount field refuses codes, and a purchase carries no discount. To plug it in:
 *
 *   - resolveCheckoutDiscount: resolveDiscountCode(tx, scope, code, plan) → 400 when
 *     unknown, expired, exhausted or not applicable; return its `Discount`;
 *   - discountOfSession: the same, for the code kept on the session, at purchase time
 *     (flows/purchase.ts passes it to the quote; the order records discountMinor);
 *   - redeem it in CheckoutCompletion's `paid` hook (complete.ts), in the purchase's
 *     transaction, so that a redemption limit is counted exactly once per completion.
 */
import type { Tx } from '../../db/transaction.js';
import type { ResolvedPurchase } from '../../flows/purchase.js';
import type { Discount } from '../billing/types.js';
import { discountUnknown } from './errors.js';
import type { SessionRow } from './repo.js';

export async function resolveCheckoutDiscount(
  _tx: Tx,
  _scope: { environmentId: string },
  code: string,
  _purchase: ResolvedPurchase,
): Promise<Discount> {
  throw discountUnknown(code);
}

/** The discount a session's purchase gets: none until the discounts module exists (see above). */
export function discountOfSession(_session: SessionRow): Discount | null {
  return null;
}
