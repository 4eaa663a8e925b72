import type { App } from '../../http/route-types.js';
import type { ModuleContext } from '../context.js';
import { InboxAccess } from './inbox-access.js';
import { inboxRoutes } from './inbox-routes.js';
import { InboxService } from './inbox.service.js';
import { emailSettingsRoutes } from './settings-routes.js';
import { EmailSettingsService } from './settings.service.js';

/** Mail (decisions 0038, 0067): the sandbox's development inbox, as an API route and a page; the email settings. The outbox is app-wide (app.ts). */
export function mailModule(app: App, context: ModuleContext): void {
  inboxRoutes(app, new InboxService(context.db, new InboxAccess(context.db, context.clock, context.config.secret)));
  emailSettingsRoutes(app, new EmailSettingsService(context.db, context.clock));
}
