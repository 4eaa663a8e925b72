/** What the checkout and the billing engine use of discounts, with their own executor (inside their own transactions). */
export {
  carryDiscount,
  discountForChange,
  discountForRenewal,
  peekDiscountForRenewal,
  redeemDiscount,
  resolveDiscountCode,
  type DiscountContext,
  type Redemption,
  type ResolvedDiscount,
} from './apply.js';
export { discountAmountMinor, quoteDiscountOf, type DiscountTerms } from './discounts.compute.js';
