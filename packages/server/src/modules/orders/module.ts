import type { App } from '../../http/route-types.js';
import type { ModuleContext } from '../context.js';
import { OrderPresenter, type ImageUrls } from '../ledger/presenter.js';
import { orderRoutes } from './routes.js';
import { OrderService } from './service.js';

/** Orders and their timelines. */
export function ordersModule(app: App, { db, media }: ModuleContext & { media: ImageUrls }): void {
  orderRoutes(app, new OrderService(db, new OrderPresenter(media)));
}
