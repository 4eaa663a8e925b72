import { randomUUID } from 'node:crypto';
import { type TestOrg, type TestServer } from '../harness.js';

export interface PageResponse {
  status: number;
  text: string;
  headers: Headers;
  location: string | null;
}

/**
 * A browser without JavaScript, for the sign-in pages: it keeps the cookie the pages set,
 * sends forms url-encoded with the page's CSRF token, and follows no redirect by itself.
 */
export class FormBrowser {
  private cookie: string | null = null;

  /** `headers`: sent with every request (an Accept-Language, say). */
  constructor(
    private readonly root: string,
    private readonly headers: Record<string, string> = {},
  ) {}

  async get(path: string): Promise<PageResponse> {
    return this.fetch(path, { method: 'GET' });
  }

  async post(path: string, fields: Record<string, string>): Promise<PageResponse> {
    return this.fetch(path, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(fields).toString(),
    });
  }

  /** Submits `fields` to `path` with this browser's CSRF token, as found on the sign-in page `path` belongs to. */
  async submit(path: string, fields: Record<string, string>): Promise<PageResponse> {
    const page = await this.get(path.replace(/(\/sign-in)\/.*$/, '$1'));
    return this.post(path, { csrf_token: csrfOf(page.text), ...fields });
  }

  forgetCookie(): void {
    this.cookie = null;
  }

  private async fetch(path: string, init: RequestInit): Promise<PageResponse> {
    const headers = new Headers({ ...this.headers, ...Object.fromEntries(new Headers(init.headers)) });
    if (this.cookie) headers.set('cookie', this.cookie);
    const res = await fetch(path.startsWith('http') ? path : `${this.root}${path}`, { ...init, headers, redirect: 'manual' });
    const set = res.headers.get('set-cookie');
    if (set) this.cookie = set.split(';')[0]!;
    return { status: res.status, text: await res.text(), headers: res.headers, location: res.headers.get('location') };
  }
}

export function csrfOf(page: string): string {
  const match = /name="csrf_token" value="([^"]*)"/.exec(page);
  if (!match) throw new Error(`no CSRF token in the page:\n${page}`);
  return match[1]!;
}

/** The slug of an organization's portal URL (/portal/{slug}/). */
export async function slugOf(server: TestServer, organizationId: string): Promise<string> {
  const row = await server.database.db.selectFrom('organizations').select('slug').where('id', '=', organizationId).executeTakeFirstOrThrow();
  return row.slug;
}

export async function createCustomer(
  server: TestServer,
  key: string,
  environment: 'sandbox' | 'production',
  fields: { email: string | null; name?: string; customerId?: string },
): Promise<string> {
  const customerId = fields.customerId ?? `cus-${randomUUID().slice(0, 8)}`;
  const res = await server.request('POST', `${environment === 'sandbox' ? '/sandbox' : ''}/api/v1/customers/`, {
    key,
    body: { customerId, name: fields.name ?? 'Ada Lovelace', email: fields.email },
  });
  if (res.status !== 201) throw new Error(`customer: ${res.status} ${res.text}`);
  return customerId;
}

/** The sandbox inbox as its API answers it. */
export async function inbox(server: TestServer, org: TestOrg): Promise<{ inboxUrl: string; messages: { id: string; to: string; subject: string; text: string }[] }> {
  const res = await server.request('GET', '/sandbox/api/v1/mail/inbox/', { key: org.sandbox.serverKey });
  if (res.status !== 200) throw new Error(`inbox: ${res.status} ${res.text}`);
  return res.body;
}

/** The six-digit code of a message's text. */
export function codeIn(text: string): string {
  const match = /\n(\d{6})\n/.exec(text);
  if (!match) throw new Error(`no code in:\n${text}`);
  return match[1]!;
}

/** The newest code the sandbox inbox holds for `email`. */
export async function latestCode(server: TestServer, org: TestOrg, email: string): Promise<string> {
  const message = (await inbox(server, org)).messages.find((m) => m.to === email);
  if (!message) throw new Error(`no message to ${email}`);
  return codeIn(message.text);
}

export const uniqueEmail = (label = 'buyer') => `${label}-${randomUUID().slice(0, 8)}@example.com`;
