import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, uniqueId, type TestOrg, type TestServer } from './harness.js';

let server: TestServer;
let org: TestOrg;
let key: string;

beforeAll(async () => {
  server = await startTestServer({ env: { BILLOW_BODY_LIMIT_BYTES: '4096' } });
  org = await server.createOrg();
  key = org.production.serverKey;
});
afterAll(() => server.close());

describe('request casing', () => {
  it('accepts snake_case bodies deeply and keeps metadata keys as sent', async () => {
    const customerId = uniqueId('snake');
    const res = await server.request('POST', '/api/v1/customers/', {
      key,
      body: {
        customer_id: customerId,
        billing_address: { postal_code: '10115', line_1: undefined, country: 'DE' },
        metadata: { snake_key: { inner_key: 1 }, camelKey: [{ deep_key: true }] },
      },
    });
    expect(res.status).toBe(201);
    expect(res.body.customerId).toBe(customerId);
    expect(res.body.billingAddress).toEqual({ postalCode: '10115', country: 'DE' });
    expect(res.body.metadata).toEqual({ snake_key: { inner_key: 1 }, camelKey: [{ deep_key: true }] });
  });

  it('accepts camelCase bodies and answers in camelCase', async () => {
    const customerId = uniqueId('camel');
    const res = await server.request('POST', '/api/v1/customers/', {
      key,
      body: { customerId, billingAddress: { postalCode: '1000' } },
    });
    expect(res.status).toBe(201);
    expect(Object.keys(res.body)).toEqual(
      expect.arrayContaining(['customerId', 'billingAddress', 'createdOn', 'modifiedOn', 'isArchived']),
    );
    expect(res.text).not.toMatch(/"[a-z]+_[a-z]+"\s*:/);
  });

  it('accepts camelCase query parameters as well as the documented snake_case', async () => {
    const res = await server.request('GET', '/api/v1/customers/?pageSize=1', { key });
    expect(res.status).toBe(200);
    expect(res.body.results.length).toBeLessThanOrEqual(1);
  });
});

describe('paths', () => {
  it('serves every route with and without a trailing slash, POST included, without redirects', async () => {
    const customerId = uniqueId('slash');
    const created = await server.request('POST', '/api/v1/customers', { key, body: { customerId } });
    expect(created.status).toBe(201);
    expect((await server.request('GET', `/api/v1/customers/${customerId}`, { key })).status).toBe(200);
    expect((await server.request('GET', `/api/v1/customers/${customerId}/`, { key })).status).toBe(200);
    expect((await server.request('GET', '/sandbox/api/v1/customers', { key: org.sandbox.serverKey })).status).toBe(200);
  });

  it('decodes path parameters, so customer ids with spaces and symbols work', async () => {
    const customerId = `user ${uniqueId('sp')}@acme`;
    expect((await server.request('POST', '/api/v1/customers/', { key, body: { customerId } })).status).toBe(201);
    const res = await server.request('GET', `/api/v1/customers/${encodeURIComponent(customerId)}/`, { key });
    expect(res.status).toBe(200);
    expect(res.body.customerId).toBe(customerId);
  });
});

describe('errors', () => {
  it('answers an unknown path with 404 and an error body', async () => {
    const res = await server.request('GET', '/api/v1/nothing-here/', { key });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ detail: expect.stringContaining('/api/v1/nothing-here/'), code: 'not_found' });
  });

  it('answers a known path with the wrong method with 405 and Allow', async () => {
    const res = await server.request('PUT', '/api/v1/customers/', { key, body: {} });
    expect(res.status).toBe(405);
    expect(res.body.code).toBe('method_not_allowed');
    expect(res.headers.get('allow')).toContain('POST');
    const item = await server.request('POST', '/sandbox/api/v1/customers/abc/', { key: org.sandbox.serverKey, body: {} });
    expect(item.status).toBe(405);
    expect(item.headers.get('allow')).toMatch(/GET.*PATCH.*DELETE/);
  });

  it('answers malformed JSON with 400', async () => {
    const res = await server.request('POST', '/api/v1/customers/', {
      key,
      rawBody: '{"customerId": ',
      headers: { 'content-type': 'application/json' },
    });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('invalid_json');
  });

  it('answers a body that is not JSON with 415', async () => {
    const res = await server.request('POST', '/api/v1/customers/', {
      key,
      rawBody: 'customerId=abc',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(res.status).toBe(415);
    expect(res.body.detail).toMatch(/JSON/);
  });

  it('answers a body over the limit with 413', async () => {
    const res = await server.request('POST', '/api/v1/customers/', {
      key,
      body: { customerId: uniqueId('big'), name: 'x'.repeat(5000) },
    });
    expect(res.status).toBe(413);
    expect(res.body.code).toBe('payload_too_large');
  });

  it('names the field that failed validation', async () => {
    const res = await server.request('POST', '/api/v1/customers/', { key, body: { customerId: 'ok', name: 5 } });
    expect(res.status).toBe(400);
    expect(res.body.detail).toMatch(/^name/);
    const unknown = await server.request('POST', '/api/v1/customers/', { key, body: { customerId: 'ok', nickname: 'x' } });
    expect(unknown.status).toBe(400);
    expect(unknown.body.detail).toBe('nickname is not a known field');
    const query = await server.request('GET', '/api/v1/customers/?page=zero', { key });
    expect(query.status).toBe(400);
    expect(query.body.detail).toMatch(/page/);
  });

  it('changes nothing when a request fails', async () => {
    const customerId = uniqueId('nochange');
    await server.request('POST', '/api/v1/customers/', { key, body: { customerId, email: 'bad' } });
    expect((await server.request('GET', `/api/v1/customers/${customerId}/`, { key })).status).toBe(404);
  });
});
