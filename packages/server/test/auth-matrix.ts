import type { RouteInfo } from '../src/app.js';
import type { TestOrg, TestServer } from './harness.js';

export interface AuthCase {
  name: string;
  method: string;
  path: string;
  headers: Record<string, string>;
  expected: 401 | 403 | 'accepted';
}

const ENVIRONMENTS = [
  { kind: 'sandbox', prefix: '/sandbox', other: 'production' },
  { kind: 'production', prefix: '', other: 'sandbox' },
] as const;

/** A concrete path for a route pattern: each `:param` becomes a harmless value. */
export function concretePath(url: string): string {
  return url.replace(/:([A-Za-z_]+)/g, (_, name: string) => `auth-matrix-${name}`);
}

const bearer = (key: string) => ({ authorization: `Bearer ${key}` });

/**
 * Every route that takes environment keys, in both environments: no key, an
 * unknown key, a revoked key and the other environment's key are 401; a
 * client key where only a server key will do is 403; an accepted key passes.
 * Partner routes: no key, a wrong or revoked partner key and an environment
 * key are 401. New routes get these cases without writing any.
 */
export function authCases(
  routes: RouteInfo[],
  org: TestOrg,
  revoked: { sandbox: string; production: string; partner: string },
  partnerKey: string,
  /** An owner's session of `org` (decision 0076): admitted as its server key only with both headers. */
  session?: { cookie: string; csrfToken: string },
): AuthCase[] {
  const cases: AuthCase[] = [];
  for (const route of routes) {
    if (route.auth === 'public') continue;
    const path = concretePath(route.url);
    if (route.auth === 'partner') {
      const add = (name: string, headers: Record<string, string>, expected: AuthCase['expected']) =>
        cases.push({ name: `${route.method} ${route.url} ${name}`, method: route.method, path, headers, expected });
      add('without a partner key', {}, 401);
      add('with an unknown partner key', { 'x-billow-partner-key': 'bpk_unknownunknownunknown' }, 401);
      add('with a revoked partner key', { 'x-billow-partner-key': revoked.partner }, 401);
      add('with a server key as partner key', { 'x-billow-partner-key': org.production.serverKey }, 401);
      add('with a server key as bearer', bearer(org.production.serverKey), 401);
      add('with the partner key (Kelviq header)', { 'x-kelviq-partner-key': partnerKey }, 'accepted');
      continue;
    }
    for (const env of ENVIRONMENTS) {
      const full = `${env.prefix}${path}`;
      const add = (name: string, headers: Record<string, string>, expected: AuthCase['expected']) =>
        cases.push({ name: `${route.method} ${env.kind} ${route.url} ${name}`, method: route.method, path: full, headers, expected });
      const keys = org[env.kind];
      add('without a key', {}, 401);
      add('with a malformed header', { authorization: keys.serverKey }, 401);
      add('with an unknown key', bearer(`sk_${env.kind === 'sandbox' ? 'test' : 'live'}_unknownkeyunknownkey`), 401);
      add('with a revoked key', bearer(revoked[env.kind]), 401);
      add("with the other environment's server key", bearer(org[env.other].serverKey), 401);
      add("with the other environment's client key", bearer(org[env.other].clientKey), 401);
      add('with a partner key', bearer(partnerKey), 401);
      add('with a server key', bearer(keys.serverKey), route.auth.includes('server') ? 'accepted' : 403);
      add('with a client key', bearer(keys.clientKey), route.auth.includes('client') ? 'accepted' : 403);
      if (session) {
        const organization = { 'x-billow-organization': org.organizationId };
        add('with a session cookie and no X-CSRF-Token', { cookie: session.cookie, ...organization }, 401);
        add('with a session cookie and a wrong X-CSRF-Token', { cookie: session.cookie, 'x-csrf-token': 'x'.repeat(43), ...organization }, 401);
        add('with a session and no X-Billow-Organization', { cookie: session.cookie, 'x-csrf-token': session.csrfToken }, 401);
        add("with an owner's session", { cookie: session.cookie, 'x-csrf-token': session.csrfToken, ...organization }, route.auth.includes('server') ? 'accepted' : 403);
      }
    }
  }
  return cases;
}

export async function runAuthCase(server: TestServer, c: AuthCase): Promise<{ status: number; body: any }> {
  const hasBody = c.method === 'POST' || c.method === 'PATCH' || c.method === 'PUT';
  const res = await server.request(c.method, c.path, {
    headers: c.headers,
    ...(hasBody ? { body: {} } : {}),
  });
  return { status: res.status, body: res.body };
}
