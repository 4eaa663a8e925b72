import type { ServerResponse } from 'node:http';
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { CustomerChangesPath, EntitlementChangeStream, ErrorBody } from '@billow/contract';
import type { EntitlementChangeHub, NumberedChange } from '../../edge-cache/change-hub.js';
import { SERVER_ONLY, type App } from '../../http/route-types.js';
import { scopeOf } from '../../http/scope.js';
import { orderedWriter, sseOf, type ChangeEvents } from './change-events.js';
import { tooManyStreams } from './errors.js';

const HEARTBEAT_MS = 15_000;
/** How long a client's EventSource waits before it reconnects, when the stream ends. */
const RETRY_MS = 2_000;

const tags = ['Entitlements'];
const responses = { 200: EntitlementChangeStream, 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody, 429: ErrorBody };

/** Where a stream resumes: after the request's Last-Event-ID when this process can tell what came since, else from now. */
function resumeOf(hub: EntitlementChangeHub, environmentId: string, request: FastifyRequest) {
  const lastEventId = request.headers['last-event-id'];
  const asked = typeof lastEventId === 'string' ? lastEventId : null;
  const missed = asked !== null ? hub.since(environmentId, asked) : null;
  return { asked, missed, startId: missed !== null ? asked! : hub.lastId };
}

/** Streams given their heartbeat in one turn of the event loop: 10,000 at once would hold up the requests in between. */
const HEARTBEATS_PER_TURN = 500;

async function keepAlive(streams: readonly ServerResponse[]): Promise<void> {
  for (let first = 0; first < streams.length; first += HEARTBEATS_PER_TURN) {
    if (first > 0) await nextTurn();
    for (const stream of streams.slice(first, first + HEARTBEATS_PER_TURN)) if (!stream.destroyed) stream.write(': keep-alive\n\n');
  }
}

/**
 * GET /entitlements/changes/ and /entitlements/changes/{customerId}/ (Billow's extension,
 * decisions 0111 and 0118): the change feed of the URL's environment as server-sent events,
 * each change with the customer's entitlements after it, so that a seller's process can keep
 * its own entitlement answers (the SDK's cache) as honest as Billow's, and check at memory speed.
 */
export function changeStreamRoutes(app: App, hub: EntitlementChangeHub, events: ChangeEvents, limit: number): void {
  const open = new Set<ServerResponse>();
  // One timer for every stream: 10,000 streams cost no more timers than one.
  const heartbeat = setInterval(() => void keepAlive([...open]), HEARTBEAT_MS);
  heartbeat.unref();
  app.addHook('preClose', (done) => {
    clearInterval(heartbeat);
    for (const stream of open) stream.end();
    done();
  });

  /** Answers the request with the stream's headers; the answer queues an event, in order. `unsubscribe` runs when the stream closes. */
  function start(request: FastifyRequest, reply: FastifyReply, unsubscribe: () => void) {
    reply.hijack();
    const stream = reply.raw;
    stream.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-store',
      'x-accel-buffering': 'no',
      'x-request-id': request.id,
    });
    stream.write(`retry: ${RETRY_MS}\n\n`);
    const end = () => {
      unsubscribe();
      open.delete(stream);
    };
    open.add(stream);
    stream.on('close', end);
    // Gone while the snapshot was read: 'close' came before it was listened to.
    if (request.raw.socket.destroyed) end();
    return orderedWriter((text) => {
      if (text && !stream.destroyed) stream.write(text);
    });
  }

  app.get(
    '/api/v1/entitlements/changes/',
    {
      config: { auth: SERVER_ONLY, rateLimit: false },
      schema: {
        tags,
        summary: 'Follow changes to entitlements',
        description:
          "Ours: a stream that stays open and names every customer whose entitlements or usage change in this environment, as they commit, with the customer's entitlements after the change. " +
          "A process that caches entitlement answers replaces a customer's answer with the one the event carries (or drops it when it carries none), drops everything on `environment` or `reset`, " +
          'and everything on a `ready` that did not resume. Sent again with `Last-Event-ID`, the stream resumes after that event; when it cannot, a `reset` follows `ready`. ' +
          'Server keys only: the stream names customers. At most BILLOW_CHANGE_STREAM_LIMIT (10,000) streams per environment and server process: 429 beyond.',
        response: responses,
      },
    },
    (request, reply) => {
      const { environmentId } = scopeOf(request);
      if (hub.countOf(environmentId) >= limit) throw tooManyStreams(limit);
      // Read, answered and subscribed in one turn of the event loop: no change falls between them.
      const { asked, missed, startId } = resumeOf(hub, environmentId, request);
      let send: ReturnType<typeof start> | null = null;
      const unsubscribe = hub.subscribe(environmentId, (numbered) => send?.(events.textOf(environmentId, numbered)));
      send = start(request, reply, unsubscribe);
      send(sseOf(startId, { type: 'ready', resumed: missed !== null }));
      if (asked !== null && missed === null) send(sseOf(startId, { type: 'reset' }));
      for (const text of events.textsOfMissed(environmentId, missed ?? [])) send(text);
    },
  );

  app.get(
    '/api/v1/entitlements/changes/:customerId/',
    {
      config: { auth: SERVER_ONLY, rateLimit: false },
      schema: {
        tags,
        summary: "Follow one customer's entitlements",
        description:
          "Ours: a stream that stays open and sends one customer's entitlements (`snapshot`) and then, as each change commits, their entitlements after it (`customer`). " +
          'On `reset`, a new `snapshot` follows. `Last-Event-ID` is taken as on the stream of the whole environment; the snapshot covers what was missed. ' +
          'Server keys only; 404 for an unknown customer. Counted with the streams of the environment against BILLOW_CHANGE_STREAM_LIMIT: 429 beyond.',
        params: CustomerChangesPath,
        response: responses,
      },
    },
    async (request, reply) => {
      const { environmentId } = scopeOf(request);
      const { customerId } = request.params;
      if (hub.countOf(environmentId) >= limit) throw tooManyStreams(limit);
      const { asked, missed } = resumeOf(hub, environmentId, request);
      // Subscribed before the snapshot is read: a change that commits meanwhile is sent after it.
      const heard: NumberedChange[] = [];
      let deliver = (numbered: NumberedChange) => void heard.push(numbered);
      const startId = hub.lastId;
      const unsubscribe = hub.subscribe(environmentId, (numbered) => deliver(numbered));
      let snapshot;
      try {
        snapshot = await events.answerOf(environmentId, customerId);
      } catch (error) {
        unsubscribe();
        throw error;
      }
      const send = start(request, reply, unsubscribe);
      const snapshotNow = (id: string) =>
        events.entitlementsOf(environmentId, customerId).then((entitlements) =>
          entitlements ? sseOf(id, { type: 'snapshot', customerId, entitlements }) : '',
        );
      send(sseOf(startId, { type: 'ready', resumed: missed !== null }));
      if (asked !== null && missed === null) send(sseOf(startId, { type: 'reset' }));
      send(sseOf(startId, { type: 'snapshot', customerId, entitlements: snapshot.entitlements }));
      deliver = (numbered) => {
        const { change } = numbered;
        if (change.type === 'customer' && change.customerId === customerId) send(events.textOf(environmentId, numbered));
        else if (change.type === 'environment') send(snapshotNow(numbered.id));
        else if (change.type === 'reset') {
          send(sseOf(numbered.id, change));
          send(snapshotNow(numbered.id));
        }
      };
      heard.forEach(deliver);
    },
  );
}
