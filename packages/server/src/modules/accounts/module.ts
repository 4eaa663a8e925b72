import type { App } from '../../http/route-types.js';
import type { ModuleContext } from '../context.js';
import { sessionRoutes } from './routes.js';
import type { SessionService } from './sessions.service.js';

/** The seller's people: sessions, accounts, team (issue 29; decision 0076). */
export function accountsModule(app: App, { publicUrl, sessions }: ModuleContext & { sessions: SessionService }): void {
  sessionRoutes(app, sessions, publicUrl);
}
