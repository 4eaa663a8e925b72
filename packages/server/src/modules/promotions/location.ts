import type { Executor } from '../../db/transaction.js';
import { promotionForBuyer, type BuyerLocation, type LocatedPromotion } from './location.compute.js';
import { rulesOf } from './promotion.compute.js';
import { livePromotionsOfProduct } from './repo.js';
import { presentPromotion } from './service.js';

/** The live promotions of a product, compiled: one query, read per page or offering. */
export async function productPromotions(db: Executor, environmentId: string, productId: string) {
  const rows = await livePromotionsOfProduct(db, environmentId, productId);
  return rows.map((row) => ({ id: row.id, rules: rulesOf(presentPromotion(row)) }));
}

/** The promotion a buyer gets for a plan of the product (null: none, or the buyer is not where it applies). */
export async function locatedPromotion(
  db: Executor,
  environmentId: string,
  productId: string,
  planIdentifier: string,
  buyer: BuyerLocation,
): Promise<LocatedPromotion | null> {
  if (!buyer.located) return null;
  return promotionForBuyer(await productPromotions(db, environmentId, productId), productId, planIdentifier, buyer);
}
