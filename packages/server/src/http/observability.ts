import type { FastifyInstance } from 'fastify';
import { Histogram, type Registry, collectDefaultMetrics } from 'prom-client';

export const REQUEST_ID_HEADER = 'x-request-id';

export function validRequestId(value: unknown): value is string {
  return typeof value === 'string' && value.length > 0 && value.length <= 128 && /^[\w.:@/+=-]+$/.test(value);
}

/** Echoes the request id, logs one line per request, and times every route for /metrics. */
export function registerObservability(app: FastifyInstance, registry: Registry): void {
  collectDefaultMetrics({ register: registry });
  const latency = new Histogram({
    name: 'billow_http_request_duration_seconds',
    help: 'Time to answer an HTTP request, by route',
    labelNames: ['method', 'route', 'status_code'] as const,
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
    registers: [registry],
  });

  // Callback-style hooks: on every request, an async hook would cost a promise and a microtask.
  app.addHook('onRequest', (request, reply, done) => {
    reply.header(REQUEST_ID_HEADER, request.id);
    done();
  });

  // The line per request is at info: below that level, skip building it.
  const logsRequests = ['trace', 'debug', 'info'].includes(app.log.level);

  // One child per (method, route, status), so that an observation does not hash its labels.
  const timers = new Map<string, Histogram.Internal<'method' | 'route' | 'status_code'>>();
  const timerOf = (method: string, route: string, statusCode: number) => {
    const key = `${method} ${statusCode} ${route}`;
    let timer = timers.get(key);
    if (!timer) {
      timer = latency.labels({ method, route, status_code: String(statusCode) });
      timers.set(key, timer);
    }
    return timer;
  };

  app.addHook('onResponse', (request, reply, done) => {
    const route = request.routeOptions.url ?? 'unmatched';
    timerOf(request.method, route, reply.statusCode).observe(reply.elapsedTime / 1000);
    if (logsRequests) {
      request.log.info(
        {
          method: request.method,
          url: request.originalUrl,
          environment: request.environment,
          statusCode: reply.statusCode,
          ms: Math.round(reply.elapsedTime * 100) / 100,
        },
        'request',
      );
    }
    done();
  });
}
