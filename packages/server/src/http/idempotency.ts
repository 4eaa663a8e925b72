import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Clock } from '../lib/clock.js';
import { sha256Hex } from '../lib/crypto.js';
import { DAY_MS } from '../lib/time.js';
import type { Db } from '../db/connect.js';
import { ApiError, badRequest, conflict } from './errors.js';
import * as keys from '../modules/idempotency/queries.js';

export const IDEMPOTENCY_TTL_MS = DAY_MS;
/** How long a request may hold its key before another may take it over (its process died), unless configured. */
export const IDEMPOTENCY_LEASE_MS = 60_000;
const WAIT_STEP_MS = 20;
const MAX_WAIT_MS = 30_000;

declare module 'fastify' {
  interface FastifyRequest {
    idempotency: { scope: string; key: string } | null;
  }
  interface FastifyContextConfig {
    /** Response fields that hold secrets: kept as null in the stored replay. */
    secretFields?: readonly string[];
  }
}

function withoutSecrets(payload: string, fields: readonly string[] | undefined): string {
  if (!fields || fields.length === 0) return payload;
  const body = JSON.parse(payload) as Record<string, unknown>;
  for (const field of fields) if (field in body) body[field] = null;
  return JSON.stringify(body);
}

function scopeOf(request: FastifyRequest): string | null {
  if (request.auth) return `env:${request.auth.environmentId}`;
  if (request.partner) return `partner:${request.partner.partnerId}`;
  return null;
}

function fingerprint(request: FastifyRequest): string {
  const path = request.url.split('?', 1)[0]!.replace(/\/+$/, '');
  return sha256Hex(`${request.method} ${path}\n${JSON.stringify(request.body ?? null)}`);
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * `Idempotency-Key` on any POST: the first request with a key runs and its
 * response (status and body) is kept for 24 hours; later requests with the key
 * and the same body get that response back; with another body, 409. Secrets a
 * route marks in `secretFields` are shown once and replayed as null. A request
 * that arrives while the first is still running waits for its answer.
 */
export function registerIdempotency(app: FastifyInstance, db: Db, clock: Clock, leaseMs = IDEMPOTENCY_LEASE_MS): void {
  app.decorateRequest('idempotency', null);

  const claimKey = async (request: FastifyRequest, reply: FastifyReply) => {
    if (request.method !== 'POST') return;
    const header = request.headers['idempotency-key'];
    if (header === undefined) return;
    const key = Array.isArray(header) ? header[0] : header;
    if (!key || key.length > 255) throw badRequest('Idempotency-Key must be 1 to 255 characters');
    const scope = scopeOf(request);
    if (!scope) return;
    const hash = fingerprint(request);
    const waitingSince = Date.now();

    for (;;) {
      const now = clock.now();
      if (await keys.claimKey(db, { scope, key, hash, lockedUntil: new Date(now.getTime() + leaseMs), at: now })) {
        request.idempotency = { scope, key };
        return;
      }
      const existing = await keys.findKey(db, scope, key);
      if (!existing) continue;
      if (existing.created_at.getTime() + IDEMPOTENCY_TTL_MS <= now.getTime()) {
        await keys.deleteKey(db, scope, key, existing.created_at);
        continue;
      }
      if (existing.request_hash !== hash) {
        throw conflict(
          'This Idempotency-Key was already used with a different request; use a new key for a new request',
          'idempotency_key_reused',
        );
      }
      if (existing.response_status !== null && existing.response_body !== null) {
        reply.header('idempotent-replayed', 'true');
        return reply
          .code(existing.response_status)
          .type('application/json; charset=utf-8')
          .send(existing.response_body);
      }
      if (existing.locked_until && existing.locked_until.getTime() <= now.getTime()) {
        if (await keys.takeOverLease(db, scope, key, existing.locked_until, new Date(now.getTime() + leaseMs))) {
          request.idempotency = { scope, key };
          return;
        }
        continue;
      }
      if (Date.now() - waitingSince > MAX_WAIT_MS) {
        throw new ApiError(409, 'idempotency_key_in_use', 'A request with this Idempotency-Key is still in progress');
      }
      await sleep(WAIT_STEP_MS);
    }
  };

  const keepAnswer = async (request: FastifyRequest, reply: FastifyReply, payload: unknown) => {
    const claim = request.idempotency;
    if (!claim) return payload;
    request.idempotency = null;
    const status = reply.statusCode;
    if (status >= 500 || status === 429 || typeof payload !== 'string') {
      await keys.deleteKey(db, claim.scope, claim.key);
    } else {
      await keys.keepAnswer(db, claim.scope, claim.key, status, withoutSecrets(payload, request.routeOptions.config.secretFields));
    }
    return payload;
  };

  // Only POST routes carry the hooks: every other request pays nothing for them.
  app.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    if (!methods.includes('POST')) return;
    route.preHandler = [...hooksOf(route.preHandler), claimKey];
    route.onSend = [...hooksOf(route.onSend), keepAnswer];
  });
}

const hooksOf = <T>(hooks: T | T[] | undefined): T[] => (hooks === undefined ? [] : Array.isArray(hooks) ? hooks : [hooks]);

export async function purgeExpiredIdempotencyKeys(db: Db, clock: Clock): Promise<number> {
  return keys.purgeKeysBefore(db, new Date(clock.now().getTime() - IDEMPOTENCY_TTL_MS));
}
