import { NotFoundError } from '@kelviq/node-sdk';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../src/lib/clock.js';
import { sandboxSeller } from './edge-support.js';
import { startTestServer, uniqueId, type TestOrg, type TestServer } from './harness.js';
import { officialClient } from './official-client-support.js';

// GET /entitlements through HTTP and through the official client (DOMAIN.md §2.3, §3.3).

const START = new Date('2026-03-10T12:00:00Z');
const DAY = 86_400_000;
const clock = new ManualClock(START);
let server: TestServer;
let org: TestOrg;
let s: Awaited<ReturnType<typeof seller>>;

const paid = (amount: number, extra: Record<string, unknown> = {}) => ({
  priceType: 'PAID',
  currency: 'USD',
  ...extra,
  chargeCatalogPrice: [{ charges: [{ chargePeriod: 'MONTHLY', priceData: { amount } }] }],
});
const meter = { featureSubType: 'PRE_AGGREGATED_USAGE', units: { singular: 'call', plural: 'calls' } };

/** A sandbox with a product and three features (BOOLEAN, CUSTOMIZABLE, METER), and short calls. */
async function seller(key: string) {
  const { api, product, call, expectOk, plan, customer, subscribe } = await sandboxSeller(server, key);
  const sso = await api.feature({ name: 'SSO', identifier: uniqueId('sso'), featureType: 'BOOLEAN' });
  const projects = await api.feature({ name: 'Projects', identifier: uniqueId('projects'), featureType: 'CUSTOMIZABLE' });
  const calls = await api.feature({ name: 'API calls', identifier: uniqueId('calls'), featureType: 'METER', featureDetails: meter });
  const check = (customerId: string, featureId?: string, asKey = key) =>
    call('GET', `/entitlements?customer_id=${encodeURIComponent(customerId)}${featureId ? `&feature_id=${featureId}` : ''}`, undefined, asKey);
  const report = (customerId: string, featureId: string, value: number, behaviour = 'DELTA') =>
    call('POST', '/report/usage/', { customerId, featureId, value, behaviour }).then((res) => {
      expectOk(res, 200);
      return res.body;
    });
  return { api, call, product, sso, projects, calls, plan, customer, subscribe, check, report };
}

beforeAll(async () => {
  server = await startTestServer({ clock });
  org = await server.createOrg();
  s = await seller(org.sandbox.serverKey);
});
afterAll(() => server.close());
beforeEach(() => clock.set(START));

const db = () => server.database.db;
const setStatus = (id: string, status: 'past_due' | 'trialing' | 'active') =>
  db().updateTable('subscriptions').set({ status }).where('id', '=', id).execute();

