import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { sandboxSeller } from '../../server/test/edge-support.js';
import { meteredSandbox } from './metered-sandbox.js';
import { startIsolatedServer } from '../../server/test/isolated-server.js';
import { prefixOf, startTestServer, uniqueId, type TestOrg, type TestServer } from '../../server/test/harness.js';
import { Billow, BillowConnectionError, BillowPermissionError, BillowRateLimitError, type EntitlementChangeEvent, type Fetch } from '../src/index.js';

let server: TestServer;
let org: TestOrg;
let seller: Awaited<ReturnType<typeof sandboxSeller>>;
let featureId: string;
let planIdentifier: string;

beforeAll(async () => {
  server = await startTestServer();
  const sandbox = await meteredSandbox(server, [3]);
  ({ org, seller, featureId } = sandbox);
  planIdentifier = sandbox.plans[0]!;
});
afterAll(() => server.close());

/** A customer subscribed to the plan of three calls. */
async function entitledCustomer(): Promise<string> {
  const customerId = await seller.customer();
  await seller.subscribe(customerId, planIdentifier);
  return customerId;
}

/** Usage reported by "another process": straight through HTTP, not through the client whose cache is watched. */
async function reportElsewhere(customerId: string, value: number): Promise<void> {
  seller.expectOk(await seller.call('POST', '/report/usage/', { customerId, featureId, value, behaviour: 'DELTA' }), 200);
}

/** Counts the checks a client sends, and can be made to fail like a network that is down. */
function countingFetch() {
  const state = { checks: 0, down: false };
  const fetch: Fetch = async (input, init) => {
    const url = String(input);
    if (state.down) throw new TypeError('network down');
    if (/\/entitlements\/\?/.test(url)) state.checks++;
    return globalThis.fetch(input, init);
  };
  return { state, fetch };
}

const sandboxClient = (fetch?: Fetch, apiKey = org.sandbox.serverKey) =>
  new Billow({ apiKey, baseUrl: `${server.url}${prefixOf('sandbox')}`, maxRetries: 0, ...(fetch ? { fetch } : {}) });

