import { randomUUID } from 'node:crypto';
import { InvalidRequestError } from '@kelviq/node-sdk';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../src/lib/clock.js';
import { ReportWriter } from '../src/modules/usage/report-writer.js';
import { sandboxSeller } from './edge-support.js';
import { startTestServer, uniqueId, type TestOrg, type TestServer } from './harness.js';
import { officialClient } from './official-client-support.js';

// POST /report/usage/ and /report/event/, reset periods, rollover and usage alerts (DOMAIN.md §2.4, §3.3, §3.4).

const START = new Date('2026-03-10T12:00:00Z');
const DAY = 86_400_000;
const clock = new ManualClock(START);
let server: TestServer;
let org: TestOrg;
let s: Awaited<ReturnType<typeof seller>>;

const paid = (amount: number) => ({
  priceType: 'PAID',
  currency: 'USD',
  chargeCatalogPrice: [{ charges: [{ chargePeriod: 'MONTHLY', priceData: { amount } }] }],
});
const preAggregated = { featureSubType: 'PRE_AGGREGATED_USAGE', units: { singular: 'call', plural: 'calls' } };
const rawEvents = { featureSubType: 'RAW_EVENTS', units: { singular: 'unit', plural: 'units' } };

async function seller(key: string) {
  const { api, call, expectOk, plan, customer, subscribe } = await sandboxSeller(server, key);
  const meter = (extra: Record<string, unknown> = {}) =>
    api.feature({ name: 'Calls', identifier: uniqueId('calls'), featureType: 'METER', featureDetails: preAggregated, ...extra });
  /** A customer subscribed to a new plan granting `feature` with `details`. */
  const subscribed = async (feature: { id: string }, details: Record<string, unknown>) => {
    const customerId = await customer();
    const subscriptionId = await subscribe(customerId, await plan([{ feature: feature.id, details }]));
    return { customerId, subscriptionId };
  };
  const report = (body: Record<string, unknown>, asKey = key) => call('POST', '/report/usage/', body, asKey);
  const delta = async (customerId: string, featureId: string, value: number, behaviour = 'DELTA') => {
    const res = await report({ customerId, featureId, value, behaviour });
    expectOk(res, 200);
    return res.body;
  };
  const event = (body: Record<string, unknown>) => call('POST', '/report/event/', body);
  /** The customer's entries of one feature. */
  const entries = async (customerId: string, featureId: string) => {
    const res = await call('GET', `/entitlements?customer_id=${customerId}&feature_id=${featureId}`);
    expectOk(res, 200);
    return res.body.entitlements as any[];
  };
  const entry = async (customerId: string, featureId: string) => (await entries(customerId, featureId))[0];
  return { api, call, meter, plan, customer, subscribe, subscribed, report, delta, event, entries, entry };
}

beforeAll(async () => {
  server = await startTestServer({ clock });
  org = await server.createOrg();
  s = await seller(org.sandbox.serverKey);
});
afterAll(() => server.close());
beforeEach(() => clock.set(START));

const db = () => server.database.db;
const client = () => officialClient(server, org.sandbox.serverKey);

async function alertsOf(customerId: string) {
  const rows = await db()
    .selectFrom('events')
    .select('payload')
    .where('type', '=', 'feature.usage_alert')
    .orderBy('seq')
    .execute();
  return rows
    .map((r) => (r.payload as any).data.object)
    .filter((o: any) => o.customer.customer_id === customerId);
}

