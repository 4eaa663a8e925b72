import type { Db } from '../../db/connect.js';
import { isUuid } from '../../db/search.js';
import { countryOfIp } from '../../lib/geoip.js';
import { countryName } from '../../lib/countries.js';
import { promotionCacheKey, type CachedPromotion, type PromotionCache } from './cache.js';
import { promotionNotFound } from './errors.js';
import { isCrawler, promotionAnswer, rulesOf, type Visitor } from './promotion.compute.js';
import * as repo from './repo.js';
import { presentPromotion } from './service.js';

/** Who asks GET /promotions: where its request came from, and what it says it is. */
export interface Caller {
  ip: string;
  userAgent: string | undefined;
}

/**
 * GET /promotions, answered from the process's cache: a hit costs a map lookup, a
 * geolocation (binary search) and, at most once per country, a serialization.
 */
export class PromotionEdgeService {
  constructor(
    private readonly db: Db,
    private readonly cache: PromotionCache,
  ) {}

  /**
   * The answer for the caller, already JSON; 404 for an unknown or archived promotion.
   * Synchronous when the promotion is cached (the hot path: no promise, no database).
   */
  answer(environmentId: string, promotionId: string, caller: Caller): string | Promise<string> {
    if (!isUuid(promotionId)) throw promotionNotFound(promotionId);
    const key = promotionCacheKey(environmentId, promotionId);
    const hit = this.cache.peek(key);
    if (hit !== undefined) return this.answerFor(hit, promotionId, caller);
    return this.cache.getOrLoad(key, () => this.load(environmentId, promotionId)).then((loaded) => this.answerFor(loaded, promotionId, caller));
  }

  /** The answer `answer` would give when the promotion is cached and live; undefined otherwise (nothing is loaded). */
  cachedAnswer(environmentId: string, promotionId: string, caller: Caller): string | undefined {
    const hit = this.cache.peek(promotionCacheKey(environmentId, promotionId));
    return hit ? this.answerFor(hit, promotionId, caller) : undefined;
  }

  private answerFor(cached: CachedPromotion | null, promotionId: string, caller: Caller): string {
    if (!cached) throw promotionNotFound(promotionId);
    const countryCode = countryOfIp(caller.ip);
    const crawler = cached.rules.security.crawler && isCrawler(caller.userAgent);
    const key = `${countryCode ?? ''}|${crawler ? 1 : 0}`;
    let body = cached.answers.get(key);
    if (!body) {
      const visitor: Visitor = { countryCode, countryName: countryCode ? countryName(countryCode) : '', userAgent: caller.userAgent ?? null };
      body = JSON.stringify(promotionAnswer(cached.rules, visitor));
      cached.answers.set(key, body);
    }
    return body;
  }

  private async load(environmentId: string, promotionId: string): Promise<CachedPromotion | null> {
    const row = await repo.findPromotion(this.db, environmentId, promotionId);
    if (!row || row.archived_at) return null;
    return { rules: rulesOf(presentPromotion(row)), answers: new Map() };
  }
}
