import type { App } from '../../http/route-types.js';
import type { ModuleContext } from '../context.js';
import type { SellerLogoMedia } from './media-port.js';
import { sellerProfileRoutes } from './routes.js';
import { SellerProfileService } from './service.js';

/** The seller's identity per environment (issue 27). */
export function sellerProfileModule(app: App, { db, clock, media, publicUrl }: ModuleContext & { media: SellerLogoMedia }): void {
  sellerProfileRoutes(app, new SellerProfileService(db, clock, media), publicUrl);
}