describe('reporting usage', () => {
  it('adds DELTAs (negative ones too), replaces with SET, and answers with the reference fields', async () => {
    const calls = await s.meter();
    const { customerId } = await s.subscribed(calls, { value: 100 });
    const first = await s.report({ customerId, featureId: calls.identifier, value: 30, behaviour: 'DELTA' });
    expect(first.status).toBe(200);
    expect(first.body).toEqual({
      value: 30,
      customerId,
      featureId: calls.identifier,
      behaviour: 'DELTA',
      resourceId: null,
      orgId: org.organizationId,
      eventName: 'aggregated.usage',
      idempotencyKey: expect.stringMatching(/^[0-9a-f]{32}$/),
      timestamp: '2026-03-10 12:00:00.000000',
    });
    expect((await s.entry(customerId, calls.identifier)).currentUsage).toBe(30);
    await s.delta(customerId, calls.identifier, -12);
    expect(await s.entry(customerId, calls.identifier)).toMatchObject({ currentUsage: 18, remaining: 82 });
    await s.delta(customerId, calls.identifier, 7, 'SET');
    expect(await s.entry(customerId, calls.identifier)).toMatchObject({ currentUsage: 7, remaining: 93 });
    const second = await s.report({ customer_id: customerId, feature_id: calls.identifier, value: 1, behaviour: 'DELTA', resource_id: 'doc-1' });
    expect(second.body).toMatchObject({ resourceId: 'doc-1', value: 1 });
    expect(second.body.idempotencyKey).not.toBe(first.body.idempotencyKey);
    const rows = await db().selectFrom('usage_reports').select(['behaviour', 'value', 'resource_id']).where('id', '=', `${second.body.idempotencyKey.replace(/(.{8})(.{4})(.{4})(.{4})(.{12})/, '$1-$2-$3-$4-$5')}`).execute();
    expect(rows).toEqual([{ behaviour: 'DELTA', value: 1, resource_id: 'doc-1' }]);
  });

  it('refuses what is not a granted pre-aggregated meter, naming the feature', async () => {
    const calls = await s.meter();
    const other = await s.meter();
    const flag = await s.api.feature({ name: 'Flag', identifier: uniqueId('flag'), featureType: 'BOOLEAN' });
    const raw = await s.api.feature({ name: 'Raw', identifier: uniqueId('raw'), featureType: 'METER', featureDetails: rawEvents, meter: { aggregation: { function: 'COUNT' } } });
    const customerId = await s.customer();
    await s.subscribe(customerId, await s.plan([
      { feature: calls.id, details: { value: 10 } },
      { feature: flag.id, details: { value: true } },
      { feature: raw.id, details: { value: 10 } },
    ]));
    const refused = async (body: Record<string, unknown>, detail: string, code: string) => {
      const res = await s.report({ customerId, featureId: calls.identifier, value: 1, behaviour: 'DELTA', ...body });
      expect(res.status, res.text).toBe(400);
      expect(res.body).toEqual({ detail, code });
    };
    await refused({ featureId: 'nope' }, 'featureId: no feature with identifier "nope" in this environment', 'feature_not_found');
    await refused({ featureId: flag.identifier }, `featureId: "${flag.identifier}" is a BOOLEAN feature; usage is reported for METER features only`, 'feature_not_metered');
    await refused({ featureId: other.identifier }, `featureId: no subscription of customer "${customerId}" grants "${other.identifier}"`, 'feature_not_granted');
    await refused({ featureId: raw.identifier }, `featureId: "${raw.identifier}" is a RAW_EVENTS meter; its usage comes from events sent to POST /report/event/`, 'feature_not_metered');
    await refused({ customerId: 'nobody-here' }, 'customerId: no customer "nobody-here" in this environment', 'customer_not_found');
    await refused({ value: -1, behaviour: 'SET' }, 'value: a SET report takes a value of at least 0; use DELTA to subtract', 'validation_error');
    await refused({ value: 1.5 }, 'value: must be integer', 'validation_error');
    await refused({ behaviour: 'ADD' }, 'behaviour must be one of SET, DELTA', 'validation_error');
    expect((await s.report({ customerId, featureId: calls.identifier, value: 1, behaviour: 'DELTA' }, org.sandbox.clientKey)).status).toBe(403);
    const count = await db().selectFrom('usage_reports as r').innerJoin('customers as c', 'c.id', 'r.customer_id').select((eb) => eb.fn.countAll<number>().as('n')).where('c.customer_id', '=', customerId).executeTakeFirstOrThrow();
    expect(Number(count.n)).toBe(0);
  });

  it('counts past a hard limit, which turns access off', async () => {
    const calls = await s.meter();
    const { customerId } = await s.subscribed(calls, { value: 5, hardLimit: true });
    await s.delta(customerId, calls.identifier, 4);
    expect((await s.entry(customerId, calls.identifier)).hasAccess).toBe(true);
    const over = await s.report({ customerId, featureId: calls.identifier, value: 3, behaviour: 'DELTA' });
    expect(over.status).toBe(200);
    expect(await s.entry(customerId, calls.identifier)).toMatchObject({ currentUsage: 7, remaining: -2, hasAccess: false });
    await s.delta(customerId, calls.identifier, -3);
    expect(await s.entry(customerId, calls.identifier)).toMatchObject({ currentUsage: 4, hasAccess: true });
  });

  it('sums 50 concurrent DELTAs on one counter exactly', async () => {
    const calls = await s.meter();
    const { customerId, subscriptionId } = await s.subscribed(calls, { value: 100000 });
    const results = await Promise.all(
      Array.from({ length: 50 }, (_, i) => s.report({ customerId, featureId: calls.identifier, value: i + 1, behaviour: 'DELTA' })),
    );
    expect(results.map((r) => r.status)).toEqual(Array(50).fill(200));
    expect((await s.entry(customerId, calls.identifier)).currentUsage).toBe(1275);
    const counters = await db().selectFrom('usage_counters').select('value').where('subscription_id', '=', subscriptionId).execute();
    expect(counters).toEqual([{ value: 1275 }]);
  });

  it('sums concurrent DELTAs of many customers exactly, each on its own counter', async () => {
    const calls = await s.meter();
    const customers = await Promise.all(Array.from({ length: 8 }, () => s.subscribed(calls, { value: 100000 })));
    const reports = customers.flatMap(({ customerId }, c) =>
      Array.from({ length: 15 }, (_, i) => ({ customerId, featureId: calls.identifier, value: c * 100 + i, behaviour: 'DELTA' })),
    );
    const results = await Promise.all(reports.map((body) => s.report(body)));
    expect(results.map((r) => r.status)).toEqual(Array(reports.length).fill(200));
    for (const [c, { customerId }] of customers.entries()) {
      expect((await s.entry(customerId, calls.identifier)).currentUsage).toBe(15 * c * 100 + 105);
    }
    const recorded = await db().selectFrom('usage_reports').select(db().fn.countAll<number>().as('n')).where('feature_id', '=', calls.id).executeTakeFirstOrThrow();
    expect(Number(recorded.n)).toBe(reports.length);
  });

  it('writes reports that wait together, and a report that cannot be written fails alone', async () => {
    const calls = await s.meter();
    const { customerId, subscriptionId } = await s.subscribed(calls, { value: 1000 });
    const customer = await db().selectFrom('customers').select(['id', 'environment_id']).where('customer_id', '=', customerId).executeTakeFirstOrThrow();
    const writer = new ReportWriter(db(), null, { concurrency: 1 });
    const periodStart = new Date('2026-03-01T00:00:00Z');
    const report = (value: number, subscription = subscriptionId) => ({
      id: randomUUID(),
      environmentId: customer.environment_id,
      customerId,
      customerPk: customer.id,
      featureId: calls.id,
      subscriptionId: subscription,
      value,
      resourceId: null,
      clientKey: null,
      periodStart,
      periodEnd: new Date('2026-04-01T00:00:00Z'),
      rollover: 0,
      at: START,
    });
    // The first is written at once; the next three wait, and are written as one batch that fails on the unknown subscription.
    const first = writer.write(report(1));
    const waiting = [writer.write(report(2)), writer.write(report(4, randomUUID())), writer.write(report(8))];
    const settled = await Promise.allSettled([first, ...waiting]);
    expect(settled.map((r) => r.status)).toEqual(['fulfilled', 'fulfilled', 'rejected', 'fulfilled']);
    const counter = await db().selectFrom('usage_counters').select('value').where('subscription_id', '=', subscriptionId).execute();
    expect(counter).toEqual([{ value: 11 }]);
  });

  it('puts usage on the most recent granting subscription', async () => {
    const calls = await s.meter();
    const customerId = await s.customer();
    await s.subscribe(customerId, await s.plan([{ feature: calls.id, details: { value: 10 } }]));
    await s.subscribe(customerId, await s.plan([{ feature: calls.id, details: { value: 20 } }]));
    await s.delta(customerId, calls.identifier, 6);
    expect((await s.entries(customerId, calls.identifier)).map((e) => [e.usageLimit, e.currentUsage])).toEqual([
      [10, 0],
      [20, 6],
    ]);
  });

  it('moves reports to a subscription made after the first reports (where reports go is not kept past a change)', async () => {
    const calls = await s.meter();
    const customerId = await s.customer();
    const older = await s.subscribe(customerId, await s.plan([{ feature: calls.id, details: { value: 10 } }]));
    await s.delta(customerId, calls.identifier, 2);
    await s.delta(customerId, calls.identifier, 3);
    const newer = await s.subscribe(customerId, await s.plan([{ feature: calls.id, details: { value: 20 } }]));
    await s.delta(customerId, calls.identifier, 4);
    const counters = await db().selectFrom('usage_counters').select(['subscription_id', 'value']).where('feature_id', '=', calls.id).execute();
    expect(new Map(counters.map((c) => [c.subscription_id, Number(c.value)]))).toEqual(new Map([[older, 5], [newer, 4]]));
  });

  it('keeps usage through a plan change, against the new limits', async () => {
    const calls = await s.meter();
    const customerId = await s.customer(true);
    const small = await s.plan([{ feature: calls.id, details: { value: 100 } }], [paid(10)]);
    const large = await s.plan([{ feature: calls.id, details: { value: 300 } }], [paid(20)]);
    const first = await s.subscribe(customerId, small);
    await s.delta(customerId, calls.identifier, 40);
    clock.advance(DAY);
    const changed = await s.call('POST', `/subscriptions/${first}/update/`, { planIdentifier: large, chargePeriod: 'MONTHLY' });
    expect(changed.status, changed.text).toBe(200);
    expect(await s.entries(customerId, calls.identifier)).toEqual([expect.objectContaining({ usageLimit: 300, currentUsage: 40, remaining: 260 })]);
    await s.delta(customerId, calls.identifier, 10);
    expect((await s.entry(customerId, calls.identifier)).currentUsage).toBe(50);
    const successor = await db().selectFrom('usage_counters').select('value').where('subscription_id', '=', changed.body.subscriptionId).execute();
    expect(successor).toEqual([{ value: 50 }]);
  });
});

