import type { FastifyRequest } from 'fastify';
import { parse } from 'cookie';
import type { EnvironmentKind } from '../config.js';
import { csrfMatches, SESSION_COOKIE } from '../lib/session-tokens.js';
import { forbidden, unauthorized } from './errors.js';
import { RequestScope, type Person, type ScopeSettings } from './scope.js';

/** What admits a session as an organization's server key (the accounts module's SessionService.admit, wired by app.ts). */
export type SessionAdmitter = (params: {
  token: string;
  organizationId: string;
  environment: EnvironmentKind;
  method: string;
  routeUrl: string;
}) => Promise<Person & { environmentId: string }>;

export const CSRF_HEADER = 'x-csrf-token';
export const ORGANIZATION_HEADER = 'x-billow-organization';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The session cookie's token, or null. */
export function sessionToken(request: FastifyRequest): string | null {
  const header = request.headers.cookie;
  if (!header || !header.includes(SESSION_COOKIE)) return null;
  const token = parse(header)[SESSION_COOKIE];
  return token && /^[A-Za-z0-9]{20,100}$/.test(token) ? token : null;
}

/** The X-CSRF-Token header matches the cookie's session (401 otherwise): the cookie alone never authenticates. */
export function requireCsrf(request: FastifyRequest, token: string): void {
  const presented = request.headers[CSRF_HEADER];
  if (typeof presented !== 'string' || !csrfMatches(token, presented)) {
    throw unauthorized('A session authenticates only with its X-CSRF-Token header (the csrfToken of GET /dashboard/api/session)');
  }
}

/**
 * Admits the request's session as the server key of the organization named by the
 * X-Billow-Organization header, in the URL's environment (decision 0076), then lets the
 * admitter check the member's role against the route.
 */
export async function admitSession(
  request: FastifyRequest,
  options: { token: string; accepted: readonly ('server' | 'client')[]; admit: SessionAdmitter; scope: ScopeSettings },
): Promise<void> {
  requireCsrf(request, options.token);
  const organizationId = request.headers[ORGANIZATION_HEADER];
  if (typeof organizationId !== 'string' || !UUID.test(organizationId)) {
    throw unauthorized('A session authenticates the API only with the X-Billow-Organization header: the id of one of your organizations');
  }
  if (!options.accepted.includes('server')) throw forbidden('This operation takes a client key; a session acts as a server key and may not use it');
  const environment = request.environment;
  const { environmentId, ...person } = await options.admit({
    token: options.token,
    organizationId: organizationId.toLowerCase(),
    environment,
    method: request.routeOptions.config.readOnly ? 'GET' : request.method,
    routeUrl: request.routeOptions.url ?? request.url,
  });
  const auth = { keyId: `session:${person.sessionId}`, kind: 'server' as const, organizationId: organizationId.toLowerCase(), environmentId, environment };
  request.auth = new RequestScope(request, auth, options.scope, person);
}
