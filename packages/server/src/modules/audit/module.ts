import type { App } from '../../http/route-types.js';
import type { ModuleContext } from '../context.js';
import { auditRoutes } from './routes.js';
import { AuditService } from './service.js';

export { registerAuditRecorder } from './recorder-routes.js';

/** The audit log's API (decision 0077); its recorder is registered by app.ts before every route. */
export function auditModule(app: App, { db }: ModuleContext): void {
  auditRoutes(app, new AuditService(db));
}
