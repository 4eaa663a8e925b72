import type { App } from '../../http/route-types.js';
import type { ModuleContext } from '../context.js';
import { invoiceRoutes, type InvoiceCollector } from './routes.js';
import { InvoiceService } from './service.js';

/** Invoices, with their PDFs; unpaid renewal invoices are collected by the billing engine, handed in by app.ts. */
export function invoicesModule(app: App, { db, invoiceCollector }: ModuleContext & { invoiceCollector: InvoiceCollector }): void {
  invoiceRoutes(app, new InvoiceService(db), invoiceCollector);
}
