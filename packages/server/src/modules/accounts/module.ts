import type { Redis } from 'ioredis';
import type { App } from '../../http/route-types.js';
import type { MailOutbox } from '../mail/queries.js';
import type { ModuleContext } from '../context.js';
import { accountRoutes } from './account-routes.js';
import { AccountService } from './account.service.js';
import { LINK_REQUEST_LIMITS, LinkRequestLimiter } from './link-request-limit.js';
import { recoveryRoutes } from './recovery-routes.js';
import { RecoveryService } from './recovery.service.js';
import { sessionRoutes } from './routes.js';
import type { SessionService } from './sessions.service.js';
import { teamRoutes } from './team-routes.js';
import { TeamService } from './team.service.js';

/** The seller's people: sessions, their own accounts, sign-in by email, the team (issue 29; decision 0076). */
export function accountsModule(app: App, context: ModuleContext & { sessions: SessionService; mail: MailOutbox; redis: Redis | null }): void {
  const { db, clock, publicUrl, sessions, mail, redis } = context;
  sessionRoutes(app, sessions, publicUrl);
  accountRoutes(app, new AccountService(db, clock, sessions), sessions);
  recoveryRoutes(app, new RecoveryService(db, clock, mail, sessions, new LinkRequestLimiter(LINK_REQUEST_LIMITS, redis)), sessions, publicUrl);
  teamRoutes(app, new TeamService(db, clock, mail), publicUrl);
}
