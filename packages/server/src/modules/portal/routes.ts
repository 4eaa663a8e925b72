import { ErrorBody, PortalSessionCreate, PortalSessionCreated, PortalSessionRefused } from '@billow/contract';
import { SERVER_ONLY, type App } from '../../http/route-types.js';
import { scopeOf } from '../../http/scope.js';
import type { PortalSessions } from './sessions.js';
import { answerKeeper } from '../../http/idempotency.js';

export function portalSessionRoutes(app: App, sessions: PortalSessions): void {
  app.post(
    '/api/v1/portal/session/',
    {
      config: { auth: SERVER_ONLY },
      schema: {
        tags: ['Portal'],
        summary: 'Create a customer portal session',
        description:
          "Answers a token that opens the hosted portal of this one customer (who must have an email) in this environment, and the portal's URL: " +
          "send the customer to customerPortalUrl + '?token=' + token. The token expires (1 hour unless BILLOW_PORTAL_SESSION_TTL_MS says otherwise); " +
          'create one per visit. 400 `{customerId: ["Invalid customer id"]}` or `{customerId: ["Customer does not have an email"]}`, with `detail`.',
        body: PortalSessionCreate,
        response: { 200: PortalSessionCreated, 400: PortalSessionRefused, 401: ErrorBody, 403: ErrorBody },
      },
    },
    async (request, reply) => {
      const scope = scopeOf(request);
      const opened = await sessions.open({
        organizationId: scope.organizationId,
        environmentId: scope.environmentId,
        environment: scope.environment,
        customerId: request.body.customerId,
        baseUrl: scope.baseUrl,
      }, answerKeeper(request, reply, 200));
      return { token: opened.token, email: opened.email, customerPortalUrl: opened.customerPortalUrl };
    },
  );
}
