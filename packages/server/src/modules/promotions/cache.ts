import type { DatabaseHandle } from '../../db/connect.js';
import { EntitlementCache } from '../../edge-cache/entitlement-cache.js';
import type { PromotionRules } from './promotion.compute.js';
import { PROMOTIONS_CHANNEL } from './repo.js';

/**
 * The Edge API's promotions, per process, keyed `<environmentId>:<promotionId>`: the
 * rules of a live promotion, with the answers already serialized per country, or null
 * for an archived or unknown one. It is the entitlement cache's class (decision 0019):
 * invalidation by LISTEN/NOTIFY, a TTL as a backstop, a bounded size, and no value
 * stored when its key was invalidated while it was being loaded.
 */
export interface CachedPromotion {
  rules: PromotionRules;
  /** Serialized answers by `<countryCode>|<flagged>`: at most two per country. */
  answers: Map<string, string>;
}

export type PromotionCache = EntitlementCache<CachedPromotion | null>;

export function createPromotionCache(): PromotionCache {
  return new EntitlementCache<CachedPromotion | null>({ maxEntries: 10_000 });
}

export const promotionCacheKey = (environmentId: string, promotionId: string): string => `${environmentId}:${promotionId}`;

/** Drops what the notifications name; everything after a reconnect or on a payload it cannot read. */
export function feedPromotionCache(database: Pick<DatabaseHandle, 'listen'>, cache: PromotionCache): Promise<() => Promise<void>> {
  return database.listen(PROMOTIONS_CHANNEL, (payload) => {
    const colon = payload?.indexOf(':') ?? -1;
    if (!payload || colon <= 0) cache.clear();
    else cache.invalidateCustomer(payload.slice(0, colon), payload.slice(colon + 1));
  });
}

/** How the management API tells every process, and this one at once, that a promotion changed. */
export interface PromotionChanges {
  forget(environmentId: string, promotionId: string): void;
}

export function promotionChangesFor(cache: PromotionCache): PromotionChanges {
  return { forget: (environmentId, promotionId) => cache.invalidateCustomer(environmentId, promotionId) };
}
