import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestOrg, type TestServer } from './harness.js';

let server: TestServer;
let org: TestOrg;
const TOTAL = 23;

beforeAll(async () => {
  server = await startTestServer();
  org = await server.createOrg();
  for (let i = 0; i < TOTAL; i++) {
    const res = await server.request('POST', '/sandbox/api/v1/customers/', {
      key: org.sandbox.serverKey,
      body: { customerId: `page-${String(i).padStart(3, '0')}` },
    });
    expect(res.status).toBe(201);
  }
});
afterAll(() => server.close());

const list = (query: string) =>
  server.request('GET', `/sandbox/api/v1/customers/${query}`, { key: org.sandbox.serverKey });

describe('pagination', () => {
  it('defaults to 10 per page with absolute next and previous links that keep the environment', async () => {
    const first = await list('');
    expect(first.body.count).toBe(TOTAL);
    expect(first.body.results).toHaveLength(10);
    expect(first.body.previous).toBeNull();
    expect(first.body.next).toBe(`${server.url}/sandbox/api/v1/customers/?page=2`);
    const second = await fetch(first.body.next, { headers: { authorization: `Bearer ${org.sandbox.serverKey}` } });
    const body = (await second.json()) as any;
    expect(body.results).toHaveLength(10);
    expect(body.previous).toBe(`${server.url}/sandbox/api/v1/customers/?page=1`);
    expect(body.results[0].customerId).toBe('page-012');
  });

  it('walks every page exactly once', async () => {
    const seen: string[] = [];
    let next: string | null = `${server.url}/sandbox/api/v1/customers/?page_size=7`;
    while (next) {
      const res = await fetch(next, { headers: { authorization: `Bearer ${org.sandbox.serverKey}` } });
      const body = (await res.json()) as any;
      seen.push(...body.results.map((c: any) => c.customerId));
      next = body.next;
    }
    expect(seen).toHaveLength(TOTAL);
    expect(new Set(seen).size).toBe(TOTAL);
  });

  it('keeps other query parameters in the links', async () => {
    const res = await list('?search=page-0&page_size=5');
    expect(res.body.count).toBe(TOTAL);
    const next = new URL(res.body.next);
    expect(next.searchParams.get('search')).toBe('page-0');
    expect(next.searchParams.get('page_size')).toBe('5');
    expect(next.searchParams.get('page')).toBe('2');
  });

  it('returns the last partial page with no next link', async () => {
    const res = await list('?page=3');
    expect(res.body.results).toHaveLength(3);
    expect(res.body.next).toBeNull();
    expect(res.body.previous).toContain('page=2');
  });

  it('answers a page past the end with empty results, not an error', async () => {
    const res = await list('?page=99');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ count: TOTAL, results: [], next: null });
    expect(res.body.previous).toContain('page=3');
    // An integer far beyond any list (1e300 is one, to JSON Schema) is a page past the end too.
    for (const page of ['1e300', '99999999999999999999']) {
      const far = await list(`?page=${page}`);
      expect(far.status, far.text).toBe(200);
      expect(far.body).toMatchObject({ count: TOTAL, results: [], next: null });
      // Lists that ask the database for the page whatever its number (here, webhook endpoints and logs).
      for (const path of ['/webhook/endpoints/', '/webhook/logs/', '/test-clocks/']) {
        const other = await server.request('GET', `/sandbox/api/v1${path}?page=${page}`, { key: org.sandbox.serverKey });
        expect(other.status, `${path}: ${other.text}`).toBe(200);
      }
    }
  });

  it('caps page_size at 100', async () => {
    const res = await list('?page_size=1000');
    expect(res.status).toBe(200);
    expect(res.body.results).toHaveLength(TOTAL);
    expect(res.body.next).toBeNull();
  });

  it('refuses page 0, negative sizes and non-numbers with 400', async () => {
    for (const query of ['?page=0', '?page=-1', '?page_size=0', '?page_size=abc', '?page=1.5']) {
      const res = await list(query);
      expect(res.status, query).toBe(400);
      expect(res.body.detail, query).toMatch(/page/);
    }
  });
});
