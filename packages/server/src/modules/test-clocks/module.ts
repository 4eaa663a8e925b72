import type { App } from '../../http/route-types.js';
import type { ModuleContext } from '../context.js';
import { testClockRoutes } from './routes.js';
import { TestClockService } from './service.js';

/** Test clocks: sandbox time that moves when the seller says so. */
export function testClocksModule(app: App, { db, clock }: ModuleContext): void {
  testClockRoutes(app, new TestClockService(db, clock));
}
