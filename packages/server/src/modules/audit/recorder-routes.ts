import type { AuditRouteAction } from '@billow/contract';
import type { Db } from '../../db/connect.js';
import type { App } from '../../http/route-types.js';
import type { Clock } from '../../lib/clock.js';
import { recordAudit } from './queries.js';

const READS = new Set(['GET', 'HEAD', 'OPTIONS']);
/** The Edge API's writes (usage, raw events, license checks) are the product's telemetry, not the seller's changes. */
const NOT_AUDITED = /^\/api\/v1\/(report|license|entitlements)\//;
const ID_PARAMS = ['id', 'pk', 'customerId', 'subscriptionId', 'refundId', 'identifier', 'product_pk', 'externalId'];

/** The id of what a change touched: the route's own id parameter, else the answer's `id`. */
function resourceIdOf(params: unknown, payload: unknown): string | null {
  const record = (params ?? {}) as Record<string, unknown>;
  for (const name of ID_PARAMS) if (typeof record[name] === 'string') return record[name];
  if (typeof payload !== 'string' || payload.length > 65_536 || !payload.startsWith('{')) return null;
  try {
    const body = JSON.parse(payload) as Record<string, unknown>;
    const id = body.id ?? body.customerId ?? body.identifier;
    return typeof id === 'string' || typeof id === 'number' ? String(id) : null;
  } catch {
    return null;
  }
}

/**
 * Records, before the answer leaves, every successful change a key or a session made
 * through the API that its service did not already record in its own transaction
 * (decision 0077): the operation, the resource it touched, who, when and from where. A
 * failure to record it fails the answer, so that no change is answered as done unrecorded.
 */
export function registerAuditRecorder(app: App, db: Db, clock: Clock): void {
  app.addHook('onSend', (request, reply, payload, done) => {
    const scope = request.auth;
    if (!scope || READS.has(request.method) || request.routeOptions.config.readOnly || scope.auditRecorded || reply.statusCode < 200 || reply.statusCode >= 300) return done(null, payload);
    const route = request.routeOptions.url ?? '';
    // A keyed request's stored answer, replayed, changed nothing (http/idempotency.ts).
    if (!route.startsWith('/api/v1/') || NOT_AUDITED.test(route) || reply.getHeader('idempotent-replayed')) return done(null, payload);
    const resourceType = /^\/api\/v1\/([^/]+)/.exec(route)?.[1] ?? '';
    recordAudit(db, scope, { action: `${request.method} ${route}` as AuditRouteAction, resourceType, resourceId: resourceIdOf(request.params, payload) }, clock.now()).then(
      () => done(null, payload),
      (error: Error) => done(error),
    );
  });
}
