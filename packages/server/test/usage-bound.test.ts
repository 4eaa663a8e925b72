import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sandboxSeller } from './edge-support.js';
import { startTestServer, uniqueId, type TestOrg, type TestServer } from './harness.js';

/**
 * Usage counters stay within ±(2^53 − 1) (issue 24, item 12; decision 0053): a report
 * that would cross the bound is refused on its own with 400 usage_counter_limit, the
 * others of its batch are counted, and currentUsage is always an exact integer.
 */
const MAX = Number.MAX_SAFE_INTEGER;
const LARGEST_VALUE = 1e15;
let server: TestServer;
let org: TestOrg;
let s: Awaited<ReturnType<typeof sandboxSeller>>;

beforeAll(async () => {
  server = await startTestServer();
  org = await server.createOrg();
  s = await sandboxSeller(server, org.sandbox.serverKey);
});
afterAll(() => server.close());

const preAggregated = { featureSubType: 'PRE_AGGREGATED_USAGE', units: { singular: 'call', plural: 'calls' } };
const delta = (customerId: string, featureId: string, value: number, idempotencyKey = uniqueId('k')) => ({
  customerId,
  featureId,
  value,
  behaviour: 'DELTA',
  idempotencyKey,
});

/** A customer with a counter of a new meter at `value`, as if that much usage had been reported. */
async function counterAt(value: number): Promise<{ customerId: string; feature: { id: string; identifier: string } }> {
  const feature = await s.api.feature({ name: 'Calls', identifier: uniqueId('calls'), featureType: 'METER', featureDetails: preAggregated });
  const plan = await s.plan([{ feature: feature.id, details: { hasUnlimitedUsage: true } }]);
  const customerId = await s.customer();
  await s.subscribe(customerId, plan);
  const first = await s.call('POST', '/report/usage/', delta(customerId, feature.identifier, 1));
  expect(first.status, first.text).toBe(200);
  // Reaching the bound with reports takes about 9,000 of the largest value; the counter is set there instead.
  await sql`UPDATE usage_counters SET value = ${value} WHERE feature_id = ${feature.id}`.execute(server.database.db);
  return { customerId, feature };
}

async function usageOf(customerId: string, featureId: string): Promise<number> {
  const res = await s.call('GET', `/entitlements?customer_id=${customerId}&feature_id=${featureId}`);
  expect(res.status, res.text).toBe(200);
  return res.body.entitlements[0].currentUsage;
}

describe('usage counters are bounded', () => {
  it('a single report that would cross 2^53 − 1 is refused with 400 and counts nothing; one up to the bound is taken', async () => {
    const { customerId, feature } = await counterAt(MAX - 10);
    const over = await s.call('POST', '/report/usage/', delta(customerId, feature.identifier, LARGEST_VALUE));
    expect(over.status, over.text).toBe(400);
    expect(over.body.code).toBe('usage_counter_limit');
    expect(over.body.detail).toMatch(/9,007,199,254,740,991/);
    expect(await usageOf(customerId, feature.identifier)).toBe(MAX - 10);
    const upTo = await s.call('POST', '/report/usage/', delta(customerId, feature.identifier, 10));
    expect(upTo.status, upTo.text).toBe(200);
    expect(await usageOf(customerId, feature.identifier)).toBe(MAX);
    const one = await s.call('POST', '/report/usage/', delta(customerId, feature.identifier, 1));
    expect(one.status).toBe(400);
    expect(one.body.code).toBe('usage_counter_limit');
    const down = await s.call('POST', '/report/usage/', delta(customerId, feature.identifier, -5));
    expect(down.status, down.text).toBe(200);
    expect(await usageOf(customerId, feature.identifier)).toBe(MAX - 5);
  });

  it('the negative side is bounded alike', async () => {
    const { customerId, feature } = await counterAt(-MAX + 3);
    const under = await s.call('POST', '/report/usage/', delta(customerId, feature.identifier, -4));
    expect(under.status, under.text).toBe(400);
    expect(under.body.code).toBe('usage_counter_limit');
    expect(await usageOf(customerId, feature.identifier)).toBe(-MAX + 3);
  });

  it('a batch refuses only the reports that would cross the bound, one by one, and counts the rest', async () => {
    const { customerId, feature } = await counterAt(MAX - 15);
    const other = await counterAt(0);
    const reports = [
      delta(customerId, feature.identifier, 5, 'b1'),
      delta(customerId, feature.identifier, LARGEST_VALUE, 'b2'),
      delta(other.customerId, other.feature.identifier, 7, 'b3'),
      delta(customerId, feature.identifier, 5, 'b4'),
      delta(customerId, feature.identifier, 6, 'b5'),
      delta(customerId, feature.identifier, 5, 'b6'),
    ];
    const res = await s.call('POST', '/report/usage/batch/', { reports });
    expect(res.status, res.text).toBe(200);
    expect(res.body.results.map((r: { status: string; code?: string }) => r.code ?? r.status)).toEqual([
      'accepted',
      'usage_counter_limit',
      'accepted',
      'accepted',
      'usage_counter_limit',
      'accepted',
    ]);
    expect(res.body).toMatchObject({ accepted: 4, rejected: 2, duplicates: 0 });
    expect(res.body.results[1].detail).toMatch(/beyond ±9,007,199,254,740,991/);
    expect(await usageOf(customerId, feature.identifier)).toBe(MAX);
    expect(await usageOf(other.customerId, other.feature.identifier)).toBe(7);

    // Sent again: the counted ones are duplicates, the refused ones are refused again (they were never recorded).
    const again = await s.call('POST', '/report/usage/batch/', { reports });
    expect(again.body.results.map((r: { status: string; code?: string }) => r.code ?? r.status)).toEqual([
      'duplicate',
      'usage_counter_limit',
      'duplicate',
      'duplicate',
      'usage_counter_limit',
      'duplicate',
    ]);
    expect(await usageOf(customerId, feature.identifier)).toBe(MAX);
  });
});
