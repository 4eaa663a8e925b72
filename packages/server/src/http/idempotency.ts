import { ErrorBody } from '@billow/contract';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Clock } from '../lib/clock.js';
import { sha256Hex } from '../lib/crypto.js';
import type { Db } from '../db/connect.js';
import { leaseHolderOf } from '../db/lease-holder.js';
import { failpoint } from '../lib/failpoints.js';
import { ApiError, badRequest, conflict } from './errors.js';
import * as keys from '../modules/idempotency/queries.js';
import type { AnswerKeeper } from '../db/answer-keeper.js';
import { IDEMPOTENCY_TTL_MS } from '../modules/idempotency/retention.js';

export type { AnswerKeeper };

/** How long a request may hold its key before another may take it over (its process died), unless configured. */
export const IDEMPOTENCY_LEASE_MS = 60_000;
const WAIT_STEP_MS = 20;
const MAX_WAIT_MS = 30_000;

declare module 'fastify' {
  interface FastifyRequest {
    /**
     * The request's claim of its Idempotency-Key. `resumedSince`: the claim was taken over
     * from a process that died (decision 0051), whose first run began then and may have
     * committed an effect that the route must answer as its own.
     */
    idempotency: { scope: string; key: string; resumedSince?: Date } | null;
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
  const holder = leaseHolderOf(db);

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
      const lockedUntil = new Date(now.getTime() + leaseMs);
      if (await keys.claimKey(db, { scope, key, hash, lockedUntil, at: now, holder })) {
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
      // Its holder's process died (or its lease ran out) before committing an answer: the request runs again. A keyed
      // write commits its answer with its effect, or finds its effect by the key, so this run answers as the first
      // would have (decision 0051).
      if (await keys.takeOverAbandoned(db, { scope, key, now, lockedUntil, holder })) {
        request.idempotency = { scope, key, resumedSince: existing.created_at };
        return;
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
    // The crash point of a first run: a run that took a dead run's claim over is what recovers from it.
    if (!claim.resumedSince) failpoint('idempotency.before-answer');
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
    // Any POST answers 409 for a key reused with another request, or one still in use: its document says so.
    const responses = route.schema?.response as Record<string, unknown> | undefined;
    if (responses && !('409' in responses)) route.schema = { ...route.schema, response: { ...responses, 409: ErrorBody } };
    route.preHandler = [...hooksOf(route.preHandler), claimKey];
    route.onSend = [...hooksOf(route.onSend), keepAnswer];
  });
}

const hooksOf = <T>(hooks: T | T[] | undefined): T[] => (hooks === undefined ? [] : Array.isArray(hooks) ? hooks : [hooks]);

/**
 * The keeper of a keyed request's answer with status `status`, serialized as the route
 * sends it; undefined for a request without an Idempotency-Key. The answer the request
 * then sends is kept again in onSend, the same.
 */
export function answerKeeper(request: FastifyRequest, reply: FastifyReply, status: number): AnswerKeeper | undefined {
  const claim = request.idempotency;
  if (!claim) return undefined;
  return {
    scope: claim.scope,
    key: claim.key,
    keep: async (tx, body) => {
      const payload = String(reply.code(status).serialize(body));
      await keys.keepAnswer(tx, claim.scope, claim.key, status, withoutSecrets(payload, request.routeOptions.config.secretFields));
    },
  };
}
