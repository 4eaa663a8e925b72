import type { App } from '../../http/route-types.js';
import type { ModuleContext } from '../context.js';
import { apiKeyRoutes } from './routes.js';
import { ApiKeyService, type ForgetKey } from './service.js';

/** An environment's API keys, listed, made and revoked through the API (decision 0084). */
export function apiKeysModule(app: App, { db, clock, forgetKey }: ModuleContext & { forgetKey: ForgetKey }): void {
  apiKeyRoutes(app, new ApiKeyService(db, clock, forgetKey));
}
