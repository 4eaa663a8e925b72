import type { StoredPrice, StoredTier } from '../catalog/prices/prices.compute.js';

/** `amount` less `percent` % of it, the discount rounded half up to the minor unit, as the checkout's quote rounds it. */
export function promotedAmount(amount: number, percent: number): number {
  return amount - Math.floor((amount * percent + 50) / 100);
}

const promotedTier = (tier: StoredTier, percent: number): StoredTier => ({
  ...tier,
  flatAmount: tier.flatAmount === null ? null : promotedAmount(tier.flatAmount, percent),
  unitAmount: tier.unitAmount === null ? null : promotedAmount(tier.unitAmount, percent),
});

/** The price a promotion's buyer is shown: every amount of every charge lowered by the percentage (decision 0036). */
export function promotedPrice(price: StoredPrice, percent: number): StoredPrice {
  if (percent <= 0) return price;
  return {
    ...price,
    chargeCatalogPrice: price.chargeCatalogPrice.map((entry) => ({
      ...entry,
      charges: entry.charges.map((charge) => ({
        ...charge,
        amount: charge.amount === null ? null : promotedAmount(charge.amount, percent),
        tiers: charge.tiers.map((tier) => promotedTier(tier, percent)),
      })),
    })),
  };
}