describe('the answer', () => {
  it('gives BOOLEAN, CUSTOMIZABLE and METER entries their fields', async () => {
    const plan = await s.plan([
      { feature: s.sso.id, details: { value: true } },
      { feature: s.projects.id, details: { value: 25 } },
      { feature: s.calls.id, details: { value: 1000, reset: 'EVERY_MONTH', resetTime: 'BEGINNING_OF_PERIOD' } },
    ]);
    const customerId = await s.customer();
    await s.subscribe(customerId, plan);
    const res = await s.check(customerId);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      customerId,
      entitlements: [
        { featureId: s.sso.identifier, featureType: 'BOOLEAN', hasAccess: true, resetAt: null, hardLimit: false, usageLimit: null, currentUsage: null, remaining: null },
        { featureId: s.projects.identifier, featureType: 'CUSTOMIZABLE', hasAccess: true, resetAt: null, hardLimit: false, usageLimit: 25, currentUsage: null, remaining: null },
        { featureId: s.calls.identifier, featureType: 'METER', hasAccess: true, resetAt: '2026-04-01 00:00:00', hardLimit: false, usageLimit: 1000, currentUsage: 0, remaining: 1000 },
      ],
    });
  });

  it('grants a BOOLEAN false as no access, and an unlimited meter without limit', async () => {
    const plan = await s.plan([
      { feature: s.sso.id, details: { value: false } },
      { feature: s.calls.id, details: { hasUnlimitedUsage: true, hardLimit: true } },
      { feature: s.projects.id, details: { hasUnlimitedUsage: true } },
    ]);
    const customerId = await s.customer();
    await s.subscribe(customerId, plan);
    await s.report(customerId, s.calls.identifier, 5000);
    const entries = (await s.check(customerId)).body.entitlements;
    expect(entries[0]).toMatchObject({ featureType: 'BOOLEAN', hasAccess: false });
    expect(entries[1]).toMatchObject({ featureType: 'METER', hasAccess: true, usageLimit: null, currentUsage: 5000, remaining: null, hardLimit: true });
    expect(entries[2]).toMatchObject({ featureType: 'CUSTOMIZABLE', usageLimit: null });
  });

  it('answers with one entry per granting subscription and feature, oldest subscription first', async () => {
    const base = await s.plan([{ feature: s.calls.id, details: { value: 100 } }, { feature: s.sso.id, details: { value: true } }]);
    const topUp = await s.plan([{ feature: s.calls.id, details: { value: 50, reset: 'NEVER' } }]);
    const customerId = await s.customer();
    await s.subscribe(customerId, base);
    await s.subscribe(customerId, topUp);
    const entries = (await s.check(customerId)).body.entitlements;
    expect(entries.map((e: any) => [e.featureId, e.usageLimit, e.resetAt])).toEqual([
      [s.calls.identifier, 100, '2026-04-01 00:00:00'],
      [s.sso.identifier, null, null],
      [s.calls.identifier, 50, null],
    ]);
    const filtered = await s.check(customerId, s.calls.identifier);
    expect(filtered.body.entitlements.map((e: any) => e.usageLimit)).toEqual([100, 50]);
  });

  it('adds purchased quantities to the meter limit', async () => {
    const plan = await s.plan(
      [{ feature: s.calls.id, details: { value: 10 } }],
      [
        {
          priceType: 'PAID',
          currency: 'USD',
          chargeCatalogPrice: [
            { charges: [{ chargePeriod: 'MONTHLY', priceData: { amount: 5 } }] },
            { feature: s.calls.id, priceModel: 'FLAT', charges: [{ chargePeriod: 'MONTHLY', priceData: { amount: 1 } }] },
          ],
        },
      ],
    );
    const customerId = await s.customer(true);
    await s.subscribe(customerId, plan, { features: [{ identifier: s.calls.identifier, quantity: 7 }] });
    expect((await s.check(customerId, s.calls.identifier)).body.entitlements[0]).toMatchObject({ usageLimit: 17, remaining: 17 });
  });

  it('turns hasAccess off at a hard limit only', async () => {
    const hard = await s.plan([{ feature: s.calls.id, details: { value: 3, hardLimit: true } }]);
    const soft = await s.plan([{ feature: s.calls.id, details: { value: 3 } }]);
    const [a, b] = [await s.customer(), await s.customer()];
    await s.subscribe(a, hard);
    await s.subscribe(b, soft);
    await s.report(a, s.calls.identifier, 2);
    expect((await s.check(a)).body.entitlements[0]).toMatchObject({ hasAccess: true, remaining: 1, hardLimit: true });
    await s.report(a, s.calls.identifier, 1);
    expect((await s.check(a)).body.entitlements[0]).toMatchObject({ hasAccess: false, remaining: 0, currentUsage: 3 });
    await s.report(b, s.calls.identifier, 5);
    expect((await s.check(b)).body.entitlements[0]).toMatchObject({ hasAccess: true, remaining: -2, hardLimit: false });
  });
});