describe('client idempotency keys', () => {
  it('count a retried report once and answer it as the first time', async () => {
    const calls = await s.meter();
    const { customerId } = await s.subscribed(calls, { value: 100 });
    const body = { customerId, featureId: calls.identifier, value: 5, behaviour: 'DELTA', idempotencyKey: randomUUID() };
    const first = await s.report(body);
    clock.advance(60_000);
    const again = await s.report(body);
    expect(again.status).toBe(200);
    expect(again.body).toEqual(first.body);
    expect((await s.entry(customerId, calls.identifier)).currentUsage).toBe(5);
    const reused = await s.report({ ...body, value: 6 });
    expect(reused.status).toBe(409);
    expect(reused.body.code).toBe('idempotency_key_reused');
    await s.delta(customerId, calls.identifier, 1);
    expect((await s.entry(customerId, calls.identifier)).currentUsage).toBe(6);
  });

  it('count concurrent retries once', async () => {
    const calls = await s.meter();
    const { customerId } = await s.subscribed(calls, { value: 100 });
    const body = { customerId, featureId: calls.identifier, value: 3, behaviour: 'DELTA', idempotency_key: uniqueId('retry') };
    const results = await Promise.all(Array.from({ length: 10 }, () => s.report(body)));
    expect(results.map((r) => r.status)).toEqual(Array(10).fill(200));
    expect(new Set(results.map((r) => r.body.idempotencyKey)).size).toBe(1);
    expect((await s.entry(customerId, calls.identifier)).currentUsage).toBe(3);
  });
});

