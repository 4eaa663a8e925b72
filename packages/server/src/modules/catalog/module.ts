import type { App } from '../../http/route-types.js';
import type { ModuleContext } from '../context.js';
import { PlanEntitlementService } from './entitlements/service.js';
import { featureRoutes } from './features/routes.js';
import { FeatureService } from './features/service.js';
import type { CatalogMedia } from './media-port.js';
import { planRoutes } from './plans/routes.js';
import { PlanService } from './plans/service.js';
import { PriceService } from './prices/service.js';
import { productRoutes } from './products/routes.js';
import { ProductService } from './products/service.js';

/** Products, features, and versioned plans with their prices, entitlements and files. */
export function catalogModule(app: App, context: ModuleContext & { media: CatalogMedia }): void {
  const { db, clock, media, publicUrl, entitlementChanges } = context;
  const plans = new PlanService(db, clock, media, entitlementChanges);
  productRoutes(app, new ProductService(db, clock, media), publicUrl);
  featureRoutes(app, new FeatureService(db, clock));
  planRoutes(app, {
    plans,
    prices: new PriceService(db, plans, clock),
    entitlements: new PlanEntitlementService(db, clock, plans),
    publicUrl,
  });
}