describe('which subscriptions grant', () => {
  let plan: string;
  beforeAll(async () => {
    plan = await s.plan([{ feature: s.sso.id, details: { value: true } }], [paid(10, { freeTrial: true, trialPeriod: 14 })]);
  });
  const granted = async (customerId: string) => (await s.check(customerId)).body.entitlements.length;

  it('active, trialing and past_due grant', async () => {
    const customerId = await s.customer(true);
    const id = await s.subscribe(customerId, plan);
    expect((await s.call('GET', `/subscriptions/${id}/`)).body.status).toBe('trialing');
    expect(await granted(customerId)).toBe(1);
    await setStatus(id, 'active');
    expect(await granted(customerId)).toBe(1);
    await setStatus(id, 'past_due');
    expect(await granted(customerId)).toBe(1);
  });

  it('a cancellation keeps access until its end date, an immediate one ends it at once', async () => {
    const later = await s.customer(true);
    const laterId = await s.subscribe(later, plan);
    await setStatus(laterId, 'active');
    expect((await s.call('POST', `/subscriptions/${laterId}/cancel/`, { cancellationType: 'CURRENT_PERIOD_ENDS' })).status).toBe(200);
    expect(await granted(later)).toBe(1);
    await db().updateTable('subscriptions').set({ status: 'canceled' }).where('id', '=', laterId).execute();
    expect(await granted(later)).toBe(1);
    clock.advance(14 * DAY);
    expect(await granted(later)).toBe(0);

    const now = await s.customer(true);
    const nowId = await s.subscribe(now, plan);
    expect((await s.call('POST', `/subscriptions/${nowId}/cancel/`, { cancellationType: 'IMMEDIATE' })).status).toBe(200);
    expect(await granted(now)).toBe(0);
  });

  it('an active subscription past its end date no longer grants', async () => {
    const customerId = await s.customer(true);
    const id = await s.subscribe(customerId, plan);
    await s.call('POST', `/subscriptions/${id}/cancel/`, { cancellationType: 'SPECIFIC_DATE', cancellationDate: '2026-03-12' });
    expect(await granted(customerId)).toBe(1);
    clock.set(new Date('2026-03-12T00:00:00Z'));
    expect(await granted(customerId)).toBe(0);
  });

  it('superseded, incomplete and incomplete_expired records grant nothing', async () => {
    const sso = await s.plan([{ feature: s.sso.id, details: { value: true } }], [paid(10)]);
    const both = await s.plan([{ feature: s.sso.id, details: { value: true } }, { feature: s.projects.id, details: { value: 3 } }], [paid(20)]);
    const customerId = await s.customer(true);
    const first = await s.subscribe(customerId, sso);
    const changed = await s.call('POST', `/subscriptions/${first}/update/`, { planIdentifier: both, chargePeriod: 'MONTHLY' });
    expect(changed.status).toBe(200);
    expect((await s.call('GET', `/subscriptions/${first}/`)).body.status).toBe('superseded');
    expect((await s.check(customerId)).body.entitlements.map((e: any) => e.featureId)).toEqual([s.sso.identifier, s.projects.identifier]);

    for (const status of ['incomplete', 'incomplete_expired'] as const) {
      await db().updateTable('subscriptions').set({ status }).where('id', '=', changed.body.subscriptionId).execute();
      // Written behind Billow's back, so nothing announced it: drop what this process cached.
      server.app.billow.entitlementCache.clear();
      expect(await granted(customerId)).toBe(0);
    }
  });
});

describe('one-time purchases', () => {
  const oneTime = (amount: number) => ({
    priceType: 'PAID',
    currency: 'USD',
    chargeCatalogPrice: [{ charges: [{ chargePeriod: 'ONE_TIME', priceData: { amount } }] }],
  });
  const granted = async (customerId: string) => (await s.check(customerId)).body.entitlements.length;

  it('a one-time charge grants its plan for good, at once, and is listed with billingType ONE_TIME', async () => {
    const lifetime = await s.plan([{ feature: s.sso.id, details: { value: true } }, { feature: s.calls.id, details: { value: 500, reset: 'NEVER' } }], [oneTime(99)]);
    const customerId = await s.customer(true);
    expect((await s.check(customerId)).body.entitlements).toEqual([]);
    const charge = await s.call('POST', '/charges/', { planIdentifier: lifetime, chargePeriod: 'ONE_TIME', customerId });
    expect(charge.status, charge.text).toBe(201);
    // The answer cached before the purchase was dropped by it.
    expect((await s.check(customerId)).body.entitlements.map((e: any) => [e.featureId, e.hasAccess, e.usageLimit])).toEqual([
      [s.sso.identifier, true, null],
      [s.calls.identifier, true, 500],
    ]);
    await s.report(customerId, s.calls.identifier, 20);
    clock.set(new Date('2031-01-01T00:00:00Z'));
    expect((await s.check(customerId, s.calls.identifier)).body.entitlements).toEqual([
      expect.objectContaining({ hasAccess: true, usageLimit: 500, currentUsage: 20, remaining: 480, resetAt: null }),
    ]);
    const listed = await s.call('GET', `/subscriptions/?customer_id=${customerId}`);
    expect(listed.body.results).toEqual([
      expect.objectContaining({ id: charge.body.id, billingType: 'ONE_TIME', status: 'active', endDate: null }),
    ]);
  });

  it('a one-time purchase does not change plan; cancelling it ends its access', async () => {
    const lifetime = await s.plan([{ feature: s.sso.id, details: { value: true } }], [oneTime(49)]);
    const customerId = await s.customer(true);
    const charge = await s.call('POST', '/charges/', { planIdentifier: lifetime, chargePeriod: 'ONE_TIME', customerId });
    const monthly = await s.plan([{ feature: s.sso.id, details: { value: true } }], [paid(10)]);
    const update = await s.call('POST', `/subscriptions/${charge.body.id}/update/`, { planIdentifier: monthly, chargePeriod: 'MONTHLY' });
    expect(update.status).toBe(400);
    expect(update.body).toMatchObject({ code: 'not_updatable', detail: expect.stringMatching(/one-time purchase/) });
    expect(await granted(customerId)).toBe(1);
    const cancelled = await s.call('POST', `/subscriptions/${charge.body.id}/cancel/`, { cancellationType: 'IMMEDIATE' });
    expect(cancelled.status, cancelled.text).toBe(200);
    expect(await granted(customerId)).toBe(0);
  });
});

