import { AuditLog, AuditLogQuery, ErrorBody } from '@billow/contract';
import type { FastifyRequest } from 'fastify';
import { SERVER_ONLY, type App } from '../../http/route-types.js';
import { scopeOf } from '../../http/scope.js';
import type { AuditService } from './service.js';

function nextUrl(request: FastifyRequest, cursor: string | null): string | null {
  if (!cursor) return null;
  const [path, search = ''] = request.originalUrl.split('?', 2) as [string, string?];
  const params = new URLSearchParams(search);
  params.set('cursor', cursor);
  return `${request.protocol}://${request.host}${path}?${params.toString()}`;
}

export function auditRoutes(app: App, service: AuditService): void {
  app.get(
    '/api/v1/audit-log/',
    {
      config: { auth: SERVER_ONLY },
      schema: {
        tags: ['Audit log'],
        summary: 'Read the audit log',
        description:
          "An addition of Billow's, not in the Kelviq API: every change made to the organization by a person (a dashboard session) or a key, " +
          'newest first: who (`actorId`: the user id, or the key\'s prefix), what (`action`, `resource`, `resourceId`; `before` and `after` for settings), ' +
          'when and from where. Both environments and the team are in one log, whichever environment\'s URL reads it. Filter by `actorId`, `action`, ' +
          '`resource` (a kind such as `seller_profile` or a resource id), `start` and `end` (ISO 8601; start included, end excluded); ' +
          '`next` is the URL of the older page (`cursor`). Nothing can change or delete an entry. With a session, only owners and admins may read it.',
        querystring: AuditLogQuery,
        response: { 200: AuditLog, 400: ErrorBody, 401: ErrorBody, 403: ErrorBody },
      },
    },
    async (request) => {
      const { results, nextCursor } = await service.list(scopeOf(request).organizationId, { ...request.query, actorId: request.query.actor_id });
      return { results, next: nextUrl(request, nextCursor) };
    },
  );
}
