import type { App } from '../../../http/route-types.js';
import type { ModuleContext } from '../../context.js';
import { instanceSecret } from '../../instance-secrets/secret.js';
import { signInRoutes } from './routes.js';
import { SignInService, type SignInMail } from './service.js';

/** The portal's sign-in by email code (decision 0038): its service and pages. */
export function portalSignIn(app: App, context: ModuleContext, mail: SignInMail): void {
  const { db, clock, config } = context;
  const secret = instanceSecret(db, clock, config.secret, 'portal_sign_in');
  const service = new SignInService({ db, clock, config: config.signIn, mail, secret });
  signInRoutes(app, { service, db, clock, config, secret });
}
