import { createHmac, timingSafeEqual } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import { uniqueId, type Response, type TestOrg, type TestServer } from './harness.js';
import type { Received } from './webhook-support.js';

export type Environment = 'sandbox' | 'production';

/** One environment of an organization, spoken to over HTTP with its server key. */
export function apiOf(server: TestServer, org: TestOrg, environment: Environment = 'sandbox') {
  const prefix = environment === 'sandbox' ? '/sandbox' : '';
  return (method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<Response> =>
    server.request(method, `${prefix}/api/v1${path}`, {
      key: org[environment].serverKey,
      ...(body !== undefined ? { body } : {}),
      ...(headers ? { headers } : {}),
    });
}

export type Api = ReturnType<typeof apiOf>;

/** Creates an endpoint and fails the test unless it was created. */
export async function createEndpoint(api: Api, body: Record<string, unknown>): Promise<{ id: string; secret: string } & Record<string, any>> {
  const created = await api('POST', '/webhook/endpoints/', body);
  if (created.status !== 201) throw new Error(`endpoint not created: ${created.status} ${created.text}`);
  return created.body;
}

/** A new customer (customer.created); returns its customerId. */
export async function createCustomer(api: Api, label = 'hooked'): Promise<string> {
  const customerId = uniqueId(label);
  const created = await api('POST', '/customers/', { customerId, email: `${customerId}@example.com`, name: label });
  if (created.status !== 201) throw new Error(`customer not created: ${created.status} ${created.text}`);
  return customerId;
}

/** Renames a customer (customer.updated). */
export async function renameCustomer(api: Api, customerId: string, name: string): Promise<void> {
  const updated = await api('PATCH', `/customers/${customerId}/`, { name });
  if (updated.status !== 200) throw new Error(`customer not updated: ${updated.status} ${updated.text}`);
}

const header = (headers: IncomingHttpHeaders, name: string) => String(headers[name] ?? '');

/**
 * What a seller can write with plain node:crypto: every `v1,<hex>` signature in the header
 * is tried, so that a delivery signed with both secrets during a rotation verifies with either.
 */
export function verifiesWithPlainNode(delivery: Pick<Received, 'headers' | 'body'>, secret: string): boolean {
  const id = header(delivery.headers, 'webhook-id');
  const timestamp = header(delivery.headers, 'webhook-timestamp');
  const expected = createHmac('sha256', secret).update(`${id}.${timestamp}.${delivery.body}`).digest();
  return header(delivery.headers, 'webhook-signature')
    .split(' ')
    .filter((s) => s.startsWith('v1,') && /^[0-9a-f]{64}$/.test(s.slice(3)))
    .some((s) => timingSafeEqual(Buffer.from(s.slice(3), 'hex'), expected));
}

/** The Standard Webhooks way: base64 HMAC keyed with the base64-decoded part after `kq_whsec_`. */
export function verifiesTheStandardWay(delivery: Pick<Received, 'headers' | 'body'>, secret: string): boolean {
  const key = Buffer.from(secret.slice('kq_whsec_'.length), 'base64');
  const id = header(delivery.headers, 'webhook-id');
  const timestamp = header(delivery.headers, 'webhook-timestamp');
  const expected = createHmac('sha256', key).update(`${id}.${timestamp}.${delivery.body}`).digest('base64');
  return header(delivery.headers, 'webhook-signature')
    .split(' ')
    .some((s) => s === `v1,${expected}`);
}

/** The delivery log of an environment, newest first (one page of up to 100). */
export async function logsOf(api: Api, query = ''): Promise<any[]> {
  const logs = await api('GET', `/webhook/logs/?page_size=100${query ? `&${query}` : ''}`);
  if (logs.status !== 200) throw new Error(`logs: ${logs.status} ${logs.text}`);
  return logs.body.results;
}

export const MINUTE = 60_000;
