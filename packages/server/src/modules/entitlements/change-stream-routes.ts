import type { ServerResponse } from 'node:http';
import { EntitlementChangeStream, ErrorBody, type EntitlementChangeEvent } from '@billow/contract';
import type { EntitlementChangeHub } from '../../edge-cache/change-hub.js';
import { SERVER_ONLY, type App } from '../../http/route-types.js';
import { scopeOf } from '../../http/scope.js';
import { tooManyStreams } from './errors.js';

const HEARTBEAT_MS = 15_000;
/** How long a client's EventSource waits before it reconnects, when the stream ends. */
const RETRY_MS = 2_000;

function eventOf({ id, change }: { id: string; change: EntitlementChangeEvent }): string {
  return `id: ${id}\ndata: ${JSON.stringify(change)}\n\n`;
}

/**
 * GET /entitlements/changes/ (Billow's extension, decision 0111): the change feed of the
 * URL's environment as server-sent events, so that a seller's process can keep its own
 * cache of entitlement answers (the SDK's) as honest as Billow's.
 */
export function changeStreamRoutes(app: App, hub: EntitlementChangeHub, limit: number): void {
  const open = new Set<ServerResponse>();
  app.addHook('preClose', (done) => {
    for (const stream of open) stream.end();
    done();
  });

  app.get(
    '/api/v1/entitlements/changes/',
    {
      config: { auth: SERVER_ONLY, rateLimit: false },
      schema: {
        tags: ['Entitlements'],
        summary: 'Follow changes to entitlements',
        description:
          "Ours: a stream that stays open and names every customer whose entitlements or usage change in this environment, as they commit. " +
          'A process that caches entitlement answers drops a customer\'s answer when it is named, everything on `environment` or `reset`, ' +
          'and everything on a `ready` that did not resume. Sent again with `Last-Event-ID`, the stream resumes after that event. ' +
          'Server keys only: the stream names customers. At most BILLOW_CHANGE_STREAM_LIMIT (1,000) streams per environment and server process: 429 beyond.',
        response: { 200: EntitlementChangeStream, 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 429: ErrorBody },
      },
    },
    (request, reply) => {
      const { environmentId } = scopeOf(request);
      if (hub.countOf(environmentId) >= limit) throw tooManyStreams(limit);
      const lastEventId = request.headers['last-event-id'];
      // Read, written and subscribed in one turn of the event loop: no change falls between them.
      const missed = typeof lastEventId === 'string' ? hub.since(environmentId, lastEventId) : null;
      const startId = missed !== null ? (lastEventId as string) : hub.lastId;
      reply.hijack();
      const stream = reply.raw;
      stream.writeHead(200, {
        'content-type': 'text/event-stream; charset=utf-8',
        'cache-control': 'no-store',
        'x-accel-buffering': 'no',
        'x-request-id': request.id,
      });
      stream.write(`retry: ${RETRY_MS}\n\n`);
      stream.write(eventOf({ id: startId, change: { type: 'ready', resumed: missed !== null } }));
      for (const numbered of missed ?? []) stream.write(eventOf(numbered));
      const unsubscribe = hub.subscribe(environmentId, (numbered) => stream.write(eventOf(numbered)));
      const heartbeat = setInterval(() => stream.write(': keep-alive\n\n'), HEARTBEAT_MS);
      heartbeat.unref();
      open.add(stream);
      stream.on('close', () => {
        clearInterval(heartbeat);
        unsubscribe();
        open.delete(stream);
      });
    },
  );
}
