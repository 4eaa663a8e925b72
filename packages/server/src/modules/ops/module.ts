import type { Registry } from 'prom-client';
import type { App } from '../../http/route-types.js';
import type { ModuleContext } from '../context.js';
import { opsRoutes } from './routes.js';

/** Health, readiness and metrics: served by every role. */
export function opsModule(app: App, { ping, registry }: ModuleContext & { ping: () => Promise<void>; registry: Registry }): void {
  opsRoutes(app, { ping, registry });
}
