import type { Registry } from 'prom-client';
import type { App } from '../../http/route-types.js';

const hidden = { hide: true };

export function opsRoutes(app: App, deps: { ping: () => Promise<void>; registry: Registry }): void {
  const options = { config: { auth: 'public' as const, rateLimit: false as const }, schema: hidden };

  app.get('/healthz', options, async () => ({ status: 'ok' }));

  app.get('/readyz', options, async (request, reply) => {
    try {
      await deps.ping();
      return { status: 'ok', database: 'reachable' };
    } catch (error) {
      request.log.warn({ err: error }, 'readiness check failed');
      return reply.code(503).send({ status: 'unavailable', database: 'unreachable' });
    }
  });

  app.get('/metrics', options, async (_request, reply) => {
    reply.type(deps.registry.contentType);
    return deps.registry.metrics();
  });
}

