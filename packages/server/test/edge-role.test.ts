/**
 * `billow start --role edge`: a process that serves the Edge API (entitlement checks)
 * and the operational routes, and nothing of the Core API. Drives the built `billow`
 * command (packages/cli/dist): run `npm run build` first.
 */
import { performance } from 'node:perf_hooks';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  DATABASE_KIND,
  api,
  assertBuilt,
  killServers,
  makeWorkspace,
  printedCredentials,
  startServer,
  type OrganizationKeys,
  type Workspace,
} from '../../cli/test/support.js';

beforeAll(assertBuilt);

const workspaces: Workspace[] = [];
async function workspace(): Promise<Workspace> {
  // An empty database, so that the server creates (and prints) a demo organization.
  const created = await makeWorkspace({ emptyDatabase: true });
  workspaces.push(created);
  return created;
}
afterEach(async () => {
  await killServers();
  await Promise.all(workspaces.splice(0).map((w) => w.cleanup()));
});

/** Core API calls, each with a key that a server with the Core API would accept. */
function coreCalls(keys: OrganizationKeys): { method: string; path: string; key: string; body?: unknown }[] {
  const key = keys.production.serverKey;
  const sandboxKey = keys.sandbox.serverKey;
  return [
    { method: 'GET', path: '/api/v1/customers/', key },
    { method: 'POST', path: '/api/v1/customers/', key, body: { customerId: 'edge-only', name: 'Edge' } },
    { method: 'GET', path: '/sandbox/api/v1/customers/', key: sandboxKey },
    { method: 'GET', path: '/api/v1/catalog/products/', key },
    { method: 'GET', path: '/api/v1/catalog/features/', key },
    { method: 'GET', path: '/sandbox/api/v1/subscriptions/?customer_id=x', key: sandboxKey },
    { method: 'POST', path: '/api/v1/report/usage/', key, body: { customerId: 'x', featureId: 'y', value: 1, behaviour: 'DELTA' } },
    { method: 'POST', path: '/api/v1/report/event/', key, body: {} },
    { method: 'POST', path: '/api/v1/license/validate/', key, body: {} },
    { method: 'GET', path: '/api/v1/refunds/', key },
    { method: 'GET', path: '/api/v1/promotion-rules/', key },
    { method: 'POST', path: '/api/v1/promotion-rules/', key, body: { name: 'Edge', productId: 'x' } },
  ];
}

/** Fastify's answer to a path no route serves, as registerNotFound words it. */
function expectNoRoute(response: { status: number; body: any }, what: string): void {
  expect(response.status, what).toBe(404);
  expect(response.body, what).toMatchObject({ code: 'not_found' });
  expect(response.body.detail, what).toMatch(/^No route /);
}

describe(`billow start --role edge on ${DATABASE_KIND}`, () => {
  it('serves /healthz, /readyz, /metrics and the API reference, and answers 404 to every Core route', async () => {
    const w = await workspace();
    const server = await startServer(w, ['--role', 'edge']);
    expect(server.stdout()).toContain("Edge base URL (the official client's edgeApiUrl; this process serves no Core API)");
    const keys = printedCredentials(server.stdout());

    expect(await api(`${server.url}/healthz`, 'GET')).toEqual({ status: 200, body: { status: 'ok' } });
    expect(await api(`${server.url}/readyz`, 'GET')).toEqual({ status: 200, body: { status: 'ok', database: 'reachable' } });
    const metrics = await api(`${server.url}/metrics`, 'GET');
    expect(metrics.status).toBe(200);
    expect(metrics.body).toContain('billow_entitlement_cache_entries');
    const docs = await fetch(`${server.url}/docs`);
    expect(docs.status).toBe(200);
    await docs.text();

    const openapi = await api(`${server.url}/api/v1/openapi.json`, 'GET');
    expect(openapi.status).toBe(200);
    const paths = Object.keys(openapi.body.paths ?? {});
    const edgePaths = (p: string) => p.startsWith('/api/v1/entitlements') || p.startsWith('/api/v1/promotions');
    expect(paths.filter((p) => !edgePaths(p)), 'Core paths in the Edge reference').toEqual([]);
    expect(paths).toContain('/api/v1/promotions/');

    for (const call of coreCalls(keys)) {
      const response = await api(`${server.url}${call.path}`, call.method, { key: call.key, body: call.body });
      expectNoRoute(response, `${call.method} ${call.path}`);
    }

    // The entitlement check is served, with its own authentication and answers.
    expect(paths).toContain('/api/v1/entitlements/');
    for (const base of [server.url, server.sandboxUrl]) {
      expect((await api(`${base}/api/v1/entitlements?customer_id=nobody`, 'GET')).status, base).toBe(401);
      expect((await api(`${base}/api/v1/promotions?promotion_id=x`, 'GET')).status, base).toBe(401);
    }
    const unknownPromotion = await api(`${server.url}/api/v1/promotions?promotion_id=promo_abc123`, 'GET', { key: keys.production.clientKey });
    expect(unknownPromotion).toMatchObject({ status: 404, body: { code: 'promotion_not_found' } });
    for (const key of [keys.production.serverKey, keys.production.clientKey]) {
      const unknown = await api(`${server.url}/api/v1/entitlements?customer_id=nobody`, 'GET', { key });
      expect(unknown.status).toBe(404);
      expect(unknown.body.detail).not.toMatch(/^No route /);
    }
    expect(await server.stop()).toEqual({ code: 0, signal: null });
  });

  it('--role core serves no entitlement check', async () => {
    const w = await workspace();
    const server = await startServer(w, ['--role', 'core']);
    expect(server.stdout()).toContain("Core base URL (the official client's baseUrl; this process serves no Edge API)");
    const keys = printedCredentials(server.stdout());
    expectNoRoute(
      await api(`${server.url}/api/v1/entitlements?customer_id=nobody`, 'GET', { key: keys.production.serverKey }),
      'GET /api/v1/entitlements',
    );
    expectNoRoute(
      await api(`${server.url}/api/v1/promotions?promotion_id=x`, 'GET', { key: keys.production.clientKey }),
      'GET /api/v1/promotions',
    );
    expect((await api(`${server.url}/api/v1/customers/`, 'GET', { key: keys.production.serverKey })).status).toBe(200);
    expect(await server.stop()).toEqual({ code: 0, signal: null });
  });
});

