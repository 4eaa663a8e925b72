import type { App } from '../../http/route-types.js';
import type { ModuleContext } from '../context.js';
import { OrderPresenter, type ImageUrls } from '../ledger/presenter.js';
import { refundRoutes } from './routes.js';
import { RefundService } from './service.js';

/** Refunds of orders, whole or in part. */
export function refundsModule(app: App, { db, clock, media }: ModuleContext & { media: ImageUrls }): void {
  refundRoutes(app, new RefundService(db, clock, new OrderPresenter(media)));
}