describe('reset periods', () => {
  const cases: Array<[string, string, string, string, string]> = [
    // reset, resetTime, resetAt now (2026-03-10 12:00), the instant of the next reset, resetAt after it
    ['EVERY_DAY', 'BEGINNING_OF_PERIOD', '2026-03-11 00:00:00', '2026-03-11T00:00:00Z', '2026-03-12 00:00:00'],
    ['EVERY_MONTH', 'BEGINNING_OF_PERIOD', '2026-04-01 00:00:00', '2026-04-01T00:00:00Z', '2026-05-01 00:00:00'],
    ['EVERY_QUARTER', 'BEGINNING_OF_PERIOD', '2026-04-01 00:00:00', '2026-04-01T00:00:00Z', '2026-07-01 00:00:00'],
    ['EVERY_YEAR', 'BEGINNING_OF_PERIOD', '2027-01-01 00:00:00', '2027-01-01T00:00:00Z', '2028-01-01 00:00:00'],
    ['EVERY_28_DAYS', 'BEGINNING_OF_PERIOD', '2026-04-07 12:00:00', '2026-04-07T12:00:00Z', '2026-05-05 12:00:00'],
    ['EVERY_DAY', 'SUBSCRIPTION_START', '2026-03-11 12:00:00', '2026-03-11T12:00:00Z', '2026-03-12 12:00:00'],
    ['EVERY_MONTH', 'SUBSCRIPTION_START', '2026-04-10 12:00:00', '2026-04-10T12:00:00Z', '2026-05-10 12:00:00'],
    ['EVERY_QUARTER', 'SUBSCRIPTION_START', '2026-06-10 12:00:00', '2026-06-10T12:00:00Z', '2026-09-10 12:00:00'],
    ['EVERY_YEAR', 'SUBSCRIPTION_START', '2027-03-10 12:00:00', '2027-03-10T12:00:00Z', '2028-03-10 12:00:00'],
  ];
  for (const [reset, resetTime, resetAt, next, nextResetAt] of cases) {
    it(`${reset} from the ${resetTime} starts over at ${resetAt}`, async () => {
      const calls = await s.meter();
      const { customerId } = await s.subscribed(calls, { value: 100, reset, resetTime });
      await s.delta(customerId, calls.identifier, 30);
      expect(await s.entry(customerId, calls.identifier)).toMatchObject({ resetAt, currentUsage: 30 });
      clock.set(new Date(new Date(next).getTime() - 1));
      expect(await s.entry(customerId, calls.identifier)).toMatchObject({ resetAt, currentUsage: 30 });
      clock.set(new Date(next));
      expect(await s.entry(customerId, calls.identifier)).toMatchObject({ resetAt: nextResetAt, currentUsage: 0, remaining: 100 });
      await s.delta(customerId, calls.identifier, 4);
      expect((await s.entry(customerId, calls.identifier)).currentUsage).toBe(4);
    });
  }

  it('NEVER keeps a lifetime allowance', async () => {
    const calls = await s.meter();
    const { customerId } = await s.subscribed(calls, { value: 100, reset: 'NEVER' });
    await s.delta(customerId, calls.identifier, 30);
    clock.advance(400 * DAY);
    await s.delta(customerId, calls.identifier, 5);
    expect(await s.entry(customerId, calls.identifier)).toMatchObject({ resetAt: null, currentUsage: 35, remaining: 65 });
  });

  it('follows the monthly billing period for PAY_AS_YOU_GO usage', async () => {
    const calls = await s.meter();
    const customerId = await s.customer(true);
    const plan = await s.plan(
      [{ feature: calls.id, details: { value: 0, hasUnlimitedUsage: true, reset: 'EVERY_DAY' } }],
      [
        {
          priceType: 'PAID',
          currency: 'USD',
          chargeCatalogPrice: [
            { charges: [{ chargePeriod: 'MONTHLY', priceData: { amount: 5 } }] },
            { feature: calls.id, priceModel: 'FLAT', paymentType: 'PAY_AS_YOU_GO', charges: [{ chargePeriod: 'MONTHLY', priceData: { amount: 1 } }] },
          ],
        },
      ],
    );
    await s.subscribe(customerId, plan);
    await s.delta(customerId, calls.identifier, 9);
    clock.advance(5 * DAY);
    expect(await s.entry(customerId, calls.identifier)).toMatchObject({ resetAt: '2026-04-10 12:00:00', currentUsage: 9, usageLimit: null });
    clock.set(new Date('2026-04-10T12:00:00Z'));
    expect(await s.entry(customerId, calls.identifier)).toMatchObject({ resetAt: '2026-05-10 12:00:00', currentUsage: 0 });
  });
});

