import net from 'node:net';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openShop, type Shop } from './commerce-support.js';
import type { TestOrg, TestServer } from './harness.js';

/** Inputs that used to answer 500 or a framework's own error body (issue: first contact and hardening). */
let server: TestServer;
let org: TestOrg;
let s: Shop;

beforeAll(async () => ({ server, org, s } = await openShop()));
afterAll(() => server.close());

function expectError(res: { status: number; body: any }, status: number, code: string, detail: RegExp): void {
  expect(res.status).toBe(status);
  expect(res.body).toEqual({ detail: expect.stringMatching(detail), code });
}

/** Raw HTTP over a socket: what no HTTP client library would send. */
function rawRequest(text: string): Promise<string> {
  const { port } = new URL(server.url);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), '127.0.0.1', () => socket.end(text));
    let answer = '';
    socket.setEncoding('utf8').on('data', (chunk: string) => (answer += chunk));
    socket.on('close', () => resolve(answer));
    socket.on('error', reject);
  });
}

const bodyOf = (answer: string) => JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4)) as unknown;

describe('NUL characters', () => {
  it.each([
    ['a path id', '/sandbox/api/v1/customers/a%00b/'],
    ['a query value', '/sandbox/api/v1/customers/?search=%00'],
    ['a partner route', '/api/v1/partner/organizations/?external_id=x%00'],
    ['a client-key route', '/sandbox/api/v1/entitlements?customer_id=%00'],
  ])('in %s answer 400 before any lookup', async (_where, path) => {
    const res = await server.request('GET', path, { key: org.sandbox.serverKey });
    expectError(res, 400, 'invalid_character', /NUL/);
  });

  it('in a JSON string or key answer 400, naming the field, and store nothing', async () => {
    const value = await s.call('POST', '/customers/', { customerId: 'nul-value', name: 'Ada\u0000Lovelace' });
    expectError(value, 400, 'invalid_character', /^name: .*NUL/);
    const key = await s.call('POST', '/customers/', { customerId: 'nul-key', metadata: { 'a\u0000b': 1 } });
    expectError(key, 400, 'invalid_character', /NUL/);
    expect(key.body.detail.startsWith('metadata.a\u0000b: ')).toBe(true);
    const nestedInArray = await s.call('POST', '/customers/', { customerId: 'nul-deep', metadata: { list: ['ok', 'n\u0000'] } });
    expectError(nestedInArray, 400, 'invalid_character', /^metadata\.list\[1\]: /);
    for (const customerId of ['nul-value', 'nul-key', 'nul-deep']) {
      expect((await s.call('GET', `/customers/${customerId}/`)).status).toBe(404);
    }
    // An escaped backslash followed by u0000 is six plain characters, not a NUL.
    const lookalike = await server.request('POST', '/sandbox/api/v1/customers/', {
      key: org.sandbox.serverKey,
      rawBody: '{"customerId":"lookalike","name":"\\\\u0000"}',
      headers: { 'content-type': 'application/json' },
    });
    expect(lookalike.status).toBe(201);
    expect(lookalike.body.name).toBe('\\u0000');
  });
});

describe('lone surrogates', () => {
  const post = (rawBody: string) =>
    server.request('POST', '/sandbox/api/v1/customers/', { key: org.sandbox.serverKey, rawBody, headers: { 'content-type': 'application/json' } });

  it('in an id, a name, a metadata value or key answer 400, naming the field, and store nothing', async () => {
    const cases: Array<[string, string, RegExp]> = [
      ['lone-id', '{"customerId":"lone-id\\ud800"}', /^customerId: .*surrogate/],
      ['lone-name', '{"customerId":"lone-name","name":"Ada\\uDFFF"}', /^name: .*surrogate/],
      ['lone-meta', '{"customerId":"lone-meta","metadata":{"k":["ok","\\udc00x"]}}', /^metadata\.k\[1\]: .*surrogate/],
      ['lone-key', '{"customerId":"lone-key","metadata":{"\\ud83d":1}}', /^metadata\..*surrogate/],
      ['lone-reversed', '{"customerId":"lone-reversed","name":"\\ude00\\ud83d"}', /^name: .*surrogate/],
    ];
    for (const [customerId, body, detail] of cases) {
      expectError(await post(body), 400, 'invalid_character', detail);
      expect((await s.call('GET', `/customers/${customerId}/`)).status, customerId).toBe(404);
    }
    const listed = await s.call('GET', '/customers/?search=lone-');
    expect(listed.body.count).toBe(0);
  });

  it('a surrogate pair sent as escapes is a character like any other: stored and answered as sent', async () => {
    const escaped = await post('{"customerId":"pair-escaped","name":"smile \\ud83d\\ude00","metadata":{"\\ud83d\\ude00":"\\ud83d\\ude00"}}');
    expect(escaped.status, escaped.text).toBe(201);
    expect(escaped.body.name).toBe('smile \u{1F600}');
    const read = await s.call('GET', '/customers/pair-escaped/');
    expect(read.body.name).toBe('smile \u{1F600}');
    expect(read.body.metadata).toEqual({ '\u{1F600}': '\u{1F600}' });
    // Its event is JSON the database can read (a lone surrogate kept in it could not be).
    const { rows } = await sql<{ name: string }>`
      SELECT payload -> 'data' -> 'object' ->> 'name' AS name FROM events
       WHERE type = 'customer.created' AND payload -> 'data' -> 'object' ->> 'id' = ${escaped.body.id}`.execute(server.database.db);
    expect(rows).toEqual([{ name: 'smile \u{1F600}' }]);
  });
});

