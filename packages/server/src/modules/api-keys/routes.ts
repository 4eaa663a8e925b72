import {
  ApiKey,
  ApiKeyCreate,
  ApiKeyList,
  CreatedApiKey,
  ErrorBody,
  PageQuery,
  ApiKeyPath,
} from '@billow/contract';
import { pageOf, pageRequest } from '../../http/pagination.js';
import { SERVER_ONLY, type App } from '../../http/route-types.js';
import { scopeOf } from '../../http/scope.js';
import type { ApiKeyService } from './service.js';

const tags = ['API keys'];
const errors = { 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody, 409: ErrorBody };
const ABOUT =
  "An addition of Billow's, not in the Kelviq API: the API keys of the URL's environment (sandbox keys at /sandbox/api/v1, production keys at /api/v1). " +
  'Takes a server key, or a session; with a session, only owners and admins may make or revoke a key (a key can do all a server key can). ';

/** The environment's API keys through the public API (issue 29; decision 0084). */
export function apiKeyRoutes(app: App, keys: ApiKeyService): void {
  app.get(
    '/api/v1/api-keys/',
    {
      config: { auth: SERVER_ONLY },
      schema: {
        tags,
        summary: 'List the API keys',
        description: `${ABOUT}Newest first, revoked keys too, by prefix: never a secret (a key is shown once, when it is made).`,
        querystring: PageQuery,
        response: { 200: ApiKeyList, ...errors },
      },
    },
    async (request) => {
      const page = pageRequest(request.query);
      const { count, results } = await keys.list(scopeOf(request), page);
      return pageOf(request, page, count, results);
    },
  );

  app.post(
    '/api/v1/api-keys/',
    {
      config: { auth: SERVER_ONLY },
      schema: {
        tags,
        summary: 'Make an API key',
        description: `${ABOUT}The answer's \`key\` is the whole key, shown this once: only its hash is kept. Audited (\`api_key.created\`, without the secret).`,
        body: ApiKeyCreate,
        response: { 201: CreatedApiKey, ...errors },
      },
    },
    async (request, reply) => reply.code(201).send(await keys.create(scopeOf(request), request.body)),
  );

  app.delete(
    '/api/v1/api-keys/:prefix/',
    {
      config: { auth: SERVER_ONLY },
      schema: {
        tags,
        summary: 'Revoke an API key',
        description:
          `${ABOUT}Every running server refuses the key at once (401). 400 \`api_key_in_use\` for the key that makes the request, ` +
          '409 for a key already revoked. Audited (`api_key.revoked`). Answers the revoked key.',
        params: ApiKeyPath,
        response: { 200: ApiKey, ...errors },
      },
    },
    async (request) => keys.revoke(scopeOf(request), request.params.prefix),
  );
}
