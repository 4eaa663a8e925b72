import type { Db } from '../../db/connect.js';
import type { Clock } from '../../lib/clock.js';
import type { App } from '../../http/route-types.js';
import { PlanEntitlementService } from './entitlements/service.js';
import { featureRoutes } from './features/routes.js';
import { FeatureService } from './features/service.js';
import type { CatalogMedia } from './media-port.js';
import { planRoutes } from './plans/routes.js';
import { PlanService } from './plans/service.js';
import { PriceService } from './prices/service.js';
import { productRoutes } from './products/routes.js';
import { ProductService } from './products/service.js';
import { scopeResolver } from './scope.js';
import type { EntitlementChanges } from '../../edge/change-feed.js';

export interface CatalogDeps {
  db: Db;
  clock: Clock;
  media: CatalogMedia;
  publicUrl: string | null;
  changes: EntitlementChanges | null;
}

/** Products, features, and versioned plans with their prices, entitlements and files. */
export function catalogRoutes(app: App, { db, clock, media, publicUrl, changes }: CatalogDeps): void {
  const scopeOf = scopeResolver(publicUrl);
  const plans = new PlanService(db, clock, media, changes);
  productRoutes(app, new ProductService(db, clock, media), scopeOf);
  featureRoutes(app, new FeatureService(db, clock));
  planRoutes(app, {
    plans,
    prices: new PriceService(db, plans, clock),
    entitlements: new PlanEntitlementService(db, clock, plans),
    scopeOf,
    publicUrl,
  });
}
