import { browserLanguage } from '../../page-kit/locale.js';
import {
  AcceptInvitation,
  PasswordReset,
  PasswordResetRequest,
  Session,
  NoContent,
} from '@billow/contract';
import { Type } from 'typebox';
import type { App } from '../../http/route-types.js';
import { sessionToken } from '../../http/session-auth.js';
import { rootUrl } from '../../http/urls.js';
import type { RecoveryService } from './recovery.service.js';
import { ABOUT, DASHBOARD_API, errors } from './routes.js';
import { clientOf, setSessionCookie } from './session-cookie.js';
import type { SessionService } from './sessions.service.js';

const tags = ['Dashboard sign-in by email'];
const accepted = { 202: Type.Null(), ...errors };

/** Invitations accepted, passwords reset and sign-in links asked for by email (no session needed). */
export function recoveryRoutes(app: App, recovery: RecoveryService, sessions: SessionService, publicUrl: string | null): void {
  app.post(
    `${DASHBOARD_API}/invitations/accept`,
    {
      config: { auth: 'public' },
      schema: {
        tags,
        security: [],
        summary: 'Accept an invitation',
        description: `${ABOUT}. The token of the invitation link; makes the account (name and password) or, for an email that has an account with a password, needs that password (401 otherwise); opens a session.`,
        body: AcceptInvitation,
        response: { 200: Session, ...errors },
      },
    },
    async (request, reply) => {
      const signedIn = await recovery.acceptInvitation(request.body, clientOf(request), sessionToken(request));
      setSessionCookie(reply, { token: signedIn.token, maxAgeMs: sessions.settings.absoluteMs, publicUrl });
      return signedIn.session;
    },
  );

  app.post(
    `${DASHBOARD_API}/password-reset/request`,
    {
      config: { auth: 'public' },
      schema: {
        tags,
        security: [],
        summary: 'Ask for a password reset link',
        description: `${ABOUT}. Mails the account a link to /dashboard/reset-password (valid an hour), by SMTP only (never to a development inbox). Answers 202 whether or not the email has an account. At most 5 reset or sign-in links per email and 20 per client address in an hour: past that 429 \`too_many_link_requests\`.`,
        body: PasswordResetRequest,
        response: accepted,
      },
    },
    async (request, reply) => {
      await recovery.requestReset(request.body.email, rootUrl(request, publicUrl), clientOf(request).address, browserLanguage(request.headers['accept-language']));
      return reply.code(202).send(null);
    },
  );

  app.post(
    `${DASHBOARD_API}/password-reset`,
    {
      config: { auth: 'public' },
      schema: {
        tags,
        security: [],
        summary: 'Set a new password from a reset link',
        description: `${ABOUT}. Every session of the account ends; sign in again with the new password.`,
        body: PasswordReset,
        response: { 204: NoContent, ...errors },
      },
    },
    async (request, reply) => {
      await recovery.reset(request.body.token, request.body.password);
      return reply.code(204).send(null);
    },
  );

  app.post(
    `${DASHBOARD_API}/sign-in/link/request`,
    {
      config: { auth: 'public' },
      schema: {
        tags,
        security: [],
        summary: 'Ask for a sign-in link by email',
        description: `${ABOUT}. Mails the account a one-time link to /dashboard/welcome (valid an hour), by SMTP only (never to a development inbox). Answers 202 whether or not the email has an account. At most 5 reset or sign-in links per email and 20 per client address in an hour: past that 429 \`too_many_link_requests\`.`,
        body: PasswordResetRequest,
        response: accepted,
      },
    },
    async (request, reply) => {
      await recovery.requestSignInLink(request.body.email, rootUrl(request, publicUrl), clientOf(request).address, browserLanguage(request.headers['accept-language']));
      return reply.code(202).send(null);
    },
  );
}
