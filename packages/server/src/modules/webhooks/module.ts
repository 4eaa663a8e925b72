import type { App } from '../../http/route-types.js';
import type { ModuleContext } from '../context.js';
import { webhookRoutes } from './routes.js';
import { webhookSecretBox } from './secret-box.js';
import { WebhookService } from './service.js';

/** Webhooks: the seller's endpoints and the log of what was sent to them. Delivery runs in the background (dispatcher.ts). */
export function webhooksModule(app: App, { db, clock, config }: ModuleContext): void {
  const service = new WebhookService(db, clock, webhookSecretBox(db, clock, config.secret), config.webhooks.logRetentionMs, config.webhooks.sandboxPrivateTargets);
  webhookRoutes(app, service);
}