describe('plan versions', () => {
  it('moves subscribers to entitlements published with updateFeatures, and only those', async () => {
    const plan = await s.plan([{ feature: s.calls.id, details: { value: 100 } }]);
    const customerId = await s.customer();
    await s.subscribe(customerId, plan);
    const limit = async () => (await s.check(customerId, s.calls.identifier)).body.entitlements[0].usageLimit;

    const edit = (value: number) => s.call('PATCH', `/catalog/plans/${plan}/features/${s.calls.identifier}/`, { details: { value } });
    expect((await edit(200)).status).toBe(200);
    expect(await limit()).toBe(100); // a draft grants nothing
    expect((await s.call('POST', `/catalog/plans/${plan}/publish/`, {})).status).toBe(200);
    expect(await limit()).toBe(100); // grandfathered
    expect((await edit(300)).status).toBe(200);
    expect((await s.call('POST', `/catalog/plans/${plan}/publish/`, { updateFeatures: true })).status).toBe(200);
    expect(await limit()).toBe(300);
    expect((await edit(400)).status).toBe(200);
    expect((await s.call('POST', `/catalog/plans/${plan}/publish/`, { updateFeatures: false })).status).toBe(200);
    expect(await limit()).toBe(300); // the newest version published with updateFeatures

    const newcomer = await s.customer();
    await s.subscribe(newcomer, plan);
    expect((await s.check(newcomer, s.calls.identifier)).body.entitlements[0].usageLimit).toBe(400);
  });
});

describe('the request', () => {
  let customerId: string;
  beforeAll(async () => {
    customerId = await s.customer();
    await s.subscribe(customerId, await s.plan([{ feature: s.sso.id, details: { value: true } }]));
  });

  it('answers 404 with a detail for an unknown customer, and an empty list for a feature the customer lacks', async () => {
    const missing = await s.check('nobody-at-all');
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ detail: 'No customer with customerId "nobody-at-all"', code: 'customer_not_found' });
    expect((await s.check(customerId, s.calls.identifier)).body).toEqual({ customerId, entitlements: [] });
    expect((await s.check(customerId, 'no-such-feature')).body).toEqual({ customerId, entitlements: [] });
  });

  it('answers an empty list for a customer without subscriptions, and for an archived customer', async () => {
    const bare = await s.customer();
    expect((await s.check(bare)).body).toEqual({ customerId: bare, entitlements: [] });
    const gone = await s.customer();
    await s.subscribe(gone, await s.plan([{ feature: s.sso.id, details: { value: true } }]));
    expect((await s.check(gone)).body.entitlements).toHaveLength(1);
    // A customer with a live subscription is archived only with cancel_subscriptions (DOMAIN.md §2.1).
    expect((await server.request('DELETE', `/sandbox/api/v1/customers/${gone}/`, { key: org.sandbox.serverKey })).status).toBe(400);
    expect((await s.check(gone)).body.entitlements).toHaveLength(1);
    const archived = await server.request('DELETE', `/sandbox/api/v1/customers/${gone}/?cancel_subscriptions=true`, { key: org.sandbox.serverKey });
    expect(archived.status).toBe(204);
    expect((await s.check(gone)).body.entitlements).toEqual([]);
  });

  it('accepts camelCase names, both paths, and server and client keys', async () => {
    const expected = { customerId, entitlements: [expect.objectContaining({ featureId: s.sso.identifier })] };
    const paths = [
      `/entitlements?customer_id=${customerId}`,
      `/entitlements/?customer_id=${customerId}`,
      `/entitlements?customerId=${customerId}&featureId=${s.sso.identifier}`,
    ];
    for (const path of paths) {
      for (const key of [org.sandbox.serverKey, org.sandbox.clientKey]) {
        const res = await s.call('GET', path, undefined, key);
        expect(res.status, path).toBe(200);
        expect(res.body).toEqual(expected);
      }
    }
  });

  it('requires customer_id, and keeps environments apart', async () => {
    const res = await s.call('GET', '/entitlements');
    expect(res.status).toBe(400);
    expect(res.body.detail).toBe('query parameter customer_id is required');
    const production = await server.request('GET', `/api/v1/entitlements?customer_id=${customerId}`, { key: org.production.serverKey });
    expect(production.status).toBe(404);
  });
});