describe('rollover', () => {
  it('carries min(unused × percentage, limit) into the next period, never into the first', async () => {
    const calls = await s.meter();
    const { customerId } = await s.subscribed(calls, { value: 10000, rollover: { enabled: true, percentage: 50, limit: 750 } });
    expect((await s.entry(customerId, calls.identifier)).usageLimit).toBe(10000);
    await s.delta(customerId, calls.identifier, 8000);
    clock.set(new Date('2026-04-05T00:00:00Z'));
    expect(await s.entry(customerId, calls.identifier)).toMatchObject({ usageLimit: 10750, currentUsage: 0, remaining: 10750 });
    await s.delta(customerId, calls.identifier, 10700);
    expect(await s.entry(customerId, calls.identifier)).toMatchObject({ usageLimit: 10750, remaining: 50 });
    clock.set(new Date('2026-05-01T00:00:00Z'));
    expect((await s.entry(customerId, calls.identifier)).usageLimit).toBe(10025);
  });

  it('rounds down, counts a period without usage as unused, and stays off when disabled', async () => {
    const calls = await s.meter();
    const { customerId } = await s.subscribed(calls, { value: 999, rollover: { enabled: true, percentage: 10, limit: null } });
    await s.delta(customerId, calls.identifier, 500);
    clock.set(new Date('2026-04-02T00:00:00Z'));
    expect((await s.entry(customerId, calls.identifier)).usageLimit).toBe(999 + 49);
    clock.set(new Date('2026-05-02T00:00:00Z'));
    expect((await s.entry(customerId, calls.identifier)).usageLimit).toBe(999 + 99);

    const off = await s.subscribed(calls, { value: 999, rollover: { enabled: false, percentage: 10 } });
    clock.set(new Date('2026-06-02T00:00:00Z'));
    expect((await s.entry(off.customerId, calls.identifier)).usageLimit).toBe(999);
  });
});

