import type { FastifyInstance, FastifyRequest } from 'fastify';
import { nowMs, type Clock } from '../lib/clock.js';
import type { Db } from '../db/connect.js';
import type { EnvironmentKind } from '../config.js';
import { claimedEnvironment, hashKey, type KeyKind } from '../modules/tenancy/keys.js';
import { findKeyByHash, type KeyRecord } from '../modules/tenancy/queries.js';
import { countAuthFailures, type AuthFailureLimiter } from './auth-failures.js';
import { environmentOf } from './environment.js';
import type { DomainError } from '../lib/domain-error.js';
import { forbidden, unauthorized } from './errors.js';
import { RequestScope, type EnvironmentAuth, type Person, type ScopeSettings } from './scope.js';
import { admitSession, sessionToken, type SessionAdmitter } from './session-auth.js';

/** Which keys a route accepts; `public` routes take none. */
export type AuthPolicy = readonly ('server' | 'client')[] | 'partner' | 'public';

export type { EnvironmentAuth, SessionAdmitter };

export interface PartnerAuth {
  keyId: string;
  partnerId: string;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    auth?: AuthPolicy;
    /** A POST that changes nothing (a preview): a session's role is checked as for a read, and the audit log records nothing. */
    readOnly?: boolean;
  }
  interface FastifyRequest {
    environment: EnvironmentKind;
    /** The caller's scope, built once when an environment key is admitted (http/scope.ts). */
    auth: RequestScope | null;
    partner: PartnerAuth | null;
  }
}

export const PARTNER_KEY_HEADERS = ['x-billow-partner-key', 'x-kelviq-partner-key'] as const;

/**
 * Keys are looked up by their SHA-256 hash and kept briefly in memory so the
 * hot path reads the database once. A revocation anywhere is announced with
 * NOTIFY and forgotten here at once; the TTL bounds the staleness should a
 * notification be missed.
 */
export class KeyCache {
  private readonly entries = new Map<string, { record: KeyRecord; expires: number }>();
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly ttlMs: number,
  ) {}

  /**
   * SHA-256 of the secrets of keys this cache holds, so that a cached key costs no
   * hash per request (decision 0041). Only secrets of keys that exist are kept: a
   * guessed or malformed one is hashed each time and forgotten, so guesses can
   * neither fill memory nor linger in it.
   */
  private readonly hashes = new Map<string, string>();

  private hashOf(secret: string): string {
    return this.hashes.get(secret) ?? hashKey(secret);
  }

  /** How many secrets this cache holds in memory (all of keys that exist). */
  get rememberedSecrets(): number {
    return this.hashes.size;
  }

  /** The key's record: synchronously when it is cached (the hot path), else from the database. */
  find(secret: string): KeyRecord | null | Promise<KeyRecord | null> {
    const hash = this.hashOf(secret);
    const hit = this.entries.get(hash);
    if (hit && hit.expires > this.clock.now().getTime()) return hit.record;
    return this.load(secret, hash);
  }

  /** True when the key's record is in memory: checking it costs no database read. */
  has(secret: string): boolean {
    return this.cached(secret) !== undefined;
  }

  /** The key's record when it is in memory (one hash, no database read); undefined otherwise. */
  cached(secret: string): KeyRecord | undefined {
    const hit = this.entries.get(this.hashOf(secret));
    return hit !== undefined && hit.expires > nowMs(this.clock) ? hit.record : undefined;
  }

  async lookup(secret: string): Promise<KeyRecord | null> {
    return this.find(secret);
  }

  private async load(secret: string, hash: string): Promise<KeyRecord | null> {
    const now = this.clock.now().getTime();
    const record = await findKeyByHash(this.db, hash);
    if (this.ttlMs > 0 && record) {
      if (this.entries.size > 10_000) this.entries.clear();
      this.entries.set(hash, { record, expires: now + this.ttlMs });
      if (this.hashes.size >= 10_000) this.hashes.clear();
      this.hashes.set(secret, hash);
    }
    return record;
  }

  forget(hash: string): void {
    this.entries.delete(hash);
  }

  clear(): void {
    this.entries.clear();
  }
}

function bearerToken(request: FastifyRequest): string | null {
  const header = request.headers.authorization;
  if (!header) return null;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match?.[1] ?? null;
}

function otherEnvironmentHint(secret: string, environment: EnvironmentKind): string {
  const claimed = claimedEnvironment(secret);
  if (claimed && claimed !== environment) {
    const base = claimed === 'sandbox' ? 'the /sandbox base URL' : 'the production base URL (no /sandbox prefix)';
    return ` This is a ${claimed} key; use it with ${base}.`;
  }
  return '';
}