describe('the official client', () => {
  const client = (key = org.sandbox.serverKey) => officialClient(server, key);

  it('hasAccess, getEntitlement, getEntitlements and the raw calls give correct answers', async () => {
    const base = await s.plan([
      { feature: s.calls.id, details: { value: 10, hardLimit: true } },
      { feature: s.sso.id, details: { value: true } },
      { feature: s.projects.id, details: { value: 4 } },
    ]);
    const topUp = await s.plan([{ feature: s.calls.id, details: { value: 5, hardLimit: true, reset: 'NEVER' } }]);
    const customerId = await s.customer();
    await s.subscribe(customerId, base);
    await s.subscribe(customerId, topUp);
    const kelviq = client(org.sandbox.clientKey);
    const params = { customerId, featureId: s.calls.identifier };

    expect(await kelviq.entitlements.hasAccess(params)).toBe(true);
    expect(await kelviq.entitlements.hasAccess({ customerId, featureId: s.sso.identifier })).toBe(true);
    expect(await kelviq.entitlements.hasAccess({ customerId, featureId: 'not-granted' })).toBe(false);
    const meter = await kelviq.entitlements.getEntitlement(params);
    expect(meter).toMatchObject({ featureId: s.calls.identifier, featureType: 'METER', usageLimit: 15, currentUsage: 0, remaining: 15, hardLimit: true, hasAccess: true });
    expect(meter!.items).toHaveLength(2);

    // Usage goes to the most recent granting subscription (the top-up); the client sums the entries.
    await client().reporting.reportUsage({ customerId, featureId: s.calls.identifier, value: 15, behaviour: 'DELTA' });
    expect(await kelviq.entitlements.hasAccess(params)).toBe(false);
    const all = await kelviq.entitlements.getEntitlements({ customerId });
    expect(Object.keys(all).sort()).toEqual([s.calls.identifier, s.projects.identifier, s.sso.identifier].sort());
    expect(all[s.calls.identifier]).toMatchObject({ usageLimit: 15, currentUsage: 15, remaining: 0, hasAccess: false });
    expect(all[s.projects.identifier]).toMatchObject({ featureType: 'CUSTOMIZABLE', usageLimit: 4, hasAccess: true });
    expect(all[s.sso.identifier]).toMatchObject({ featureType: 'BOOLEAN', hasAccess: true });

    const raw = await kelviq.entitlements.getRawEntitlement(params);
    expect(raw.customerId).toBe(customerId);
    expect(raw.entitlements.map((e) => [e.usageLimit, e.currentUsage, e.remaining])).toEqual([
      [10, 0, 10],
      [5, 15, -10],
    ]);
    const rawAll = await kelviq.entitlements.getRawEntitlements({ customerId });
    expect(rawAll.entitlements).toHaveLength(4);

    await expect(kelviq.entitlements.getEntitlements({ customerId: 'nobody-at-all' })).rejects.toBeInstanceOf(NotFoundError);
  });
});
