import {
  ErrorBody,
  Inbox,
  MailAttachmentPath,
} from '@billow/contract';
import type { FastifyReply } from 'fastify';
import { Type } from 'typebox';
import { securityHeaders } from '../../page-kit/headers.js';
import { SERVER_ONLY, type App } from '../../http/route-types.js';
import { scopeOf } from '../../http/scope.js';
import { inboxMessage, inboxMissingPage, inboxPage, messagePage } from './inbox-view.js';
import type { InboxService } from './inbox.service.js';
import { attachmentNotFound } from './errors.js';

const sendPage = (reply: FastifyReply, status: number, page: string) =>
  securityHeaders(reply).code(status).type('text/html; charset=utf-8').send(page);
const Key = Type.String({ maxLength: 200 });

/**
 * The sandbox's development inbox (decision 0038): `GET /sandbox/api/v1/mail/inbox/` (server key)
 * answers the newest messages and the page's secret link; the page lists them and shows one.
 */
export function inboxRoutes(app: App, inbox: InboxService): void {
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
        response: { 200: Inbox, 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody },
      },
    },
    async (request) => {
      const scope = scopeOf(request);
      const { inboxUrl, messages, filesOf } = await inbox.newest(scope);
      return { inboxUrl, messages: messages.map((m) => inboxMessage(m, filesOf(m.id), scope.apiBase)) };
    },
  );

  app.get(
    '/api/v1/mail/inbox/:id/attachments/:position',
    {
      config: { auth: SERVER_ONLY },
      schema: {
        tags: ['Mail'],
        summary: 'Read a file of a message in the development inbox',
        description: 'Sandbox only: the file as the email carries it (a receipt\'s invoice PDF).',
        params: MailAttachmentPath,
        response: {
          // Bytes of the file's own type (a receipt's PDF), not JSON.
          200: Type.Unsafe<Buffer>({
            description: 'The file, with the content type it was attached with',
            content: { '*/*': { schema: { type: 'string', format: 'binary' } } },
          }),
          400: ErrorBody,
          401: ErrorBody,
          403: ErrorBody,
          404: ErrorBody,
        },
      },
    },
    async (request, reply) => {
      const file = await inbox.attachment(scopeOf(request), request.params.id, request.params.position);
      if (!file) throw attachmentNotFound();
      return reply
        .type(file.content_type)
        .header('content-disposition', `attachment; filename="${file.file_name.replace(/[^\w.-]/g, '_')}"`)
        .send(Buffer.from(file.bytes));
    },
  );

  app.get('/mail/inbox/:key', { schema: { hide: true, params: Type.Object({ key: Key }) } }, async (request, reply) => {
    const opened = await inbox.page(request.environment, request.params.key);
    if (!opened) return sendPage(reply, 404, inboxMissingPage());
    return sendPage(reply, 200, inboxPage(opened.organizationName, opened.messages));
  });

  app.get('/mail/inbox/:key/:id', { schema: { hide: true, params: Type.Object({ key: Key, id: Type.String({ maxLength: 100 }) }) } }, async (request, reply) => {
    const message = await inbox.message(request.environment, request.params.key, request.params.id);
    if (!message) return sendPage(reply, 404, inboxMissingPage());
    return sendPage(reply, 200, messagePage(message));
  });
}