/** Why a key may not call a route of `environment` that accepts `accepted`; null when it may (the fast lane asks this too). */
export function keyRefusal(
  secret: string,
  key: KeyRecord | null,
  environment: EnvironmentKind,
  accepted: readonly ('server' | 'client')[],
): DomainError | null {
  if (!key || key.kind === 'partner' || !key.environmentId || !key.organizationId) {
    return unauthorized(`The API key is not valid.${otherEnvironmentHint(secret, environment)}`);
  }
  if (key.revoked) return unauthorized('The API key has been revoked');
  if (key.environmentKind !== environment) {
    return unauthorized(
      `The API key belongs to the ${key.environmentKind} environment, not ${environment}.${otherEnvironmentHint(secret, environment)}`,
    );
  }
  if (!accepted.includes(key.kind)) {
    return forbidden(`This operation needs a ${accepted.join(' or ')} key; a ${key.kind} key may not use it`);
  }
  return null;
}

function admitEnvironmentKey(
  request: FastifyRequest,
  secret: string,
  key: KeyRecord | null,
  { accepted, scope }: { accepted: readonly ('server' | 'client')[]; scope: ScopeSettings },
): void {
  const environment = request.environment;
  const refusal = keyRefusal(secret, key, environment, accepted);
  if (refusal) throw refusal;
  const admitted = key as KeyRecord & { kind: 'server' | 'client'; organizationId: string; environmentId: string };
  const auth = { keyId: admitted.id, kind: admitted.kind, organizationId: admitted.organizationId, environmentId: admitted.environmentId, environment };
  request.auth = new RequestScope(request, auth, scope);
}

/** Synchronous when the key is cached; a promise only when the database must be read. */
function authenticateEnvironment(
  request: FastifyRequest,
  guard: AuthGuard,
  accepted: readonly ('server' | 'client')[],
): void | Promise<void> {
  const { cache, failures } = guard;
  const admission = { accepted, scope: guard.scope };
  const secret = bearerToken(request);
  if (!secret) {
    // No key: a seller's session may be the credential (decision 0076); it is never looked for when a key is sent.
    const token = guard.sessions ? sessionToken(request) : null;
    if (token) return admitSession(request, { token, accepted, admit: guard.sessions!, scope: guard.scope });
    return failures.refuseIfBlocked(request.ip, null).then(() => {
      throw unauthorized('Authentication required: send your API key as "Authorization: Bearer <key>"');
    });
  }
  const key = cache.cached(secret);
  if (key === undefined) {
    return failures
      .refuseIfBlocked(request.ip, secret)
      .then(() => cache.lookup(secret))
      .then((record) => admitEnvironmentKey(request, secret, record, admission));
  }
  admitEnvironmentKey(request, secret, key, admission);
}

async function authenticatePartner(request: FastifyRequest, { cache, failures }: AuthGuard): Promise<void> {
  const header = PARTNER_KEY_HEADERS.map((name) => request.headers[name]).find((v) => typeof v === 'string');
  if (typeof header !== 'string' || !cache.has(header.trim())) await failures.refuseIfBlocked(request.ip, typeof header === 'string' ? header.trim() : null);
  if (typeof header !== 'string' || header.trim() === '') {
    throw unauthorized('Partner authentication required: send your partner key in the X-Billow-Partner-Key header');
  }
  const key = await cache.lookup(header.trim());
  if (!key || key.kind !== 'partner' || !key.partnerId) throw unauthorized('The partner key is not valid');
  if (key.revoked) throw unauthorized('The partner key has been revoked');
  request.partner = { keyId: key.id, partnerId: key.partnerId };
}

/** What authentication needs: the key cache, and the count of failures per address. */
export interface AuthGuard {
  cache: KeyCache;
  failures: AuthFailureLimiter;
  /** What each admitted request's scope is built with. */
  scope: ScopeSettings;
  /** Admits a seller's session as an organization's server key; absent, cookies are never read. */
  sessions?: SessionAdmitter;
}

export function registerAuth(app: FastifyInstance, guard: AuthGuard): void {
  countAuthFailures(app, guard.failures);
  app.decorateRequest('environment', 'production');
  app.decorateRequest('auth', null);
  app.decorateRequest('partner', null);
  // Callback style, so that a request whose key is cached is authenticated without a promise.
  app.addHook('onRequest', (request, _reply, done) => {
    request.environment = environmentOf(request.raw);
    let pending: void | Promise<void>;
    try {
      pending = authenticate(request, guard);
    } catch (error) {
      return done(error as Error);
    }
    if (pending) pending.then(() => done(), done);
    else done();
  });
}

function authenticate(request: FastifyRequest, guard: AuthGuard): void | Promise<void> {
  const policy = request.routeOptions.config.auth;
  if (!policy || policy === 'public') return;
  if (policy === 'partner') return authenticatePartner(request, guard);
  return authenticateEnvironment(request, guard, policy);
}

export type { KeyKind, Person };
