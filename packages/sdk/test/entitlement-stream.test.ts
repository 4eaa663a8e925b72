/**
 * The change stream that carries entitlements (decision 0118) and the SDK's cache fed by it:
 * snapshots, changes with their new answers, synchronous checks without HTTP, local usage,
 * resume, reset and resync, the fallback to HTTP while the stream is down, and, on
 * PostgreSQL, a change made through one Billow process heard on another's stream.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { sandboxSeller } from '../../server/test/edge-support.js';
import { meteredSandbox } from './metered-sandbox.js';
import { prefixOf, startTestServer, uniqueId, type TestOrg, type TestServer } from '../../server/test/harness.js';
import { Billow, BillowNotFoundError, type EntitlementChangeEvent, type EventStream, type Fetch } from '../src/index.js';

let server: TestServer;
let org: TestOrg;
let seller: Awaited<ReturnType<typeof sandboxSeller>>;
let featureId: string;
let smallPlan: string;
let largePlan: string;

beforeAll(async () => {
  server = await startTestServer();
  const sandbox = await meteredSandbox(server, [3, 10]);
  ({ org, seller, featureId } = sandbox);
  [smallPlan, largePlan] = sandbox.plans as [string, string];
});
afterAll(() => server.close());

async function subscribed(): Promise<{ customerId: string; subscriptionId: string }> {
  const customerId = await seller.customer();
  return { customerId, subscriptionId: await seller.subscribe(customerId, smallPlan) };
}

/** Changes made "elsewhere": straight through HTTP, not through the client whose cache is watched. */
const elsewhere = {
  report: async (customerId: string, value: number) =>
    seller.expectOk(await seller.call('POST', '/report/usage/', { customerId, featureId, value, behaviour: 'DELTA' }), 200),
  changePlan: async (subscriptionId: string, planIdentifier: string): Promise<string> => {
    const res = await seller.call('POST', `/subscriptions/${subscriptionId}/update/`, { planIdentifier, chargePeriod: 'MONTHLY' });
    seller.expectOk(res, 200);
    return res.body.subscriptionId as string;
  },
  cancel: async (subscriptionId: string) =>
    seller.expectOk(await seller.call('POST', `/subscriptions/${subscriptionId}/cancel/`, { cancellationType: 'IMMEDIATE' }), 200),
};

/** Counts the entitlement checks a client sends; `streamDown` makes the change stream unreachable. */
function countingFetch() {
  const state = { checks: 0, streamDown: false, down: false };
  const fetch: Fetch = async (input, init) => {
    const url = String(input);
    if (state.down || (state.streamDown && url.includes('/entitlements/changes/'))) throw new TypeError('network down');
    if (/\/entitlements\/\?/.test(url)) state.checks++;
    return globalThis.fetch(input, init);
  };
  return { state, fetch };
}

const clientOf = (target: TestServer, fetch?: Fetch) =>
  new Billow({ apiKey: org.sandbox.serverKey, baseUrl: `${target.url}${prefixOf('sandbox')}`, maxRetries: 0, ...(fetch ? { fetch } : {}) });

/** The cache following its stream, with the customer's answer held (a stream that starts drops what was held before). */
async function warm(cache: ReturnType<Billow['entitlementCache']>, customerId: string): Promise<void> {
  await cache.check(customerId);
  await until(() => cache.stats().following, 'the change stream');
  await cache.check(customerId);
}