async function until(condition: () => boolean | Promise<boolean>, what: string, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('GET /entitlements/changes/ through the SDK', () => {
  it("names each customer of its environment whose entitlements change, and none of another's", async () => {
    const stream = await sandboxClient().entitlements.changes();
    const seen: EntitlementChangeEvent[] = [];
    const reading = (async () => {
      for await (const event of stream) seen.push(event);
    })();
    await until(() => seen.length > 0, 'ready');
    expect(seen[0]).toEqual({ type: 'ready', resumed: false });

    const customerId = await entitledCustomer();
    await reportElsewhere(customerId, 1);
    await until(() => seen.filter((e) => e.type === 'customer' && e.customerId === customerId).length >= 2, 'the subscription and the usage');

    // Archiving a customer is announced: heard on production's stream, not on sandbox's.
    const productionStream = await new Billow({ apiKey: org.production.serverKey, baseUrl: server.url, maxRetries: 0 }).entitlements.changes();
    const productionId = uniqueId('prod');
    const production = new Billow({ apiKey: org.production.serverKey, baseUrl: server.url });
    await production.customers.create({ customerId: productionId });
    await production.customers.archive(productionId);
    for await (const event of productionStream) if (event.type === 'customer' && event.customerId === productionId) break;
    productionStream.close();
    // One more sandbox change: once it is heard, the production one would have been too.
    await reportElsewhere(customerId, 1);
    await until(() => seen.filter((e) => e.type === 'customer' && e.customerId === customerId).length >= 3, 'the second report');
    stream.close();
    await reading;
    expect(seen.filter((event) => event.type === 'customer' && event.customerId === productionId)).toEqual([]);
  });

  it('resumes after Last-Event-ID with the changes it missed, and says so; an id it cannot tell gets resumed: false', async () => {
    const client = sandboxClient();
    const first = await client.entitlements.changes();
    for await (const event of first) if (event.type === 'ready') break;
    const lastId = first.lastEventId;
    first.close();
    expect(lastId).toMatch(/^[0-9a-f]{8}\.\d+$/);

    const customerId = await entitledCustomer();
    await reportElsewhere(customerId, 1);
    const resumed = await client.entitlements.changes({ headers: { 'last-event-id': lastId! } });
    const events: EntitlementChangeEvent[] = [];
    for await (const event of resumed) {
      events.push(event);
      if (events.filter((e) => e.type === 'customer' && e.customerId === customerId).length >= 2) break;
    }
    resumed.close();
    expect(events[0]).toEqual({ type: 'ready', resumed: true });
    expect(events.slice(1).every((e) => e.type === 'customer')).toBe(true);

    for (const unknown of ['0000dead.1', 'not-an-id', `${lastId!.split('.')[0]}.99999999`]) {
      const stream = await client.entitlements.changes({ headers: { 'last-event-id': unknown } });
      for await (const event of stream) {
        expect(event).toEqual({ type: 'ready', resumed: false });
        break;
      }
      stream.close();
    }
  });

  it('is for server keys only: a client key is refused with a BillowPermissionError', async () => {
    const refused = await sandboxClient(undefined, org.sandbox.clientKey).entitlements.changes().catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(BillowPermissionError);
    expect(refused).toMatchObject({ status: 403 });
  });

  it('refuses a stream past BILLOW_CHANGE_STREAM_LIMIT with a 429, and takes one again once another closes', async () => {
    const own = await startIsolatedServer('sdkstreamcap', { env: { BILLOW_CHANGE_STREAM_LIMIT: '2' } });
    try {
      const ownOrg = await own.createOrg();
      const client = new Billow({ apiKey: ownOrg.sandbox.serverKey, baseUrl: `${own.url}/sandbox`, maxRetries: 0 });
      const [first, second] = [await client.entitlements.changes(), await client.entitlements.changes()];
      const refused = await client.entitlements.changes().catch((e: unknown) => e);
      expect(refused).toBeInstanceOf(BillowRateLimitError);
      expect(refused).toMatchObject({ status: 429, code: 'too_many_streams' });
      // Production has streams of its own.
      (await new Billow({ apiKey: ownOrg.production.serverKey, baseUrl: own.url, maxRetries: 0 }).entitlements.changes()).close();
      first.close();
      await until(async () => {
        const again = await client.entitlements.changes().catch(() => null);
        again?.close();
        return again !== null;
      }, 'a place freed by the closed stream');
      second.close();
    } finally {
      await own.close();
    }
  });

  it('ends when Billow shuts down, so that a server never waits on an open stream to stop', async () => {
    const own = await startIsolatedServer('sdkstream');
    const ownOrg = await own.createOrg();
    const stream = await new Billow({ apiKey: ownOrg.sandbox.serverKey, baseUrl: `${own.url}/sandbox`, maxRetries: 0 }).entitlements.changes();
    const reading = (async () => {
      for await (const event of stream) void event;
    })().catch(() => 'broken');
    const started = Date.now();
    await own.close();
    await reading;
    expect(Date.now() - started).toBeLessThan(5_000);
  });
});

describe('the entitlement cache', () => {
  it('answers repeated checks from memory and drops an answer the moment Billow changes it', async () => {
    const customerId = await entitledCustomer();
    const { state, fetch } = countingFetch();
    const cache = sandboxClient(fetch).entitlementCache();
    try {
      expect(await cache.hasAccess(customerId, featureId)).toBe(true);
      await until(() => cache.stats().following, 'the change stream');
      await cache.check(customerId);
      const before = state.checks;
      for (let i = 0; i < 20; i++) expect(await cache.hasAccess(customerId, featureId)).toBe(true);
      expect(state.checks).toBe(before);

      await reportElsewhere(customerId, 3);
      await until(async () => !(await cache.hasAccess(customerId, featureId)), 'the spent meter to be seen');
      const [entry] = await cache.entitlements(customerId, featureId);
      expect(entry).toMatchObject({ currentUsage: 3, remaining: 0, hasAccess: false });
      expect(cache.stats().invalidations).toBeGreaterThan(0);
    } finally {
      cache.close();
    }
  });

  it("forgets at once what this process's own writes change, before the stream says so", async () => {
    const customerId = await entitledCustomer();
    const billow = sandboxClient();
    const cache = billow.entitlementCache({ followChanges: false });
    expect((await cache.entitlements(customerId, featureId))[0]!.currentUsage).toBe(0);
    await billow.usage.report({ customerId, featureId, value: 2, behaviour: 'DELTA' });
    expect((await cache.entitlements(customerId, featureId))[0]!.currentUsage).toBe(2);
    cache.close();
  });

  it('serves a stale answer while Billow cannot be reached, within staleIfErrorMs only', async () => {
    const customerId = await entitledCustomer();
    const { state, fetch } = countingFetch();
    let now = 1_000_000;
    const cache = sandboxClient(fetch).entitlementCache({ followChanges: false, ttlMs: 1_000, staleIfErrorMs: 5_000, now: () => now });
    expect(await cache.hasAccess(customerId, featureId)).toBe(true);
    state.down = true;
    now += 2_000;
    expect(await cache.hasAccess(customerId, featureId)).toBe(true);
    expect(cache.stats().staleServed).toBe(1);
    now += 10_000;
    await expect(cache.hasAccess(customerId, featureId)).rejects.toBeInstanceOf(BillowConnectionError);
    cache.close();
  });

  it('shares one request between concurrent checks of one customer', async () => {
    const customerId = await entitledCustomer();
    const { state, fetch } = countingFetch();
    const cache = sandboxClient(fetch).entitlementCache({ followChanges: false });
    const answers = await Promise.all(Array.from({ length: 10 }, () => cache.check(customerId)));
    expect(new Set(answers).size).toBe(1);
    expect(state.checks).toBe(1);
    cache.close();
  });
});
