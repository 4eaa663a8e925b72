import type { App } from '../../http/route-types.js';
import type { ModuleContext } from '../context.js';
import { licenseRoutes } from './routes.js';

/** License keys: activate, deactivate, validate. */
export function licensesModule(app: App, { db, clock }: ModuleContext): void {
  licenseRoutes(app, { db, clock });
}
