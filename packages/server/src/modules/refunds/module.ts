import type { App } from '../../http/route-types.js';
import type { ModuleContext } from '../context.js';
import { OrderPresenter, type ImageUrls } from '../ledger/presenter.js';
import type { RefundCreator } from './ports.js';
import { refundRoutes } from './routes.js';
import { RefundService } from './service.js';

/** Refunds of orders, whole or in part: reads here; refunding is the use case app.ts hands in. */
export function refundsModule(app: App, { db, media, refunds }: ModuleContext & { media: ImageUrls; refunds: RefundCreator }): void {
  refundRoutes(app, new RefundService(db, new OrderPresenter(media)), refunds);
}