describe('deep and large JSON', () => {
  const deep = (levels: number) => `${'{"a":'.repeat(levels)}1${'}'.repeat(levels)}`;

  it('refuses a body nested past 32 levels, metadata 5,000 levels deep included, with 400', async () => {
    for (const levels of [33, 5_000, 100_000]) {
      const res = await server.request('POST', '/sandbox/api/v1/customers/', {
        key: org.sandbox.serverKey,
        rawBody: `{"customerId":"deep-${levels}","metadata":${deep(levels)}}`,
        headers: { 'content-type': 'application/json' },
      });
      expectError(res, 400, 'too_deep', /32 levels/);
    }
    const arrays = await server.request('POST', '/sandbox/api/v1/report/usage/', {
      key: org.sandbox.serverKey,
      rawBody: `${'['.repeat(5_000)}${']'.repeat(5_000)}`,
      headers: { 'content-type': 'application/json' },
    });
    expectError(arrays, 400, 'too_deep', /32 levels/);
  });

  it('keeps metadata nested within the limit, and brackets inside strings do not count', async () => {
    const res = await server.request('POST', '/sandbox/api/v1/customers/', {
      key: org.sandbox.serverKey,
      rawBody: `{"customerId":"shallow","name":"${'{['.repeat(100)}","metadata":${deep(20)}}`,
      headers: { 'content-type': 'application/json' },
    });
    expect(res.status).toBe(201);
    expect(res.body.name).toBe('{['.repeat(100));
  });

  it('refuses metadata over its size limit with 400', async () => {
    const res = await s.call('POST', '/customers/', { customerId: 'big-metadata', metadata: { blob: 'x'.repeat(10_000) } });
    expect(res.status).toBe(400);
    expect(res.body.detail).toMatch(/metadata may be at most 8192 bytes/);
  });
});

describe('numbers past their column', () => {
  it.each(['', 'prices/', 'features/'])('GET /catalog/plans/{id}/%s?version= answers 400 past the int4 range', async (sub) => {
    const res = await s.call('GET', `/catalog/plans/${s.plans.basic}/${sub}?version=99999999999`);
    expectError(res, 400, 'validation_error', /version: must be <= 2147483647/);
    expect((await s.call('GET', `/catalog/plans/${s.plans.basic}/${sub}?version=1`)).status).toBe(200);
  });
});

describe('errors raised before a route runs', () => {
  it('a malformed escape in the path answers 400 in the one error format', async () => {
    const res = await server.request('GET', '/sandbox/api/v1/customers/%ZZ/', { key: org.sandbox.serverKey });
    expectError(res, 400, 'invalid_url', /malformed/);
  });

  it('a path segment past 500 characters answers 414 in the one error format', async () => {
    const res = await server.request('GET', `/sandbox/api/v1/customers/${'x'.repeat(600)}/`, { key: org.sandbox.serverKey });
    expectError(res, 414, 'uri_too_long', /too long/);
  });

  it('oversized headers answer 431, and bytes that are not HTTP answer 400, both as JSON with a detail', async () => {
    const huge = await rawRequest(`GET /healthz HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`);
    expect(huge).toMatch(/^HTTP\/1\.1 431 /);
    expect(bodyOf(huge)).toEqual({ detail: expect.stringMatching(/headers/), code: 'headers_too_large' });
    const garbage = await rawRequest('NOT HTTP AT ALL\r\n\r\n');
    expect(garbage).toMatch(/^HTTP\/1\.1 400 /);
    expect(bodyOf(garbage)).toEqual({ detail: expect.any(String), code: 'bad_request' });
  });

  it('a wrong content type answers 415, and a body that is not JSON 400, each with a detail', async () => {
    const text = await server.request('POST', '/sandbox/api/v1/customers/', {
      key: org.sandbox.serverKey,
      rawBody: 'customerId=a',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expectError(text, 415, 'unsupported_media_type', /JSON/);
    const broken = await server.request('POST', '/sandbox/api/v1/customers/', {
      key: org.sandbox.serverKey,
      rawBody: '{"customerId":',
      headers: { 'content-type': 'application/json' },
    });
    expectError(broken, 400, 'invalid_json', /not valid JSON/);
  });
});
