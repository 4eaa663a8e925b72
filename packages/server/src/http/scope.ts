import type { FastifyRequest } from 'fastify';
import type { EnvironmentKind } from '../config.js';
import type { Clock } from '../lib/clock.js';
import { prefixOfSecret } from '../modules/tenancy/keys.js';
import { apiBaseUrl, rootUrl } from './urls.js';

/** Whose request it is: the key's organization, environment and kind. */
export interface EnvironmentAuth {
  keyId: string;
  kind: 'server' | 'client';
  organizationId: string;
  environmentId: string;
  environment: EnvironmentKind;
}

/** The person behind a request a session authenticated (decision 0076); none for an API key. */
export interface Person {
  userId: string;
  email: string;
  role: 'owner' | 'admin' | 'developer' | 'support' | 'viewer';
  sessionId: string;
}

/** What a request scope needs from the application, fixed at start. */
export interface ScopeSettings {
  clock: Clock;
  /** BILLOW_PUBLIC_URL: the root printed in links instead of the request's own host. */
  publicUrl: string | null;
}

/**
 * Everything a service needs to know about the caller, built once per request
 * when its key is admitted: who is asking, in which environment, what time it
 * is, and where links in the answer point. The URLs are worked out on first use,
 * so the Edge API's hot path, which prints none, never pays for them.
 */
export class RequestScope implements EnvironmentAuth {
  readonly keyId: string;
  readonly kind: 'server' | 'client';
  readonly organizationId: string;
  readonly environmentId: string;
  readonly environment: EnvironmentKind;
  readonly clock: Clock;
  private root: string | undefined;
  private api: string | undefined;
  /** Set once the request's change was recorded in the audit log inside its transaction (decision 0077). */
  auditRecorded = false;

  constructor(
    private readonly request: FastifyRequest,
    auth: EnvironmentAuth,
    private readonly settings: ScopeSettings,
    /** The signed-in person, when a session (not a key) is the credential. */
    readonly person: Person | null = null,
  ) {
    this.keyId = auth.keyId;
    this.kind = auth.kind;
    this.organizationId = auth.organizationId;
    this.environmentId = auth.environmentId;
    this.environment = auth.environment;
    this.clock = settings.clock;
  }

  /** Root URL of this server as the caller sees it, e.g. https://billing.example.com. */
  get baseUrl(): string {
    this.root ??= rootUrl(this.request, this.settings.publicUrl);
    return this.root;
  }

  /** The caller's API base, environment prefix included: https://host/sandbox/api/v1. */
  get apiBase(): string {
    this.api ??= apiBaseUrl(this.request, this.settings.publicUrl);
    return this.api;
  }

  /** Who makes the request's changes, as the audit log records them: the signed-in person, or the key by its visible prefix. */
  get auditActor(): { type: 'user' | 'api_key'; id: string; label: string; clientAddress: string } {
    const clientAddress = this.request.ip;
    if (this.person) return { type: 'user', id: this.person.userId, label: this.person.email, clientAddress };
    const secret = /^Bearer\s+(\S+)\s*$/i.exec(this.request.headers.authorization ?? '')?.[1] ?? '';
    const prefix = prefixOfSecret(secret) ?? this.keyId;
    return { type: 'api_key', id: prefix, label: `${this.kind} key ${prefix}`, clientAddress };
  }

  /** The scope as data, as an intent stores it for whoever completes the payment later. */
  toJSON(): EnvironmentAuth & { baseUrl: string; apiBase: string } {
    const { keyId, kind, organizationId, environmentId, environment, baseUrl, apiBase } = this;
    return { keyId, kind, organizationId, environmentId, environment, baseUrl, apiBase };
  }
}

/** The request's scope, on a route that requires an environment key. */
export function scopeOf(request: FastifyRequest): RequestScope {
  if (!request.auth) throw new Error('scopeOf() called on a route without environment authentication');
  return request.auth;
}
