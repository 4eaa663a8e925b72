import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../src/lib/clock.js';
import { sandboxSeller } from './edge-support.js';
import { openTestDatabase, startTestServer, uniqueId, type TestOrg, type TestServer } from './harness.js';

// POST /report/usage/batch/ (decision 0040): up to 1,000 reports, each with its own key and result.

const clock = new ManualClock(new Date('2026-03-10T12:00:00Z'));
let statements = 0;
let server: TestServer;
let org: TestOrg;
let s: Awaited<ReturnType<typeof sandboxSeller>>;

const preAggregated = { featureSubType: 'PRE_AGGREGATED_USAGE', units: { singular: 'call', plural: 'calls' } };

beforeAll(async () => {
  const database = await openTestDatabase({ onQuery: () => statements++ });
  server = await startTestServer({ clock, database });
  org = await server.createOrg();
  s = await sandboxSeller(server, org.sandbox.serverKey);
});
afterAll(async () => {
  await server.close();
  await server.database.close();
});

const meter = () => s.api.feature({ name: 'Calls', identifier: uniqueId('calls'), featureType: 'METER', featureDetails: preAggregated });
/** `count` customers subscribed to one plan granting `feature` with `details`. */
async function customersOf(feature: { id: string }, count: number, details: Record<string, unknown> = { value: 1_000_000 }) {
  const plan = await s.plan([{ feature: feature.id, details }]);
  return Promise.all(
    Array.from({ length: count }, async () => {
      const customerId = await s.customer();
      await s.subscribe(customerId, plan);
      return customerId;
    }),
  );
}
const batch = (reports: unknown[], key = org.sandbox.serverKey) => s.call('POST', '/report/usage/batch/', { reports }, key);
const delta = (customerId: string, featureId: string, value: number, idempotencyKey = uniqueId('k')) => ({
  customerId,
  featureId,
  value,
  behaviour: 'DELTA',
  idempotencyKey,
});
async function usageOf(customerId: string, featureId: string): Promise<number> {
  const res = await s.call('GET', `/entitlements?customer_id=${customerId}&feature_id=${featureId}`);
  expect(res.status, res.text).toBe(200);
  return res.body.entitlements[0].currentUsage;
}
async function reportsRecorded(featureId: string): Promise<number> {
  const row = await server.database.db
    .selectFrom('usage_reports')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('feature_id', '=', featureId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

describe('POST /report/usage/batch/', () => {
  it('answers every report in order: accepted, duplicate or rejected with its detail, and counts the accepted ones', async () => {
    const calls = await meter();
    const other = await meter();
    const [a, b] = await customersOf(calls, 2);
    // Answers cached before the batch must not be served after it.
    expect(await usageOf(a!, calls.identifier)).toBe(0);
    const earlier = await s.call('POST', '/report/usage/', delta(a!, calls.identifier, 100, 'single-1'));
    expect(earlier.status, earlier.text).toBe(200);
    const res = await batch([
      delta(a!, calls.identifier, 5, 'k1'),
      delta(b!, calls.identifier, 7, 'k2'),
      delta('nobody', calls.identifier, 1, 'k3'),
      delta(a!, other.identifier, 1, 'k4'),
      { customerId: a, featureId: calls.identifier, value: -1, behaviour: 'SET', idempotencyKey: 'k5' },
      delta(a!, calls.identifier, 100, 'single-1'),
      delta(a!, calls.identifier, 99, 'single-1'),
      delta(a!, calls.identifier, 100, 'single-1'),
      delta(a!, calls.identifier, 5, 'k1'),
      delta(a!, calls.identifier, 6, 'k1'),
      delta(b!, 'no-such-feature', 1, 'k6'),
    ]);
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({
      accepted: 2,
      duplicates: 3,
      rejected: 6,
      results: [
        { idempotencyKey: 'k1', status: 'accepted' },
        { idempotencyKey: 'k2', status: 'accepted' },
        { idempotencyKey: 'k3', status: 'rejected', code: 'customer_not_found', detail: 'customerId: no customer "nobody" in this environment' },
        { idempotencyKey: 'k4', status: 'rejected', code: 'feature_not_granted', detail: `featureId: no subscription of customer "${a}" grants "${other.identifier}"` },
        { idempotencyKey: 'k5', status: 'rejected', code: 'validation_error', detail: 'value: a SET report takes a value of at least 0; use DELTA to subtract' },
        { idempotencyKey: 'single-1', status: 'duplicate' },
        { idempotencyKey: 'single-1', status: 'rejected', code: 'idempotency_key_reused', detail: 'idempotencyKey was already used for a different usage report' },
        { idempotencyKey: 'single-1', status: 'duplicate' },
        { idempotencyKey: 'k1', status: 'duplicate' },
        { idempotencyKey: 'k1', status: 'rejected', code: 'idempotency_key_reused', detail: 'idempotencyKey was already used for a different usage report' },
        { idempotencyKey: 'k6', status: 'rejected', code: 'feature_not_found', detail: 'featureId: no feature with identifier "no-such-feature" in this environment' },
      ],
    });
    expect(await usageOf(a!, calls.identifier)).toBe(105);
    expect(await usageOf(b!, calls.identifier)).toBe(7);
    expect(await reportsRecorded(calls.id)).toBe(3);
    // A single report with a key the batch counted is its first answer again, not a second count.
    const retried = await s.call('POST', '/report/usage/', delta(b!, calls.identifier, 7, 'k2'));
    expect(retried.status, retried.text).toBe(200);
    expect(await usageOf(b!, calls.identifier)).toBe(7);
  });

  it('counts a batch sent twice once, and applies SETs and the reports of their counter in order', async () => {
    const calls = await meter();
    const [a, b, c] = await customersOf(calls, 3);
    const reports = [
      delta(a!, calls.identifier, 5),
      { customerId: a, featureId: calls.identifier, value: 2, behaviour: 'SET', idempotencyKey: uniqueId('set') },
      delta(a!, calls.identifier, 3),
      delta(b!, calls.identifier, 4),
      delta(c!, calls.identifier, 1),
      delta(c!, calls.identifier, 1),
    ];
    const first = await batch(reports);
    expect(first.status, first.text).toBe(200);
    expect(first.body.results.map((r: any) => r.status)).toEqual(Array(6).fill('accepted'));
    const again = await batch(reports);
    expect(again.body).toMatchObject({ accepted: 0, duplicates: 6, rejected: 0 });
    expect([await usageOf(a!, calls.identifier), await usageOf(b!, calls.identifier), await usageOf(c!, calls.identifier)]).toEqual([5, 4, 2]);
    expect(await reportsRecorded(calls.id)).toBe(6);
  });

  it('judges a key sent again against the report stored before the batch, also when its counter is written in order', async () => {
    const calls = await meter();
    const [customer] = await customersOf(calls, 1);
    const stored = delta(customer!, calls.identifier, 2);
    expect((await s.call('POST', '/report/usage/', stored)).status).toBe(200);
    // A SET on the same counter sends every report of it down the in-order path, which reads no key first.
    const res = await batch([
      { ...stored, value: 1 },
      { customerId: customer, featureId: calls.identifier, value: 5, behaviour: 'SET', idempotencyKey: uniqueId('set') },
      stored,
      { ...stored, value: 3 },
    ]);
    expect(res.status, res.text).toBe(200);
    expect(res.body.results.map((r: { status: string; code?: string }) => r.code ?? r.status)).toEqual([
      'idempotency_key_reused',
      'accepted',
      'duplicate',
      'idempotency_key_reused',
    ]);
    expect(await usageOf(customer!, calls.identifier)).toBe(5);
  });

  it('sends a usage alert once when a batch crosses its threshold', async () => {
    const calls = await meter();
    const [a] = await customersOf(calls, 1, { value: 10, usageAlerts: { enabled: true, thresholds: [50], thresholdType: 'PERCENTAGE' } });
    const res = await batch([delta(a!, calls.identifier, 3), delta(a!, calls.identifier, 3), delta(a!, calls.identifier, 3)]);
    expect(res.body.accepted).toBe(3);
    expect(await usageOf(a!, calls.identifier)).toBe(9);
    const alerts = await server.database.db.selectFrom('events').select('payload').where('type', '=', 'feature.usage_alert').execute();
    const mine = alerts.filter((row) => (row.payload as any).data.object.customer.customer_id === a);
    expect(mine.map((row) => (row.payload as any).data.object.current_usage)).toEqual([6]);
  });

  it('refuses a batch over 1,000 reports, an empty one, a malformed report and a client key, counting nothing', async () => {
    const calls = await meter();
    const [a] = await customersOf(calls, 1);
    const over = await batch(Array.from({ length: 1001 }, (_, i) => delta(a!, calls.identifier, 1, `over-${i}`)));
    expect(over.status).toBe(400);
    expect(over.body).toEqual({ detail: 'reports: must NOT have more than 1000 items', code: 'validation_error' });
    const empty = await batch([]);
    expect(empty.status).toBe(400);
    expect(empty.body.detail).toBe('reports: must NOT have fewer than 1 items');
    const keyless = await batch([delta(a!, calls.identifier, 1), { customerId: a, featureId: calls.identifier, value: 1, behaviour: 'DELTA' }]);
    expect(keyless.status).toBe(400);
    expect(keyless.body.detail).toBe('reports[1].idempotencyKey is required');
    const client = await batch([delta(a!, calls.identifier, 1)], org.sandbox.clientKey);
    expect(client.status).toBe(403);
    expect(await reportsRecorded(calls.id)).toBe(0);
  });

  it('takes a full batch of 1,000 in a few statements, whatever its size', async () => {
    const calls = await meter();
    const customers = await customersOf(calls, 20);
    const reports = Array.from({ length: 1000 }, (_, i) => delta(customers[i % 20]!, calls.identifier, 1 + (i % 3)));
    const expected = new Map<string, number>();
    for (const r of reports) expected.set(r.customerId, (expected.get(r.customerId) ?? 0) + r.value);
    await usageOf(customers[0]!, calls.identifier);
    const before = statements;
    const res = await batch(reports);
    const used = statements - before;
    expect(res.status, res.text).toBe(200);
    expect(res.body.accepted).toBe(1000);
    // Where the customers' reports go (read once for all of them), and the write: no key is looked up before.
    expect(used).toBe(2);
    for (const customerId of customers) expect(await usageOf(customerId, calls.identifier)).toBe(expected.get(customerId));

    // The routes are kept: the next batch is its write alone; and a key sent again is found by it, and answered.
    const again = Array.from({ length: 1000 }, (_, i) => delta(customers[i % 20]!, calls.identifier, 1));
    again[0] = reports[0]!;
    const beforeAgain = statements;
    const second = await batch(again);
    expect(statements - beforeAgain).toBe(2);
    expect(second.body.accepted).toBe(999);
    expect(second.body.results[0]).toEqual({ idempotencyKey: reports[0]!.idempotencyKey, status: 'duplicate' });
    expect(await usageOf(customers[0]!, calls.identifier)).toBe(expected.get(customers[0]!)! + 49);
  });

  it('counts once the reports two concurrent batches share', async () => {
    const calls = await meter();
    const customers = await customersOf(calls, 5);
    const reports = Array.from({ length: 450 }, (_, i) => delta(customers[i % 5]!, calls.identifier, 1, `shared-${calls.id}-${i}`));
    const [first, second] = await Promise.all([batch(reports.slice(0, 300)), batch(reports.slice(150).reverse())]);
    expect(first.status, first.text).toBe(200);
    expect(second.status, second.text).toBe(200);
    const statusOf = new Map<string, string[]>();
    for (const r of [...first.body.results, ...second.body.results]) statusOf.set(r.idempotencyKey, [...(statusOf.get(r.idempotencyKey) ?? []), r.status]);
    for (const [key, statuses] of statusOf) {
      expect(statuses.filter((st) => st === 'accepted'), key).toHaveLength(1);
      expect(statuses.filter((st) => st === 'rejected'), key).toHaveLength(0);
    }
    expect(first.body.accepted + second.body.accepted).toBe(450);
    expect(first.body.duplicates + second.body.duplicates).toBe(150);
    let total = 0;
    for (const customerId of customers) total += await usageOf(customerId, calls.identifier);
    expect(total).toBe(450);
    expect(await reportsRecorded(calls.id)).toBe(450);
  });

  it('stores customer ids, keys and resource ids as sent, whatever characters they hold', async () => {
    const calls = await meter();
    const plan = await s.plan([{ feature: calls.id, details: { value: 1_000_000 } }]);
    const odd = ['q"uote', 'back\\slash', 'NULL', '{a,b}', 'sp ace,comma', 'é😀'];
    const customers = [];
    for (const text of odd) {
      const customerId = uniqueId(text);
      s.expectOk(await s.call('POST', '/customers/', { customerId, name: 'Odd', email: `${uniqueId('odd')}@example.com` }), 201);
      await s.subscribe(customerId, plan);
      customers.push(customerId);
    }
    // Warm the routes, so that the batch takes the one-statement path.
    for (const customerId of customers) expect(await usageOf(customerId, calls.identifier)).toBe(0);
    const reports = customers.map((customerId, i) => ({ ...delta(customerId, calls.identifier, i + 1, `${odd[i]}-${calls.id}`), resourceId: odd[i] }));
    const res = await batch(reports);
    expect(res.status, res.text).toBe(200);
    expect(res.body.accepted).toBe(odd.length);
    for (const [i, customerId] of customers.entries()) expect(await usageOf(customerId, calls.identifier)).toBe(i + 1);
    const stored = await server.database.db
      .selectFrom('usage_reports')
      .select(['client_idempotency_key', 'resource_id'])
      .where('feature_id', '=', calls.id)
      .orderBy('value')
      .execute();
    expect(stored).toEqual(odd.map((text) => ({ client_idempotency_key: `${text}-${calls.id}`, resource_id: text })));
    expect((await batch(reports)).body).toMatchObject({ accepted: 0, duplicates: odd.length, rejected: 0 });
  });
});
