import { BinaryFile, operations, type Operation } from '@billow/contract';
import { Billow } from '@billow/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './harness.js';

/**
 * The contract's operation table (packages/contract/src/operations.ts), from which @billow/sdk
 * is typed and built, against what the server really serves: every route under /api/v1 has its
 * operation, with the very schema objects the route validates and serializes with, and the
 * served OpenAPI document has no operation the SDK lacks.
 */

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

interface Named {
  name: string;
  operation: Operation;
}

function operationsOf(table: object, prefix = ''): Named[] {
  return Object.entries(table).flatMap(([key, value]) => {
    const name = prefix ? `${prefix}.${key}` : key;
    return 'method' in value ? [{ name, operation: value as Operation }] : operationsOf(value as object, name);
  });
}

const all = operationsOf(operations);
const routeKey = (method: string, path: string) => `${method} ${path.replace(/\{([^}]+)\}/g, ':$1')}`;
const byRoute = new Map(all.map((named) => [routeKey(named.operation.method, `/api/v1${named.operation.path}`), named]));
const AUTH_OF: Record<string, Operation['auth']> = { server: 'server', 'server,client': 'serverOrClient', partner: 'partner', public: 'public' };

interface RouteSchema {
  hide?: boolean;
  params?: unknown;
  querystring?: unknown;
  body?: unknown;
  response?: Record<string, unknown>;
}

function servedRoutes() {
  return server.app.billow.routes.filter((route) => route.url.startsWith('/api/v1/') && !(route.schema as RouteSchema | undefined)?.hide);
}

describe('the contract operation table', () => {
  it('has every served /api/v1 route, with the same schema objects, status and keys', () => {
    const missing: string[] = [];
    for (const route of servedRoutes()) {
      const key = `${route.method} ${route.url}`;
      const named = byRoute.get(key);
      if (!named) {
        missing.push(key);
        continue;
      }
      const { operation } = named;
      const schema = (route.schema ?? {}) as RouteSchema;
      expect(schema.params, `${named.name}: params`).toBe(operation.params);
      expect(schema.querystring, `${named.name}: query`).toBe(operation.query);
      expect(schema.body, `${named.name}: body`).toBe(operation.body);
      const successes = Object.keys(schema.response ?? {}).filter((status) => /^[23]/.test(status));
      expect(successes, `${named.name}: success statuses`).toEqual([String(operation.status)]);
      const answer = schema.response?.[String(operation.status)];
      // Files are described with their media type inline (application/pdf); redirects to a file have no body.
      if (operation.response === BinaryFile) expect(operation.status === 302 || JSON.stringify(answer).includes('binary'), named.name).toBe(true);
      else expect(answer, `${named.name}: response`).toBe(operation.response);
      expect(AUTH_OF[String(route.auth)], `${named.name}: keys`).toBe(operation.auth);
    }
    expect(missing, 'served routes the contract table lacks').toEqual([]);
  });

  it('names no operation the server does not serve', () => {
    const served = new Set(servedRoutes().map((route) => `${route.method} ${route.url}`));
    expect(all.filter(({ operation }) => !served.has(routeKey(operation.method, `/api/v1${operation.path}`))).map((named) => named.name)).toEqual([]);
  });

  it('gives the SDK a method for every operation of the served OpenAPI document', async () => {
    const { body: document } = await server.request('GET', '/api/v1/openapi.json');
    const billow = new Billow({ apiKey: 'sk_test_unused', partnerKey: 'unused', baseUrl: server.url }) as unknown as Record<string, unknown>;
    const methodAt = (name: string) => name.split('.').reduce<unknown>((at, part) => (at as Record<string, unknown> | undefined)?.[part], billow);
    const lacking: string[] = [];
    let counted = 0;
    for (const [path, item] of Object.entries(document.paths as Record<string, Record<string, unknown>>)) {
      if (!path.startsWith('/api/v1/')) continue;
      for (const method of Object.keys(item).filter((m) => ['get', 'post', 'put', 'patch', 'delete'].includes(m))) {
        counted++;
        const named = byRoute.get(routeKey(method.toUpperCase(), path));
        if (!named || typeof methodAt(named.name) !== 'function') lacking.push(`${method.toUpperCase()} ${path}`);
      }
    }
    expect(lacking, 'documented operations without an SDK method').toEqual([]);
    expect(counted).toBe(all.length);
  });
});
