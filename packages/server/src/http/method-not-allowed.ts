import type { FastifyInstance } from 'fastify';
import FindMyWay, { type HTTPMethod } from 'find-my-way';
import { sendError } from './errors.js';

const METHODS: HTTPMethod[] = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];

/**
 * Fastify answers a known path with an unknown method as 404; callers deserve
 * 405 with an Allow header. A second router holding just the paths tells them apart.
 */
export function registerNotFound(app: FastifyInstance): void {
  const paths = FindMyWay({ ignoreTrailingSlash: true, ignoreDuplicateSlashes: true });
  app.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    for (const method of methods) {
      if (METHODS.includes(method as HTTPMethod) && !paths.hasRoute(method as HTTPMethod, route.url)) {
        paths.on(method as HTTPMethod, route.url, () => {});
      }
    }
  });
  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?', 1)[0]!;
    const allowed = METHODS.filter((m) => paths.find(m, path) !== null);
    if (allowed.length > 0) {
      reply.header('allow', [...allowed, ...(allowed.includes('GET') ? ['HEAD'] : [])].join(', '));
      return sendError(reply, 405, 'method_not_allowed', `${request.method} is not allowed here; use ${allowed.join(' or ')}`);
    }
    return sendError(reply, 404, 'not_found', `No route ${request.method} ${request.originalUrl.split('?', 1)[0]}`);
  });
}
