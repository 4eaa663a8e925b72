import type { App } from '../../http/route-types.js';
import type { ModuleContext } from '../context.js';
import { creditNoteRoutes } from './routes.js';
import { CreditNoteService } from './service.js';

/** Credit notes (decision 0065), with their PDFs; refunds and plan changes issue them (issue.ts). */
export function creditNotesModule(app: App, { db }: ModuleContext): void {
  creditNoteRoutes(app, new CreditNoteService(db));
}