async function until(condition: () => boolean, what: string, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** Reads a stream in the background into `seen`. */
function collect(stream: EventStream<EntitlementChangeEvent>) {
  const seen: EntitlementChangeEvent[] = [];
  const reading = (async () => {
    for await (const event of stream) seen.push(event);
  })().catch(() => undefined);
  return { seen, done: () => (stream.close(), reading) };
}

const remainingIn = (event: EntitlementChangeEvent | undefined) =>
  event && 'entitlements' in event ? event.entitlements?.find((e) => e.featureId === featureId)?.remaining : undefined;

describe("a customer's stream", () => {
  it('starts with a snapshot, then sends the new entitlements of a usage report, a plan change and a cancellation', async () => {
    const { customerId, subscriptionId } = await subscribed();
    const stream = collect(await clientOf(server).entitlements.customerChanges(customerId));
    await until(() => stream.seen.length >= 2, 'ready and the snapshot');
    expect(stream.seen[0]).toEqual({ type: 'ready', resumed: false });
    expect(stream.seen[1]).toMatchObject({ type: 'snapshot', customerId });
    expect(remainingIn(stream.seen[1])).toBe(3);

    await elsewhere.report(customerId, 1);
    await until(() => remainingIn(stream.seen.at(-1)) === 2, 'the usage');
    const upgraded = await elsewhere.changePlan(subscriptionId, largePlan);
    await until(() => remainingIn(stream.seen.at(-1)) === 9, 'the larger plan (10, with the 1 used carried over)');
    await elsewhere.cancel(upgraded);
    await until(() => stream.seen.at(-1)?.type === 'customer' && remainingIn(stream.seen.at(-1)) === undefined, 'the cancellation');
    expect(stream.seen.at(-1)).toMatchObject({ type: 'customer', customerId, entitlements: [] });
    await stream.done();
  });

  it('is refused with a 404 for an unknown customer', async () => {
    await expect(clientOf(server).entitlements.customerChanges(uniqueId('nobody'))).rejects.toBeInstanceOf(BillowNotFoundError);
  });
});

describe("the environment's stream", () => {
  it('carries the changed customer\'s entitlements; resumes with them after a reconnect; an id it cannot resume from gets a reset', async () => {
    const { customerId } = await subscribed();
    const client = clientOf(server);
    const first = collect(await client.entitlements.changes());
    await elsewhere.report(customerId, 2);
    await until(() => remainingIn(first.seen.at(-1)) === 1, 'the report with its answer');
    expect(first.seen.at(-1)).toMatchObject({ type: 'customer', customerId });
    const stream = await client.entitlements.changes();
    const iterator = stream[Symbol.asyncIterator]();
    await iterator.next();
    const lastId = stream.lastEventId!;
    stream.close();
    await first.done();

    await elsewhere.report(customerId, 1);
    const resumed = collect(await client.entitlements.changes({ headers: { 'last-event-id': lastId } }));
    await until(() => remainingIn(resumed.seen.at(-1)) === 0, 'the missed report, with the answer of now');
    expect(resumed.seen[0]).toEqual({ type: 'ready', resumed: true });
    await resumed.done();

    const reset = collect(await client.entitlements.changes({ headers: { 'last-event-id': '0000dead.1' } }));
    await until(() => reset.seen.length >= 2, 'ready and the reset');
    expect(reset.seen.slice(0, 2)).toEqual([{ type: 'ready', resumed: false }, { type: 'reset' }]);
    await reset.done();
  });
});

describe('the entitlement cache fed by the stream', () => {
  it('answers synchronously, and takes each change from the stream without asking Billow over HTTP', async () => {
    const { customerId, subscriptionId } = await subscribed();
    const { state, fetch } = countingFetch();
    const cache = clientOf(server, fetch).entitlementCache();
    try {
      expect(cache.hasAccessNow(customerId, featureId)).toBeUndefined();
      await warm(cache, customerId);
      expect(cache.hasAccessNow(customerId, featureId)).toBe(true);
      const checks = state.checks;
      await elsewhere.report(customerId, 3);
      await until(() => cache.hasAccessNow(customerId, featureId) === false, 'the spent meter');
      const upgraded = await elsewhere.changePlan(subscriptionId, largePlan);
      await until(() => cache.peek(customerId)?.entitlements[0]?.remaining === 7, 'the larger plan');
      await elsewhere.cancel(upgraded);
      await until(() => cache.peek(customerId)?.entitlements.length === 0, 'the cancellation');
      expect(cache.hasAccessNow(customerId, featureId)).toBe(false);
      expect(state.checks).toBe(checks);
      expect(cache.stats().streamed).toBeGreaterThanOrEqual(3);
    } finally {
      cache.close();
    }
  });

  it("lowers the remaining count at once for this process's own usage reports; the stream's answer confirms it", async () => {
    const { customerId } = await subscribed();
    const billow = clientOf(server);
    const cache = billow.entitlementCache();
    try {
      await warm(cache, customerId);
      // The stream's answer may come before the report's own.
      const streamed = cache.stats().streamed;
      const sending = billow.usage.report({ customerId, featureId, value: 2, behaviour: 'DELTA' });
      expect(cache.peek(customerId)?.entitlements[0]).toMatchObject({ currentUsage: 2, remaining: 1, hasAccess: true });
      await sending;
      await until(() => cache.stats().streamed > streamed, "the stream's answer");
      expect(cache.peek(customerId)?.entitlements[0]).toMatchObject({ currentUsage: 2, remaining: 1 });

      await billow.usage.report({ customerId, featureId, value: 1, behaviour: 'DELTA' });
      expect(cache.hasAccessNow(customerId, featureId)).toBe(false);
      // A report Billow refuses drops the answer that counted it.
      await expect(billow.usage.report({ customerId, featureId: 'no-such-feature', value: 1, behaviour: 'DELTA' })).rejects.toThrow();
      await expect(billow.usage.report({ customerId, featureId, value: 1.5, behaviour: 'DELTA' })).rejects.toThrow();
      expect(cache.peek(customerId)).toBeUndefined();
      expect((await cache.entitlements(customerId, featureId))[0]).toMatchObject({ currentUsage: 3, remaining: 0 });
    } finally {
      cache.close();
    }
  });

  it('drops everything when its stream comes back unable to resume (a reset), and fills again over HTTP', async () => {
    const { customerId } = await subscribed();
    const { state, fetch } = countingFetch();
    // Breaks the open stream on demand; the cache reconnects with a Last-Event-ID this process cannot resume from.
    let breakStream = () => undefined as void;
    const breaking: Fetch = (input, init) => {
      if (!String(input).includes('/entitlements/changes/')) return fetch(input, init);
      const broken = new AbortController();
      breakStream = () => broken.abort();
      const headers = init?.headers as Record<string, string>;
      if (headers['last-event-id']) headers['last-event-id'] = '0000dead.1';
      return fetch(input, { ...init, signal: AbortSignal.any([init!.signal!, broken.signal]) });
    };
    const cache = clientOf(server, breaking).entitlementCache();
    try {
      await warm(cache, customerId);
      expect(cache.hasAccessNow(customerId, featureId)).toBe(true);
      const invalidations = cache.stats().invalidations;
      breakStream();
      await until(() => cache.stats().invalidations > invalidations && cache.stats().following, 'the reset');
      expect(cache.peek(customerId)).toBeUndefined();
      const checks = state.checks;
      expect(await cache.hasAccess(customerId, featureId)).toBe(true);
      expect(state.checks).toBe(checks + 1);
      expect(cache.hasAccessNow(customerId, featureId)).toBe(true);
    } finally {
      cache.close();
    }
  });

  it('falls back to HTTP checks while the stream is down, serving an answer at most ttlMs after Billow gave it', async () => {
    const { customerId } = await subscribed();
    const { state, fetch } = countingFetch();
    state.streamDown = true;
    let now = 1_000_000;
    const cache = clientOf(server, fetch).entitlementCache({ ttlMs: 1_000, now: () => now });
    try {
      expect(await cache.hasAccess(customerId, featureId)).toBe(true);
      expect(cache.stats().following).toBe(false);
      await elsewhere.report(customerId, 3);
      now += 999;
      expect(cache.hasAccessNow(customerId, featureId)).toBe(true);
      now += 1;
      expect(cache.hasAccessNow(customerId, featureId)).toBeUndefined();
      const checks = state.checks;
      expect(await cache.hasAccess(customerId, featureId)).toBe(false);
      expect(state.checks).toBe(checks + 1);
    } finally {
      cache.close();
    }
  });
});

describe.runIf(process.env.DATABASE_URL)('two Billow processes on one PostgreSQL database', () => {
  it("a change made through one is heard with its entitlements on the other's stream", async () => {
    const other = await startTestServer();
    try {
      const { customerId } = await subscribed();
      const cache = clientOf(other).entitlementCache();
      await warm(cache, customerId);
      await elsewhere.report(customerId, 1);
      await until(() => cache.peek(customerId)?.entitlements[0]?.remaining === 2, 'the report made through the first server');
      cache.close();
    } finally {
      await other.close();
    }
  });
});
