/**
 * More than one Billow process on one database (decision 0040, docs/scaling.md):
 * two `billow start` processes, and `billow start --workers 2`, driven through the
 * built CLI. A usage report made in one process must be seen by an entitlement
 * check in another through the change feed, long before the cache's 60 s TTL.
 */
import fs from 'node:fs';
import http from 'node:http';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  DATABASE_KIND,
  api,
  assertBuilt,
  killServers,
  makeWorkspace,
  printedCredentials,
  runCli,
  startServer,
  type Workspace,
} from '../../cli/test/support.js';

const onPglite = DATABASE_KIND === 'pglite';
/** Far below the cache's 60 s TTL, far above the NOTIFY latency: only the change feed can meet it, on any machine. */
const FRESHNESS_DEADLINE_MS = 10_000;

beforeAll(assertBuilt);
const workspaces: Workspace[] = [];
async function workspace(options: { emptyDatabase?: boolean } = {}): Promise<Workspace> {
  const created = await makeWorkspace(options);
  workspaces.push(created);
  return created;
}
afterEach(async () => {
  await killServers();
  await Promise.all(workspaces.splice(0).map((w) => w.cleanup()));
});

/** A meter, a free plan granting it, and a customer subscribed to it, in production, through `url`. */
async function meteredCustomer(url: string, key: string): Promise<{ customerId: string; meter: string }> {
  const call = async (method: string, path: string, body?: unknown) => {
    const res = await api(`${url}/api/v1${path}`, method, { key, ...(body === undefined ? {} : { body }) });
    if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body;
  };
  const product = await call('POST', '/catalog/products/', { name: 'Scale product', taxCode: 'saas' });
  const feature = await call('POST', '/catalog/features/', {
    name: 'Calls',
    identifier: 'calls',
    featureType: 'METER',
    featureDetails: { featureSubType: 'PRE_AGGREGATED_USAGE', units: { singular: 'call', plural: 'calls' } },
  });
  const plan = await call('POST', '/catalog/plans/', { name: 'Metered', product: product.id });
  await call('POST', `/catalog/plans/${plan.identifier}/features/`, { planEntitlements: [{ feature: feature.id, details: { value: 1000 } }] });
  await call('POST', `/catalog/plans/${plan.identifier}/prices/bulk/`, {
    prices: [{ priceType: 'FREE', currency: 'USD', chargeCatalogPrice: [{ charges: [{ chargePeriod: 'MONTHLY', priceData: { amount: 0 } }] }] }],
  });
  await call('POST', `/catalog/plans/${plan.identifier}/publish/`, {});
  await call('POST', '/customers/', { customerId: 'ada', name: 'Ada', email: 'ada@example.com' });
  await call('POST', '/subscriptions/create/', { customerId: 'ada', planIdentifier: plan.identifier, chargePeriod: 'MONTHLY' });
  return { customerId: 'ada', meter: 'calls' };
}

/** The customer's current usage of the meter, asked on a new connection (so that a cluster may hand it to any worker). */
function usageOnNewConnection(url: string, key: string, customerId: string, meter: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const request = http.get(
      `${url}/api/v1/entitlements?customer_id=${customerId}&feature_id=${meter}`,
      { agent: false, headers: { authorization: `Bearer ${key}` } },
      (response) => {
        let text = '';
        response.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
        response.on('end', () => {
          if (response.statusCode !== 200) return reject(new Error(`check answered ${response.statusCode}: ${text}`));
          resolve(JSON.parse(text).entitlements[0].currentUsage as number);
        });
      },
    );
    request.on('error', reject);
  });
}

/** Polls `read` until it returns `expected`; the time it took, or a failure past the deadline. */
async function untilSeen(read: () => Promise<number>, expected: number): Promise<number> {
  const started = performance.now();
  let last: number | undefined;
  while (performance.now() - started < FRESHNESS_DEADLINE_MS) {
    last = await read();
    if (last === expected) return performance.now() - started;
  }
  throw new Error(`still ${last} after ${FRESHNESS_DEADLINE_MS} ms, expected ${expected}`);
}

const report = (url: string, key: string, customerId: string, meter: string, value: number) =>
  api(`${url}/api/v1/report/usage/`, 'POST', { key, body: { customerId, featureId: meter, value, behaviour: 'DELTA' } });

describe(`more than one process on ${DATABASE_KIND}`, () => {
  it.skipIf(!onPglite)('--workers 2 is refused on the embedded database, with the reason, before it is opened', async () => {
    const w = await workspace();
    const result = await runCli(['start', '--workers', '2'], w.env);
    expect(result.code).toBe(1);
    expect(result.stderr.trimEnd()).toBe(
      'billow: --workers 2 needs PostgreSQL (set DATABASE_URL): the embedded database can be opened by one process only; ' +
        'start one process (no --workers), or move to PostgreSQL',
    );
    expect(fs.existsSync(w.dataDir)).toBe(false);
  });

  it.skipIf(onPglite)('a usage report made in one process is seen by an entitlement check in another', async () => {
    const [a, b] = await Promise.all([workspace({ emptyDatabase: true }), workspace()]);
    b.env.DATABASE_URL = a.env.DATABASE_URL;
    const first = await startServer(a);
    const second = await startServer(b);
    const { production } = printedCredentials(first.stdout());
    const key = production.serverKey;
    const { customerId, meter } = await meteredCustomer(first.url, key);
    const check = () => usageOnNewConnection(second.url, key, customerId, meter);
    // The second process caches its answer: only a notification can change what it serves within the deadline.
    expect(await check()).toBe(0);
    expect(await check()).toBe(0);
    for (const [value, total] of [[3, 3], [4, 7], [5, 12]] as const) {
      const sent = await report(first.url, key, customerId, meter, value);
      expect(sent.status).toBe(200);
      const delay = await untilSeen(check, total);
      // Measured, not asserted: on a loaded machine the poll itself takes milliseconds.
      console.log(`usage report in one process seen by a check in the other after ${delay.toFixed(1)} ms`);
    }
    expect(await Promise.all([first.stop(), second.stop()])).toEqual([
      { code: 0, signal: null },
      { code: 0, signal: null },
    ]);
  });

  it.skipIf(onPglite)('--workers 2 serves one port from two processes whose caches stay coherent, and stops them all', async () => {
    const w = await workspace({ emptyDatabase: true });
    const server = await startServer(w, ['--workers', '2']);
    expect(server.stdout()).toContain('2 worker processes share this port (billow start --workers 2).');
    const children = fs.readFileSync(`/proc/${server.pid}/task/${server.pid}/children`, 'utf8').trim().split(/\s+/).map(Number);
    expect(children).toHaveLength(2);
    const { production } = printedCredentials(server.stdout());
    const key = production.serverKey;
    const { customerId, meter } = await meteredCustomer(server.url, key);
    const check = () => usageOnNewConnection(server.url, key, customerId, meter);
    // New connections go to the workers in turn: both have cached the answer.
    for (let i = 0; i < 6; i++) expect(await check()).toBe(0);
    expect((await report(server.url, key, customerId, meter, 9)).status).toBe(200);
    // Every worker must serve the new usage: several checks in a row, each on a new connection.
    const allSee = async () => ((await Promise.all([check(), check(), check(), check()])).every((usage) => usage === 9) ? 9 : -1);
    await untilSeen(allSee, 9);
    expect(await server.stop()).toEqual({ code: 0, signal: null });
    for (const pid of children) expect(fs.existsSync(`/proc/${pid}`), `worker ${pid} still running`).toBe(false);
  });
});
