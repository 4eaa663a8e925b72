import type { App } from '../../http/route-types.js';
import type { ModuleContext } from '../context.js';
import { GuideLibrary } from './library.js';
import { guideRoutes } from './routes.js';

/** The guides of docs/, served beside the API reference that links to them. */
export function guidesModule(app: App, _context: ModuleContext): void {
  guideRoutes(app, new GuideLibrary());
}