describe('usage alerts', () => {
  it('sends feature.usage_alert once per PERCENTAGE threshold per period', async () => {
    const calls = await s.meter();
    const { customerId, subscriptionId } = await s.subscribed(calls, {
      value: 100,
      usageAlerts: { enabled: true, thresholds: [50, 90], thresholdType: 'PERCENTAGE' },
    });
    await s.delta(customerId, calls.identifier, 49);
    expect(await alertsOf(customerId)).toEqual([]);
    await s.delta(customerId, calls.identifier, 1);
    const [first] = await alertsOf(customerId);
    expect(first).toEqual({
      id: expect.any(String),
      object: 'feature_usage_alert',
      feature: { id: calls.id, name: calls.name, identifier: calls.identifier, feature_type: 'METER' },
      customer: expect.objectContaining({ customer_id: customerId, name: 'Ada', email: `${customerId}@example.com` }),
      usage_limit: 100,
      current_usage: 50,
      threshold_type: 'PERCENTAGE',
      threshold_value: 50,
      period_start_time: '2026-03-01T00:00:00Z',
      period_end_time: '2026-04-01T00:00:00Z',
      subscription_id: subscriptionId,
      organization: org.organizationId,
      created_on: '2026-03-10T12:00:00Z',
      modified_on: '2026-03-10T12:00:00Z',
    });
    await s.delta(customerId, calls.identifier, -10);
    await s.delta(customerId, calls.identifier, 10);
    expect(await alertsOf(customerId)).toHaveLength(1);
    await s.delta(customerId, calls.identifier, 45, 'SET');
    await s.delta(customerId, calls.identifier, 95, 'SET');
    expect((await alertsOf(customerId)).map((a: any) => [a.threshold_value, a.current_usage])).toEqual([
      [50, 50],
      [90, 95],
    ]);
    clock.set(new Date('2026-04-03T00:00:00Z'));
    await s.delta(customerId, calls.identifier, 100);
    expect((await alertsOf(customerId)).map((a: any) => [a.threshold_value, a.period_start_time])).toEqual([
      [50, '2026-03-01T00:00:00Z'],
      [90, '2026-03-01T00:00:00Z'],
      [50, '2026-04-01T00:00:00Z'],
      [90, '2026-04-01T00:00:00Z'],
    ]);
  });

  it('sends BALANCE alerts on absolute usage, also for unlimited meters, and none when disabled', async () => {
    const calls = await s.meter();
    const balance = await s.subscribed(calls, { hasUnlimitedUsage: true, usageAlerts: { enabled: true, thresholds: [10], thresholdType: 'BALANCE' } });
    await s.delta(balance.customerId, calls.identifier, 9);
    expect(await alertsOf(balance.customerId)).toEqual([]);
    await s.delta(balance.customerId, calls.identifier, 1);
    expect((await alertsOf(balance.customerId)).map((a: any) => [a.threshold_type, a.usage_limit, a.current_usage])).toEqual([['BALANCE', null, 10]]);

    const disabled = await s.subscribed(calls, { value: 10, usageAlerts: { enabled: false, thresholds: [10], thresholdType: 'PERCENTAGE' } });
    await s.delta(disabled.customerId, calls.identifier, 10);
    expect(await alertsOf(disabled.customerId)).toEqual([]);
  });
});

