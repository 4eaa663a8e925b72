import type { App } from '../../http/route-types.js';
import type { ModuleContext } from '../context.js';
import { monetizationRoutes } from './routes.js';

/** The product offering for pricing pages. */
export function monetizationModule(app: App, { db, clock }: ModuleContext): void {
  monetizationRoutes(app, { db, clock });
}
