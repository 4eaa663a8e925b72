/** What other folders may read of promotions, with their own executor (the checkout, inside its transaction). */
export { findPromotion } from './repo.js';
export { presentPromotion } from './service.js';
export { promotionCovers, promotionFor, rulesOf, isCrawler, type PromotionDiscount, type PromotionRules } from './promotion.compute.js';
export { promotionForBuyer, type BuyerLocation, type LocatedPromotion } from './location.compute.js';
export { locatedPromotion, productPromotions } from './location.js';
