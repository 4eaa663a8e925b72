/** What other folders may read of promotions, with their own executor (the checkout, inside its transaction). */
export { findPromotion } from './repo.js';
export { presentPromotion } from './service.js';
export { promotionCovers, promotionFor, rulesOf, type PromotionDiscount, type PromotionRules } from './promotion.compute.js';
