import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import { type Registry, collectDefaultMetrics } from 'prom-client';
import { loggedUrl } from './logged-url.js';
import { LatencyHistogram } from './latency-histogram.js';

export const REQUEST_ID_HEADER = 'x-request-id';

export function validRequestId(value: unknown): value is string {
  return typeof value === 'string' && value.length > 0 && value.length <= 128 && /^[\w.:@/+=-]+$/.test(value);
}

/** The request's id: the caller's X-Request-Id when it is a valid one, else a new UUID. */
export function requestIdOf(req: IncomingMessage): string {
  const given = req.headers[REQUEST_ID_HEADER];
  return validRequestId(given) ? given : randomUUID();
}

/** Where requests answered outside Fastify's hooks (http/fast-lane.ts) are timed and logged. */
export interface RequestRecorder {
  latency: LatencyHistogram;
  /** The logger of the line per request; null when the level is above info. */
  requestLog: FastifyBaseLogger | null;
}

/** Echoes the request id, logs one line per request, and times every route for /metrics. */
export function registerObservability(app: FastifyInstance, registry: Registry): RequestRecorder {
  collectDefaultMetrics({ register: registry });
  const latency = new LatencyHistogram(
    'billow_http_request_duration_seconds',
    'Time to answer an HTTP request, by route',
    [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
    registry,
  );

  // Callback-style hooks: on every request, an async hook would cost a promise and a microtask.
  app.addHook('onRequest', (request, reply, done) => {
    reply.header(REQUEST_ID_HEADER, request.id);
    done();
  });

  // The line per request is at info: below that level, skip building it.
  const logsRequests = ['trace', 'debug', 'info'].includes(app.log.level);

  app.addHook('onResponse', (request, reply, done) => {
    const route = request.routeOptions.url ?? 'unmatched';
    latency.observe(request.method, route, reply.statusCode, reply.elapsedTime / 1000);
    if (logsRequests) {
      request.log.info(
        {
          method: request.method,
          url: loggedUrl(request.originalUrl),
          environment: request.environment,
          statusCode: reply.statusCode,
          ms: Math.round(reply.elapsedTime * 100) / 100,
        },
        'request',
      );
    }
    done();
  });
  return { latency, requestLog: logsRequests ? app.log : null };
}
