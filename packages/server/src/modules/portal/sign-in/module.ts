import type { App } from '../../../http/route-types.js';
import type { ModuleContext } from '../../context.js';
import { instanceSecret } from '../../instance-secrets/secret.js';
import { signInRoutes } from './routes.js';
import type { PortalSessions } from '../sessions.js';
import { SignInService, type SignInMail } from './service.js';

/** The portal's sign-in by email code (decision 0038): its service and pages, which open portal sessions. */
export function portalSignIn(app: App, context: ModuleContext, parts: { mail: SignInMail; sessions: PortalSessions }): void {
  const { db, clock, config } = context;
  const secret = instanceSecret(db, clock, config.secret, 'portal_sign_in');
  const service = new SignInService({ db, clock, config: config.signIn, mail: parts.mail, secret });
  signInRoutes(app, { service, sessions: parts.sessions, db, config, secret });
}
