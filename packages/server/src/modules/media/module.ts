import type { App } from '../../http/route-types.js';
import type { ModuleContext } from '../context.js';
import { mediaRoutes } from './routes.js';
import type { MediaService } from './service.js';

/** Uploads and the files they became. The store itself is made once by app.ts: the catalog and the ledger link to it too. */
export function mediaModule(app: App, { media }: ModuleContext & { media: MediaService }): void {
  mediaRoutes(app, media);
}
