import {
  ErrorBody,
  Session,
  SignIn,
  TokenBody,
  NoContent,
} from '@billow/contract';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { App } from '../../http/route-types.js';
import { requireCsrf, sessionToken } from '../../http/session-auth.js';
import { clearSessionCookie, clientOf, setSessionCookie } from './session-cookie.js';
import type { SessionService, SignedIn } from './sessions.service.js';

export const DASHBOARD_API = '/dashboard/api';
export const tags = ['Dashboard sessions'];
export const security = [{ sessionCookie: [] }];
export const errors = { 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 429: ErrorBody };
export const ABOUT =
  "An addition of Billow's, for the seller's dashboard: never authenticated by an API key, only by the session cookie " +
  '(`billow_session`, HttpOnly, SameSite=Strict)';

/** The live session's token behind a dashboard call that changes something: cookie and its X-CSRF-Token header (401 otherwise). */
export function csrfCheckedToken(request: FastifyRequest): string | null {
  const token = sessionToken(request);
  if (token) requireCsrf(request, token);
  return token;
}

/** The routes that open, read and end a session (decision 0076). */
export function sessionRoutes(app: App, sessions: SessionService, publicUrl: string | null): void {
  const answer = (reply: FastifyReply, signedIn: SignedIn) => {
    setSessionCookie(reply, { token: signedIn.token, maxAgeMs: sessions.settings.absoluteMs, publicUrl });
    return signedIn.session;
  };

  app.post(
    `${DASHBOARD_API}/sign-in`,
    {
      config: { auth: 'public' },
      schema: {
        tags,
        security: [],
        summary: 'Sign in with email and password',
        description:
          `${ABOUT}. Answers the session and sets its cookie; the session the browser held before ends (rotated on sign-in). ` +
          'A wrong email or password answers 401; an account with a second factor needs `totpCode` (401 `TOTP_REQUIRED` without it). ' +
          'Five failures in a row lock the account for 15 minutes, and too many from one address refuse it for a while (429).',
        body: SignIn,
        response: { 200: Session, ...errors },
      },
    },
    async (request, reply) => answer(reply, await sessions.signIn(request.body, clientOf(request), sessionToken(request))),
  );

  app.post(
    `${DASHBOARD_API}/sign-in/link`,
    {
      config: { auth: 'public' },
      schema: {
        tags,
        security: [],
        summary: 'Sign in with a one-time link',
        description: `${ABOUT}. The token of a sign-in link (emailed, printed at the first start, or by \`billow user create\`); it works once, for an hour.`,
        body: TokenBody,
        response: { 200: Session, ...errors },
      },
    },
    async (request, reply) => answer(reply, await sessions.signInWithLink(request.body.token, clientOf(request), sessionToken(request))),
  );

  app.get(
    `${DASHBOARD_API}/session`,
    {
      config: { auth: 'public' },
      schema: {
        tags,
        security,
        summary: 'The current session',
        description: `${ABOUT}. Who is signed in, their organizations and roles, and the CSRF token to send with every request the session authenticates; 401 when none.`,
        response: { 200: Session, ...errors },
      },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return sessions.current(sessionToken(request));
    },
  );

  app.post(
    `${DASHBOARD_API}/sign-out`,
    {
      config: { auth: 'public' },
      schema: { tags, security, summary: 'Sign out', description: `${ABOUT}. Ends the session (X-CSRF-Token required) and clears its cookie.`, response: { 204: NoContent, ...errors } },
    },
    async (request, reply) => {
      await sessions.signOut(csrfCheckedToken(request));
      clearSessionCookie(reply, publicUrl);
      return reply.code(204).send(null);
    },
  );
}
