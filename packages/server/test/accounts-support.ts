import { expect } from 'vitest';
import type { MemberRole } from '../src/db/schema.js';
import { createMember } from '../src/modules/accounts/people.service.js';
import { systemClock, type Clock } from '../src/lib/clock.js';
import { uniqueId, type RequestOptions, type Response, type TestOrg, type TestServer } from './harness.js';

/** A signed-in person of a test: their cookie and CSRF token, and calls that carry them. */
export interface Browser {
  email: string;
  password: string;
  userId: string;
  cookie: string;
  csrfToken: string;
  /** A call to the dashboard's API with the cookie (and the CSRF header unless `csrf: false`). */
  dashboard<T = any>(method: string, path: string, body?: unknown, options?: { csrf?: boolean }): Promise<Response<T>>;
  /** A call to the public API with the session as credential, for the organization (production unless the path starts with /sandbox). */
  api<T = any>(method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<Response<T>>;
}

export const PASSWORD = 'correct horse battery staple';

/** The cookie a response set (name=value), or null. */
export function cookieOf(res: Response): string | null {
  const header = res.headers.get('set-cookie');
  return header ? header.split(';')[0]! : null;
}

/** Makes a member of `org` with `role` and a password, and signs them in. */
export async function signedInMember(server: TestServer, org: TestOrg, role: MemberRole, clock: Clock = systemClock): Promise<Browser> {
  const email = `${uniqueId(role)}@example.com`;
  const { userId } = await createMember(server.database.db, clock, { organizationId: org.organizationId, email, role, name: `A ${role}`, password: PASSWORD });
  const res = await server.request('POST', '/dashboard/api/sign-in', { body: { email, password: PASSWORD } });
  expect(res.status, res.text).toBe(200);
  return browserOf(server, org, { email, userId, cookie: cookieOf(res)!, csrfToken: res.body.csrfToken });
}

export function browserOf(server: TestServer, org: TestOrg, who: { email: string; userId: string; cookie: string; csrfToken: string }): Browser {
  const send = (method: string, path: string, body: unknown, headers: Record<string, string>) => {
    const options: RequestOptions = { headers: { cookie: who.cookie, ...headers } };
    if (body !== undefined) options.body = body;
    return server.request(method, path, options);
  };
  return {
    ...who,
    password: PASSWORD,
    dashboard: (method, path, body, options = {}) => send(method, `/dashboard/api${path}`, body, options.csrf === false ? {} : { 'x-csrf-token': who.csrfToken }),
    api: (method, path, body, headers = {}) =>
      send(method, path, body, { 'x-csrf-token': who.csrfToken, 'x-billow-organization': org.organizationId, ...headers }),
  };
}
