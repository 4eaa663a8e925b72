import type { FastLane } from '../../http/fast-lane.js';
import type { App } from '../../http/route-types.js';
import type { ModuleContext } from '../context.js';
import { promotionChangesFor, type PromotionCache } from './cache.js';
import { PromotionEdgeService } from './edge-service.js';
import { promotionEdgeRoutes } from './edge-routes.js';
import { promotionRoutes } from './routes.js';
import { PromotionService } from './service.js';

type PromotionContext = ModuleContext & { promotionCache: PromotionCache };

/** Promotions' management API (Core): server key, per environment. */
export function promotionsModule(app: App, { db, clock, promotionCache }: PromotionContext): void {
  promotionRoutes(app, new PromotionService(db, clock, promotionChangesFor(promotionCache)));
}

/** GET /promotions (Edge), answered from the process's cache. */
export function promotionsEdgeModule(app: App, { reads, promotionCache, fastLane }: PromotionContext & { fastLane: FastLane }): void {
  promotionEdgeRoutes(app, new PromotionEdgeService(reads, promotionCache), fastLane);
}
