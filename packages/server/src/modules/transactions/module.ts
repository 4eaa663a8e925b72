import type { App } from '../../http/route-types.js';
import type { ModuleContext } from '../context.js';
import { OrderPresenter, type ImageUrls } from '../ledger/presenter.js';
import { transactionRoutes } from './routes.js';
import { TransactionService } from './service.js';

/** Transactions: the money that moved, charges and refunds. */
export function transactionsModule(app: App, { db, clock, media }: ModuleContext & { media: ImageUrls }): void {
  transactionRoutes(app, new TransactionService(db, clock, new OrderPresenter(media)));
}
