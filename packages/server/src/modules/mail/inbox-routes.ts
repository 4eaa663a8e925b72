import { ErrorBody, Inbox } from '@billow/contract';
import type { FastifyReply } from 'fastify';
import { Type } from 'typebox';
import type { Db } from '../../db/connect.js';
import { securityHeaders } from '../../page-kit/headers.js';
import { SERVER_ONLY, type App } from '../../http/route-types.js';
import { scopeOf } from '../../http/scope.js';
import { inboxOnlyInSandbox } from './errors.js';
import { inboxUrl, type InboxAccess } from './inbox-access.js';
import { inboxMessage, inboxMissingPage, inboxPage, messagePage } from './inbox-view.js';
import * as repo from './repo.js';

const LISTED = 50;

const sendPage = (reply: FastifyReply, status: number, page: string) =>
  securityHeaders(reply).code(status).type('text/html; charset=utf-8').send(page);
const Key = Type.String({ maxLength: 200 });

/**
 * The sandbox's development inbox (decision 0038): `GET /sandbox/api/v1/mail/inbox/` (server key)
 * answers the newest messages and the page's secret link; the page lists them and shows one.
 */
export function inboxRoutes(app: App, deps: { db: Db; access: InboxAccess }): void {
  app.get(
    '/api/v1/mail/inbox/',
    {
      config: { auth: SERVER_ONLY },
      schema: {
        tags: ['Mail'],
        summary: "Read the sandbox's development inbox",
        description:
          'Sandbox only: email the sandbox writes (the portal\'s sign-in codes) is kept here instead of sent. Answers the newest 50 messages and `inboxUrl`, ' +
          'a secret link to the inbox page for a browser. Production sends its email (BILLOW_SMTP_URL) and answers 404.',
        response: { 200: Inbox, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody },
      },
    },
    async (request) => {
      const scope = scopeOf(request);
      if (scope.environment !== 'sandbox') throw inboxOnlyInSandbox();
      const messages = await repo.inboxMessages(deps.db, scope.environmentId, LISTED);
      return { inboxUrl: inboxUrl(scope.baseUrl, await deps.access.keyFor(scope.environmentId)), messages: messages.map(inboxMessage) };
    },
  );

  /** The environment a page's key opens: only in the sandbox, only with a key of ours. */
  const environmentOf = async (environment: string, key: string) =>
    environment === 'sandbox' ? await deps.access.environmentOf(key) : null;

  app.get('/mail/inbox/:key', { schema: { hide: true, params: Type.Object({ key: Key }) } }, async (request, reply) => {
    const environmentId = await environmentOf(request.environment, request.params.key);
    const place = environmentId ? await repo.environmentOf(deps.db, environmentId) : undefined;
    if (!place || place.kind !== 'sandbox') return sendPage(reply, 404, inboxMissingPage());
    return sendPage(reply, 200, inboxPage(place.organizationName, await repo.inboxMessages(deps.db, place.environmentId, LISTED)));
  });

  app.get('/mail/inbox/:key/:id', { schema: { hide: true, params: Type.Object({ key: Key, id: Type.String({ maxLength: 100 }) }) } }, async (request, reply) => {
    const environmentId = await environmentOf(request.environment, request.params.key);
    const id = request.params.id;
    const message = environmentId && /^[0-9a-f-]{36}$/i.test(id) ? await repo.inboxMessage(deps.db, environmentId, id) : undefined;
    if (!message) return sendPage(reply, 404, inboxMissingPage());
    return sendPage(reply, 200, messagePage(message));
  });
}