const FREE = { priceType: 'FREE', currency: 'USD', chargeCatalogPrice: [{ charges: [{ chargePeriod: 'MONTHLY', priceData: { amount: 0 } }] }] };

/**
 * Through `core` (the official client's baseUrl): a metered feature, a plan granting 100
 * of it, a customer subscribed to it. Returns how to read its usage through `edge`.
 */
async function meteredCustomer(coreBase: string, edgeBase: string, key: string) {
  const core = async (method: string, path: string, body: unknown, status: number) => {
    const response = await api(`${coreBase}/api/v1${path}`, method, { key, body });
    expect(response.status, `${method} ${path}: ${JSON.stringify(response.body)}`).toBe(status);
    return response.body;
  };
  const suffix = Math.random().toString(36).slice(2, 10);
  const featureId = `calls-${suffix}`;
  const customerId = `cust-${suffix}`;
  await core('POST', '/catalog/features/', {
    name: 'API calls',
    identifier: featureId,
    featureType: 'METER',
    featureDetails: { featureSubType: 'PRE_AGGREGATED_USAGE', units: { singular: 'call', plural: 'calls' } },
  }, 201);
  const product = await core('POST', '/catalog/products/', { name: `Product ${suffix}`, taxCode: 'saas' }, 201);
  const plan = await core('POST', '/catalog/plans/', { name: `Plan ${suffix}`, product: product.id }, 201);
  await core('POST', `/catalog/plans/${plan.identifier}/features/`, { planEntitlements: [{ feature: featureId, details: { value: 100 } }] }, 201);
  await core('POST', `/catalog/plans/${plan.identifier}/prices/bulk/`, { prices: [FREE] }, 200);
  await core('POST', `/catalog/plans/${plan.identifier}/publish/`, {}, 200);
  await core('POST', '/customers/', { customerId, name: 'Ada' }, 201);
  await core('POST', '/subscriptions/create/', { planIdentifier: plan.identifier, chargePeriod: 'MONTHLY', customerId }, 201);
  return {
    report: (value: number) => core('POST', '/report/usage/', { customerId, featureId, value, behaviour: 'DELTA' }, 200),
    usage: async (): Promise<unknown> => {
      const response = await api(`${edgeBase}/api/v1/entitlements?customer_id=${customerId}&feature_id=${featureId}`, 'GET', { key });
      expect(response.status, JSON.stringify(response.body)).toBe(200);
      return response.body.entitlements.map((e: any) => [e.currentUsage, e.remaining, e.hasAccess]);
    },
  };
}

/** Reads `read()` until it equals `expected`; the milliseconds it took, or null after `timeoutMs`. */
async function seenWithin(read: () => Promise<unknown>, expected: unknown, timeoutMs: number): Promise<number | null> {
  const started = performance.now();
  do {
    if (JSON.stringify(await read()) === JSON.stringify(expected)) return performance.now() - started;
  } while (performance.now() - started < timeoutMs);
  return null;
}

describe(`an edge process beside the Core API on ${DATABASE_KIND}`, () => {
  it.skipIf(DATABASE_KIND !== 'postgres')(
    'a usage report made through a core process reaches the edge process\'s answers through the change feed, long before its cache would expire',
    async () => {
      const [coreSpace, edgeSpace] = [await workspace(), await workspace()];
      edgeSpace.env.DATABASE_URL = coreSpace.env.DATABASE_URL;
      const core = await startServer(coreSpace, ['--role', 'core']);
      const edge = await startServer(edgeSpace, ['--role', 'edge']);
      const key = printedCredentials(core.stdout()).sandbox.serverKey;
      const customer = await meteredCustomer(core.sandboxUrl, edge.sandboxUrl, key);
      expect(await customer.usage()).toEqual([[0, 100, true]]);
      const delays: number[] = [];
      for (let n = 1; n <= 5; n++) {
        await customer.report(1);
        const delay = await seenWithin(customer.usage, [[n, 100 - n, true]], 10_000);
        expect(delay, `report ${n}`).not.toBeNull();
        delays.push(delay ?? Infinity);
      }
      console.info(`core report to edge answer: max ${Math.max(...delays).toFixed(1)} ms over ${delays.length}`);
      // The delay is printed, not asserted (no test asserts a timing): 10 s is far below the
      // cache's expiry, so only the change feed can have made the edge see each report.
      expect(await edge.stop()).toEqual({ code: 0, signal: null });
      expect(await core.stop()).toEqual({ code: 0, signal: null });
    },
  );

  it('--role all answers at once for a usage report it took itself', async () => {
    const server = await startServer(await workspace(), ['--role', 'all']);
    const key = printedCredentials(server.stdout()).sandbox.serverKey;
    const customer = await meteredCustomer(server.sandboxUrl, server.sandboxUrl, key);
    expect(await customer.usage()).toEqual([[0, 100, true]]);
    for (let n = 1; n <= 3; n++) {
      await customer.report(1);
      expect(await customer.usage(), `report ${n}`).toEqual([[n, 100 - n, true]]);
    }
    expect(await server.stop()).toEqual({ code: 0, signal: null });
  });
});