describe('raw events', () => {
  const ts = (iso: string) => iso.replace('T', ' ').replace('Z', '');
  const rawMeter = (meter: Record<string, unknown>) =>
    s.api.feature({ name: 'Raw', identifier: uniqueId('raw'), featureType: 'METER', featureDetails: rawEvents, meter });

  it('aggregates the events of the current period: COUNT, SUM, MAX, MIN, UNIQUE_COUNT and LATEST with filters', async () => {
    const requests = await rawMeter({ aggregation: { function: 'COUNT' } });
    const tokens = await rawMeter({ aggregation: { function: 'SUM', field: 'tokens' }, filters: [{ property: 'model', value: 'large' }, { property: 'eventName', value: 'llm_call' }] });
    const peak = await rawMeter({ aggregation: { function: 'MAX', field: 'tokens' }, filters: [{ event_name: 'llm_call' }] });
    const least = await rawMeter({ aggregation: { function: 'MIN', field: 'tokens' }, filters: [{ eventName: 'llm_call' }] });
    const users = await rawMeter({ aggregation: { function: 'UNIQUE_COUNT', field: 'user_id' }, filters: [{ eventName: 'llm_call' }] });
    const latest = await rawMeter({ aggregation: { function: 'LATEST', field: 'tokens' }, filters: [{ eventName: 'llm_call' }] });
    const all = [requests, tokens, peak, least, users, latest];
    const customerId = await s.customer();
    await s.subscribe(customerId, await s.plan(all.map((f) => ({ feature: f.id, details: { value: 1000 } }))));
    const send = async (eventName: string, timestamp: string, properties: Record<string, unknown>) => {
      const res = await s.event({ customerId, eventName, idempotencyKey: randomUUID(), timestamp, properties });
      expect(res.status, res.text).toBe(200);
    };
    await send(requests.identifier, '2026-03-02 08:00:00.000001', {});
    await send('other', '2026-03-02 08:00:00', { featureId: requests.identifier });
    await send(requests.identifier, '2026-02-28 23:59:59.999999', {}); // the period before
    await send('llm_call', '2026-03-03 10:00:00', { model: 'large', tokens: 120, user_id: 'u1' });
    await send('llm_call', '2026-03-05 10:00:00', { model: 'large', tokens: 30, userId: 'u2' });
    await send('llm_call', '2026-03-04 10:00:00', { model: 'small', tokens: 500, user_id: 'u1' });
    await send('llm_call', '2026-03-06 10:00:00', { model: 'large', tokens: 'many', user_id: 'u3' });
    await send('other_call', '2026-03-06 11:00:00', { model: 'large', tokens: 1000 });
    await send('llm_call', '2026-04-01T00:00:00Z', { model: 'large', tokens: 7 }); // the period after
    const usage = async () => Promise.all(all.map(async (f) => (await s.entry(customerId, f.identifier)).currentUsage));
    expect(await usage()).toEqual([2, 150, 500, 30, 3, 30]);
    clock.set(new Date('2026-04-02T00:00:00Z'));
    expect(await usage()).toEqual([0, 7, 7, 7, 0, 7]);
  });

  it('stores an event once per idempotency key, and echoes it as the reference does', async () => {
    const requests = await rawMeter({ aggregation: { function: 'COUNT' } });
    const { customerId } = await s.subscribed(requests, { value: 10, hardLimit: true });
    const key = randomUUID();
    const body = { customerId, eventName: requests.identifier, idempotencyKey: key, timestamp: '2026-03-09 07:53:55.747959', properties: { page: 'home' } };
    const first = await s.event(body);
    expect(first.status).toBe(200);
    expect(first.body).toEqual({
      customerId,
      eventName: requests.identifier,
      idempotencyKey: key.replace(/-/g, ''),
      timestamp: '2026-03-09 07:53:55.747959',
      properties: { page: 'home' },
      resourceId: null,
      orgId: org.organizationId,
    });
    const again = await s.event({ ...body, properties: { page: 'other' } });
    expect(again.status).toBe(200);
    expect(again.body).toEqual(first.body);
    expect(await s.entry(customerId, requests.identifier)).toMatchObject({ currentUsage: 1, remaining: 9 });
  });

  it('refuses bad timestamps and unknown customers', async () => {
    const customerId = await s.customer();
    for (const timestamp of ['yesterday', '2026-02-30 10:00:00', '2026-03-01 25:00:00']) {
      const res = await s.event({ customerId, eventName: 'x', idempotencyKey: randomUUID(), timestamp });
      expect(res.status, timestamp).toBe(400);
      expect(res.body.detail).toBe(`timestamp: "${timestamp}" is not a date-time; send yyyy-MM-dd HH:mm:ss.ffffff (UTC)`);
    }
    const unknown = await s.event({ customerId: 'nobody-here', eventName: 'x', idempotencyKey: randomUUID(), timestamp: '2026-03-01 10:00:00' });
    expect(unknown.status).toBe(400);
    expect(unknown.body.code).toBe('customer_not_found');
    const missing = await s.event({ customerId, eventName: 'x', timestamp: '2026-03-01 10:00:00' });
    expect(missing.status).toBe(400);
    expect(missing.body.detail).toBe('idempotencyKey is required');
  });

  it('alerts when events cross a threshold, once', async () => {
    const requests = await rawMeter({ aggregation: { function: 'COUNT' } });
    const { customerId } = await s.subscribed(requests, { value: 4, usageAlerts: { enabled: true, thresholds: [3], thresholdType: 'BALANCE' } });
    const send = (at: string) => s.event({ customerId, eventName: requests.identifier, idempotencyKey: randomUUID(), timestamp: at });
    await send(ts('2026-03-10T01:00:00Z'));
    await send(ts('2026-02-10T01:00:00Z'));
    await send(ts('2026-03-10T02:00:00Z'));
    expect(await alertsOf(customerId)).toEqual([]);
    await send(ts('2026-03-10T03:00:00Z'));
    await send(ts('2026-03-10T04:00:00Z'));
    expect((await alertsOf(customerId)).map((a: any) => [a.threshold_value, a.current_usage])).toEqual([[3, 3]]);
  });
});

