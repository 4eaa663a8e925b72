import {
  LanguageChoice,
  PasswordChange,
  SessionList,
  TotpCodeBody,
  TotpSetup,
  NoContent,
} from '@billow/contract';
import { Type } from 'typebox';
import type { FastifyRequest } from 'fastify';
import type { App } from '../../http/route-types.js';
import type { AccountService, Me } from './account.service.js';
import { noSession } from './errors.js';
import { ABOUT, csrfCheckedToken, DASHBOARD_API, errors, security } from './routes.js';
import type { SessionService } from './sessions.service.js';

const tags = ['Dashboard account'];

const noContent = { 204: NoContent, ...errors };
type WhoAsks = (request: FastifyRequest) => Promise<Me>;

/** The person's own account: password, language, second factor, sessions (every call with the cookie and its X-CSRF-Token). */
export function accountRoutes(app: App, account: AccountService, sessions: SessionService): void {
  const me: WhoAsks = async (request) => {
    const token = csrfCheckedToken(request);
    if (!token) throw noSession();
    return sessions.live(token);
  };
  passwordAndLanguageRoutes(app, account, me);
  secondFactorRoutes(app, account, me);
  sessionRoutes(app, account, me);
}

function passwordAndLanguageRoutes(app: App, account: AccountService, me: WhoAsks): void {

  app.post(
    `${DASHBOARD_API}/password`,
    {
      config: { auth: 'public' },
      schema: { tags, security, summary: 'Set or change the password', description: `${ABOUT}. \`currentPassword\` is required once the account has a password (one made by a link has none). Every other session of the person ends.`, body: PasswordChange, response: noContent },
    },
    async (request, reply) => {
      await account.changePassword(await me(request), request.body.currentPassword, request.body.newPassword);
      return reply.code(204).send(null);
    },
  );

  app.put(
    `${DASHBOARD_API}/language`,
    {
      config: { auth: 'public' },
      schema: {
        tags,
        security,
        summary: "Choose the dashboard's language",
        description: `${ABOUT}. The person's own choice of en, de, fr, es or ja, kept on their account for every browser they sign in from (\`user.language\` of the session); null goes back to the browser's languages, else English.`,
        body: LanguageChoice,
        response: noContent,
      },
    },
    async (request, reply) => {
      await account.setLanguage(await me(request), request.body.language);
      return reply.code(204).send(null);
    },
  );
}

function secondFactorRoutes(app: App, account: AccountService, me: WhoAsks): void {

  app.post(
    `${DASHBOARD_API}/totp/setup`,
    {
      config: { auth: 'public' },
      schema: {
        tags,
        security,
        summary: 'Start setting up a second factor',
        description: `${ABOUT}. A new TOTP secret (and its otpauth:// URL for a QR code), pending until POST /totp/enable confirms it with a code.`,
        response: { 200: TotpSetup, ...errors },
      },
    },
    async (request) => account.setUpTotp(await me(request)),
  );

  for (const [path, summary, run] of [
    ['enable', 'Enable the second factor with a first code', (m: Me, code: string) => account.enableTotp(m, code)],
    ['disable', 'Disable the second factor (a current code needed)', (m: Me, code: string) => account.disableTotp(m, code)],
  ] as const) {
    app.post(
      `${DASHBOARD_API}/totp/${path}`,
      { config: { auth: 'public' }, schema: { tags, security, summary, description: `${ABOUT}.`, body: TotpCodeBody, response: noContent } },
      async (request, reply) => {
        await run(await me(request), request.body.code);
        return reply.code(204).send(null);
      },
    );
  }
}

function sessionRoutes(app: App, account: AccountService, me: WhoAsks): void {
  app.get(
    `${DASHBOARD_API}/sessions`,
    {
      config: { auth: 'public' },
      schema: { tags, security, summary: "The person's live sessions", description: `${ABOUT}. Newest first; \`current\` marks the one that asks.`, response: { 200: SessionList, ...errors } },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return account.listSessions(await me(request));
    },
  );

  app.delete(
    `${DASHBOARD_API}/sessions/:id`,
    {
      config: { auth: 'public' },
      schema: {
        tags,
        security,
        summary: 'End one of the sessions',
        description: `${ABOUT}. It stops authenticating at once.`,
        params: Type.Object({ id: Type.String({ format: 'uuid' }) }),
        response: noContent,
      },
    },
    async (request, reply) => {
      await account.revokeSession(await me(request), request.params.id);
      return reply.code(204).send(null);
    },
  );
}
