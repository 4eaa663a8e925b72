import type { App } from '../../http/route-types.js';
import type { ModuleContext } from '../context.js';
import { partnerRoutes } from './routes.js';
import { PartnerService } from './service.js';

/** Provisioning of organizations by partners. */
export function partnerModule(app: App, { db, clock }: ModuleContext): void {
  partnerRoutes(app, new PartnerService(db, clock));
}