describe('the official client', () => {
  it('reportUsage and reportEvent', async () => {
    const calls = await s.meter();
    const raw = await s.api.feature({
      name: 'Tokens',
      identifier: uniqueId('tokens'),
      featureType: 'METER',
      featureDetails: rawEvents,
      meter: { aggregation: { function: 'SUM', field: 'tokenCount' } },
    });
    const customerId = await s.customer();
    await s.subscribe(customerId, await s.plan([{ feature: calls.id, details: { value: 10, hardLimit: true } }, { feature: raw.id, details: { value: 100 } }]));
    const kelviq = client();
    const usage = await kelviq.reporting.reportUsage({ customerId, featureId: calls.identifier, value: 10, behaviour: 'DELTA' });
    expect(usage).toMatchObject({ value: 10, customerId, featureId: calls.identifier, behaviour: 'DELTA', eventName: 'aggregated.usage', orgId: org.organizationId });
    expect(usage.idempotencyKey).toMatch(/^[0-9a-f]{32}$/);
    expect(await kelviq.entitlements.hasAccess({ customerId, featureId: calls.identifier })).toBe(false);
    await kelviq.reporting.reportUsage({ customerId, featureId: calls.identifier, value: 4, behaviour: 'SET' });
    expect(await kelviq.entitlements.getEntitlement({ customerId, featureId: calls.identifier })).toMatchObject({ currentUsage: 4, remaining: 6, hasAccess: true });
    await expect(kelviq.reporting.reportUsage({ customerId, featureId: 'nope', value: 1, behaviour: 'DELTA' })).rejects.toBeInstanceOf(InvalidRequestError);

    const idempotencyKey = randomUUID();
    const sent = await kelviq.reporting.reportEvent({
      customerId,
      eventName: raw.identifier,
      idempotencyKey,
      timestamp: '2026-03-10 11:59:59.123456',
      properties: { tokenCount: 42 },
    });
    expect(sent).toMatchObject({ customerId, eventName: raw.identifier, idempotencyKey: idempotencyKey.replace(/-/g, ''), timestamp: '2026-03-10 11:59:59.123456' });
    await kelviq.reporting.reportEvent({ customerId, eventName: raw.identifier, idempotencyKey, timestamp: '2026-03-10 11:59:59.123456', properties: { tokenCount: 42 } });
    expect(await kelviq.entitlements.getEntitlement({ customerId, featureId: raw.identifier })).toMatchObject({ currentUsage: 42, remaining: 58 });
  });
});
