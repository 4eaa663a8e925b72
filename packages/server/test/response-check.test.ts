import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { ResponseMismatch } from '../src/http/response-check.js';
import { conflict } from '../src/lib/domain-error.js';
import { CustomerService } from '../src/modules/customers/service.js';
import { EntitlementService } from '../src/modules/entitlements/service.js';
import { startTestServer, uniqueId, type TestOrg, type TestServer } from './harness.js';

// Decision 0112: test servers check every documented answer against the response schema its route declares.
let server: TestServer;
let org: TestOrg;
const found: ResponseMismatch[] = [];
const undocumented: string[] = [];

beforeAll(async () => {
  server = await startTestServer({
    responseCheck: { mismatch: (mismatch) => found.push(mismatch), undocumented: ({ method, route, status }) => undocumented.push(`${method} ${route} ${status}`) },
  });
  org = await server.createOrg();
});
afterAll(() => server.close());
afterEach(() => {
  vi.restoreAllMocks();
  found.length = 0;
});

async function createdCustomer(): Promise<Record<string, unknown>> {
  const created = await server.request('POST', '/api/v1/customers/', {
    key: org.production.serverKey,
    body: { customerId: uniqueId('cus'), name: 'Ada Lovelace' },
  });
  expect(created.status).toBe(201);
  return created.body;
}

describe('the response check of test servers', () => {
  it('lets an answer the document allows through untouched', async () => {
    const customer = await createdCustomer();
    const read = await server.request('GET', `/api/v1/customers/${String(customer.customerId)}/`, { key: org.production.serverKey });
    expect([read.status, read.body]).toEqual([200, customer]);
    const missing = await server.request('GET', '/api/v1/customers/nobody/', { key: org.production.serverKey });
    expect(missing.status).toBe(404);
    expect(found).toEqual([]);
  });

  it('answers 500 naming the route, the status and the schema error when a route sends what its schema refuses', async () => {
    const customer = await createdCustomer();
    vi.spyOn(CustomerService.prototype, 'get').mockResolvedValue({ ...customer, createdOn: 'yesterday' } as never);
    const read = await server.request('GET', `/api/v1/customers/${String(customer.customerId)}/`, { key: org.production.serverKey });
    expect(read.status).toBe(500);
    expect(read.body.code).toBe('response_mismatch');
    expect(read.body.detail).toContain('GET /api/v1/customers/:customerId/ answered 200');
    expect(read.body.detail).toMatch(/\/createdOn must match format "date-time"/);
    expect(found).toEqual([{ method: 'GET', route: '/api/v1/customers/:customerId/', status: 200, problem: expect.stringContaining('/createdOn') }]);
  });

  it('checks an error answer of an undocumented status as the one error format', async () => {
    vi.spyOn(CustomerService.prototype, 'get').mockRejectedValue(new Error('boom'));
    const read = await server.request('GET', '/api/v1/customers/anyone/', { key: org.production.serverKey });
    expect(read.status).toBe(500);
    expect(read.body.code).not.toBe('response_mismatch');
    expect(found).toEqual([]);
    expect(undocumented).toContain('GET /api/v1/customers/:customerId/ 500');
  });

  it('refuses an error status the route does not declare, unless it is one of the transport', async () => {
    vi.spyOn(CustomerService.prototype, 'get').mockRejectedValue(conflict('Someone else is changing it', 'busy'));
    const read = await server.request('GET', '/api/v1/customers/anyone/', { key: org.production.serverKey });
    expect([read.status, read.body.code]).toEqual([500, 'response_mismatch']);
    expect(found).toEqual([{ method: 'GET', route: '/api/v1/customers/:customerId/', status: 409, problem: 'status 409 is not documented' }]);
  });

  it("checks the Edge's fast-lane answers too", async () => {
    const customerId = uniqueId('cus');
    const wrong = JSON.stringify({ customerId, entitlements: 'none' });
    vi.spyOn(EntitlementService.prototype, 'checkBody').mockReturnValue(wrong);
    vi.spyOn(EntitlementService.prototype, 'cachedCheckBody').mockReturnValue(wrong);
    const path = `/api/v1/entitlements/?customer_id=${customerId}`;
    // The first request caches the key (Fastify answers it), the second is the lane's.
    const answers = [await server.request('GET', path, { key: org.production.serverKey }), await server.request('GET', path, { key: org.production.serverKey })];
    expect(answers.map((answer) => answer.status)).toEqual([500, 500]);
    expect(answers[1]!.body.detail).toContain('GET /api/v1/entitlements/ answered 200 (fast lane)');
    expect(found.map((mismatch) => mismatch.route)).toEqual(['/api/v1/entitlements/', '/api/v1/entitlements/']);
  });

  it("fails a default test server's close() after a mismatch, so that no test passes over one", async () => {
    const other = await startTestServer();
    const otherOrg = await other.createOrg();
    const created = await other.request('POST', '/api/v1/customers/', { key: otherOrg.production.serverKey, body: { customerId: uniqueId('cus') } });
    vi.spyOn(CustomerService.prototype, 'get').mockResolvedValue({ ...created.body, createdOn: 'last week' } as never);
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const read = await other.request('GET', `/api/v1/customers/${String(created.body.customerId)}/`, { key: otherOrg.production.serverKey });
    expect(read.status).toBe(500);
    expect(console.error).toHaveBeenCalledWith(expect.stringContaining('response mismatch: GET /api/v1/customers/:customerId/ 200'));
    await expect(other.close()).rejects.toThrow(/GET \/api\/v1\/customers\/:customerId\/ 200: \/createdOn must match format/);
  });
});
