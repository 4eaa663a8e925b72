import type { Db } from '../../db/connect.js';
import type { Clock } from '../../lib/clock.js';
import type { App } from '../../http/route-types.js';
import { invoiceRoutes } from '../invoices/routes.js';
import { InvoiceService } from '../invoices/service.js';
import { refundRoutes } from '../refunds/routes.js';
import { RefundService } from '../refunds/service.js';
import { transactionRoutes } from '../transactions/routes.js';
import { TransactionService } from '../transactions/service.js';
import { OrderPresenter, type ImageUrls } from './presenter.js';
import { orderRoutes } from './routes.js';
import { ledgerScopeResolver } from './scope.js';
import { OrderService } from './service.js';

export interface LedgerDeps {
  db: Db;
  clock: Clock;
  /** Public URLs of product images (the media service). */
  media: ImageUrls;
  publicUrl: string | null;
}

/** The money records: orders and their timelines, invoices (with PDFs), transactions and refunds. */
export function ledgerRoutes(app: App, { db, clock, media, publicUrl }: LedgerDeps): void {
  const scopeOf = ledgerScopeResolver(publicUrl);
  const presenter = new OrderPresenter(media);
  orderRoutes(app, new OrderService(db, presenter), scopeOf);
  invoiceRoutes(app, new InvoiceService(db), scopeOf);
  transactionRoutes(app, new TransactionService(db, clock, presenter), scopeOf);
  refundRoutes(app, new RefundService(db, clock, presenter), scopeOf);
}
