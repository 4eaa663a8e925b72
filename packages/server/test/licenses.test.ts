import { AuthenticationError, InvalidRequestError, NotFoundError, type Kelviq } from '@kelviq/node-sdk';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../src/lib/clock.js';
import { shop } from './commerce-support.js';
import { startTestServer, uniqueId, type TestOrg, type TestServer } from './harness.js';
import { failureOf, officialClient } from './official-client-support.js';

// License keys (DOMAIN.md §2.5, §3.5): activation, deactivation and validation over HTTP,
// and through the unmodified official client.

const START = new Date('2026-01-01T00:00:00Z');
const DAY = 86_400_000;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const clock = new ManualClock(START);

let server: TestServer;
let org: TestOrg;
let s: Awaited<ReturnType<typeof shop>>;
/** Plans beyond shop()'s: their license configuration is what the tests are about. */
let plans: { unlimited: string; tenSeats: string; thirtyDays: string; monthly: string; monthlyPro: string };

const oneTime = (amount: number) => ({
  priceType: 'PAID',
  currency: 'USD',
  chargeCatalogPrice: [{ charges: [{ chargePeriod: 'ONE_TIME', priceData: { amount } }] }],
});
const monthly = (amount: number) => ({
  priceType: 'PAID',
  currency: 'USD',
  chargeCatalogPrice: [{ charges: [{ chargePeriod: 'MONTHLY', priceData: { amount } }] }],
});

async function publish(name: string, price: unknown, license: Record<string, unknown>): Promise<string> {
  const plan = await s.api.plan(s.product.id, { name: uniqueId(name), description: `${name} plan`, license });
  await s.api.prices(plan.identifier, [price]);
  await s.api.publish(plan.identifier);
  return plan.identifier as string;
}

beforeAll(async () => {
  server = await startTestServer({ clock });
  org = await server.createOrg();
  s = await shop(server, org.sandbox.serverKey);
  plans = {
    unlimited: await publish('Unlimited', oneTime(99), { enabled: true, activationLimitEnabled: false }),
    tenSeats: await publish('Ten', oneTime(199), { enabled: true, activationLimit: 10, activationLimitEnabled: true }),
    thirtyDays: await publish('Month pass', oneTime(9), {
      enabled: true,
      activationLimit: 2,
      activationLimitEnabled: true,
      hasExpiry: true,
      durationUnit: 'DAY',
      durationValue: 30,
    }),
    monthly: await publish('Monthly', monthly(10), { enabled: true, activationLimit: 2, activationLimitEnabled: true }),
    monthlyPro: await publish('Monthly Pro', monthly(20), { enabled: true, activationLimit: 5, activationLimitEnabled: true }),
  };
});
afterAll(() => server.close());
beforeEach(() => clock.set(START));

interface Bought {
  customerId: string;
  licenseKey: string;
  orderId: string;
}

/** A customer buys a one-time plan (the `lifetime` plan: 3 activations) and gets its key from the order. */
async function buy(planIdentifier: string = s.plans.lifetime, shopOf = s, withCard = shopOf === s): Promise<Bought> {
  const customerId = await shopOf.customer();
  if (withCard) await shopOf.card(customerId);
  const charge = await shopOf.call('POST', '/charges/', { planIdentifier, chargePeriod: 'ONE_TIME', customerId });
  if (charge.status !== 201) throw new Error(`charge: ${charge.status} ${charge.text}`);
  const order = await shopOf.call('GET', `/orders/${charge.body.orderId}/`);
  if (order.status !== 200 || order.body.license.length !== 1) throw new Error(`order: ${order.status} ${order.text}`);
  return { customerId, licenseKey: order.body.license[0].licenseKey, orderId: charge.body.orderId };
}

const license = (action: 'activate' | 'deactivate' | 'validate', body: unknown, key: string | null = org.sandbox.serverKey, prefix = '/sandbox') =>
  server.request('POST', `${prefix}/api/v1/license/${action}/`, { key, body });
const activate = (body: Record<string, unknown>, key?: string | null, prefix?: string) => license('activate', body, key, prefix);
const deactivate = (body: Record<string, unknown>, key?: string | null, prefix?: string) => license('deactivate', body, key, prefix);
const validate = (body: Record<string, unknown>, key?: string | null, prefix?: string) => license('validate', body, key, prefix);

async function activeInstances(licenseKey: string): Promise<number> {
  const row = await server.database.db
    .selectFrom('license_instances as i')
    .innerJoin('licenses as l', 'l.id', 'i.license_id')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('l.license_key', '=', licenseKey)
    .where('i.deactivated_at', 'is', null)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

describe('POST /license/activate/', () => {
  it('creates an instance and answers 201 with the reference shape', async () => {
    const { customerId, licenseKey } = await buy();
    const metadata = { os: 'macOS', app_version: '14.2', nested: { someKey: 1 } };
    const res = await activate({ license_key: licenseKey, customer_id: customerId, instance_name: "Geo's MacBook", metadata });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      instanceId: expect.stringMatching(UUID),
      activatedAt: START.toISOString(),
      expiresOn: null,
      license: {
        id: expect.stringMatching(UUID),
        licenseKey,
        activatedOn: START.toISOString(),
        expiresOn: null,
        activationUsage: 1,
        activationLimit: 3,
        enabled: true,
        customer: { customerId, name: 'Buyer', email: `${customerId}@example.com` },
        plan: {
          identifier: s.plans.lifetime,
          name: expect.stringMatching(/^Lifetime-/),
          description: expect.any(String),
          version: 1,
          isLatest: true,
          product: {
            id: s.product.id,
            identifier: s.product.identifier,
            name: s.product.name,
            taxCode: 'saas',
            createdOn: expect.any(String),
            modifiedOn: expect.any(String),
          },
        },
        subscription: null,
      },
    });
    const instance = await server.database.db
      .selectFrom('license_instances')
      .selectAll()
      .where('id', '=', res.body.instanceId)
      .executeTakeFirstOrThrow();
    expect(instance).toMatchObject({ name: "Geo's MacBook", metadata, deactivated_at: null });

    // A second activation counts both; the first activation stays the key's activatedOn.
    clock.advance(DAY);
    const second = await activate({ licenseKey });
    expect(second.status).toBe(201);
    expect(second.body.activatedAt).toBe(new Date(START.getTime() + DAY).toISOString());
    expect(second.body.license).toMatchObject({ activatedOn: START.toISOString(), activationUsage: 2 });
  });

  it('refuses past the activation limit with 403 "Activation limit reached (3/3).", and frees a seat on deactivation', async () => {
    const { licenseKey } = await buy();
    const ids: string[] = [];
    for (let i = 0; i < 3; i += 1) {
      const res = await activate({ licenseKey, instanceName: `machine ${i}` });
      expect(res.status).toBe(201);
      ids.push(res.body.instanceId);
    }
    const refused = await activate({ licenseKey, instanceName: 'one too many' });
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual({
      error: 'Activation limit reached (3/3).',
      detail: 'Activation limit reached (3/3).',
      code: 'activation_limit_reached',
    });
    expect(await activeInstances(licenseKey)).toBe(3);

    expect((await deactivate({ licenseKey, instanceId: ids[0] })).status).toBe(200);
    const again = await activate({ licenseKey });
    expect(again.status).toBe(201);
    expect(again.body.license.activationUsage).toBe(3);
  });

  it('allows any number of activations when the plan does not limit them', async () => {
    const { licenseKey } = await buy(plans.unlimited);
    for (let i = 1; i <= 12; i += 1) {
      const res = await activate({ licenseKey });
      expect(res.status).toBe(201);
      expect(res.body.license).toMatchObject({ activationUsage: i, activationLimit: null });
    }
  });

  it('refuses an unknown key, and a customerId that does not own the key, with 404 {error}', async () => {
    const { customerId, licenseKey } = await buy();
    const other = await buy();
    const notFound = { error: 'Invalid license key or customer ID.', detail: 'Invalid license key or customer ID.', code: 'license_not_found' };

    const unknown = await activate({ licenseKey: 'LIC-00000000-0000-0000-0000-000000000000' });
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual(notFound);

    for (const wrong of [other.customerId, 'nobody-at-all']) {
      const res = await activate({ licenseKey, customerId: wrong });
      expect(res.status).toBe(404);
      expect(res.body).toEqual(notFound);
    }
    expect(await activeInstances(licenseKey)).toBe(0);
    expect((await activate({ licenseKey, customerId })).status).toBe(201);
  });

  it('counts expiry from the purchase: an expired key cannot activate (403) and validates as EXPIRED', async () => {
    const { licenseKey } = await buy(plans.thirtyDays);
    const expiresOn = new Date(START.getTime() + 30 * DAY).toISOString();

    clock.advance(29 * DAY);
    const early = await activate({ licenseKey });
    expect(early.status).toBe(201);
    expect(early.body.expiresOn).toBe(expiresOn);
    expect(early.body.license.expiresOn).toBe(expiresOn);

    clock.set(new Date(START.getTime() + 30 * DAY));
    const late = await activate({ licenseKey });
    expect(late.status).toBe(403);
    expect(late.body).toEqual({ error: 'This license has expired.', detail: 'This license has expired.', code: 'license_expired' });
    expect(await activeInstances(licenseKey)).toBe(1);

    const checked = await validate({ licenseKey, instanceId: early.body.instanceId });
    expect(checked.status).toBe(200);
    expect(checked.body).toMatchObject({ valid: false, code: 'EXPIRED', detail: 'This license has expired.', license: { expiresOn } });

    // Freeing the machine still works.
    expect((await deactivate({ licenseKey, instanceId: early.body.instanceId })).status).toBe(200);
  });

  it('refuses a disabled key with 403, and validates it as INVALID', async () => {
    const { licenseKey } = await buy();
    const first = await activate({ licenseKey });
    expect(first.status).toBe(201);
    await server.database.db.updateTable('licenses').set({ enabled: false }).where('license_key', '=', licenseKey).execute();

    const res = await activate({ licenseKey });
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ error: 'This license has been disabled.', detail: 'This license has been disabled.', code: 'license_disabled' });
    const checked = await validate({ licenseKey, instanceId: first.body.instanceId });
    expect(checked.status).toBe(200);
    expect(checked.body).toMatchObject({ valid: false, code: 'INVALID', license: { enabled: false, activationUsage: 1 } });
  });

  it('answers an Idempotency-Key retry with the first activation instead of taking a second seat', async () => {
    const { licenseKey } = await buy();
    const headers = { 'idempotency-key': uniqueId('activation') };
    const first = await server.request('POST', '/sandbox/api/v1/license/activate/', { key: org.sandbox.serverKey, body: { licenseKey }, headers });
    const retry = await server.request('POST', '/sandbox/api/v1/license/activate/', { key: org.sandbox.serverKey, body: { licenseKey }, headers });
    expect(first.status).toBe(201);
    expect(retry.status).toBe(201);
    expect(retry.body.instanceId).toBe(first.body.instanceId);
    expect(await activeInstances(licenseKey)).toBe(1);
  });

  it('gives exactly 10 instances to 20 concurrent activations of a key whose limit is 10', async () => {
    const { licenseKey } = await buy(plans.tenSeats);
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) => activate({ licenseKey, instanceName: `racer ${i}` })),
    );
    const statuses = results.map((r) => r.status).sort();
    expect(statuses.filter((status) => status === 201)).toHaveLength(10);
    expect(statuses.filter((status) => status === 403)).toHaveLength(10);
    for (const refused of results.filter((r) => r.status === 403)) {
      expect(refused.body.error).toBe('Activation limit reached (10/10).');
    }
    // Each accepted activation saw the ones before it: usages 1..10, each once.
    const usages = results.filter((r) => r.status === 201).map((r) => r.body.license.activationUsage as number);
    expect(usages.sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(await activeInstances(licenseKey)).toBe(10);
    expect((await validate({ licenseKey })).body.license.activationUsage).toBe(10);
  });
});

describe('POST /license/deactivate/', () => {
  it('deactivates an instance once; a second time is a clear 404', async () => {
    const { licenseKey } = await buy();
    const { instanceId } = (await activate({ licenseKey })).body;
    clock.advance(60_000);
    const res = await deactivate({ license_key: licenseKey, instance_id: instanceId });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      message: 'License instance deactivated successfully.',
      deactivatedAt: new Date(START.getTime() + 60_000).toISOString(),
    });
    expect(await activeInstances(licenseKey)).toBe(0);

    const twice = await deactivate({ licenseKey, instanceId });
    expect(twice.status).toBe(404);
    expect(twice.body).toMatchObject({ code: 'instance_already_deactivated' });
    expect(twice.body.error).toMatch(/already deactivated/);
    expect(twice.body.detail).toBe(twice.body.error);
  });

  it('answers 404 {error} when the key and instance do not belong together', async () => {
    const a = await buy();
    const b = await buy();
    const instanceOfB = (await activate({ licenseKey: b.licenseKey })).body.instanceId;
    const notFound = { error: 'Invalid license key or instance ID.', detail: 'Invalid license key or instance ID.', code: 'instance_not_found' };
    for (const body of [
      { licenseKey: a.licenseKey, instanceId: instanceOfB },
      { licenseKey: a.licenseKey, instanceId: '00000000-0000-4000-8000-000000000000' },
      { licenseKey: 'LIC-UNKNOWN', instanceId: instanceOfB },
    ]) {
      const res = await deactivate(body);
      expect(res.status).toBe(404);
      expect(res.body).toEqual(notFound);
    }
    expect(await activeInstances(b.licenseKey)).toBe(1);
  });
});

describe('POST /license/validate/', () => {
  it('validates a key, and an instance with its metadata, recording when the instance was last seen', async () => {
    const { licenseKey } = await buy();
    const metadata = { os: 'macOS', arch: 'arm64' };
    const { instanceId } = (await activate({ licenseKey, metadata })).body;

    const keyOnly = await validate({ licenseKey });
    expect(keyOnly.status).toBe(200);
    expect(keyOnly.body).toMatchObject({ valid: true, code: 'VALID', metadata: {}, license: { licenseKey, activationUsage: 1 } });

    clock.advance(5 * DAY);
    const res = await validate({ license_key: licenseKey, instance_id: instanceId });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ valid: true, code: 'VALID', detail: 'Instance ID valid for this license.', metadata });
    expect(res.body.license).toMatchObject({ licenseKey, activationLimit: 3, enabled: true });
    const seen = await server.database.db
      .selectFrom('license_instances')
      .select('last_validated_at')
      .where('id', '=', instanceId)
      .executeTakeFirstOrThrow();
    expect(seen.last_validated_at?.toISOString()).toBe(new Date(START.getTime() + 5 * DAY).toISOString());
  });

  it('answers 404 with a validation body for an unknown key or instance, and for a deactivated instance', async () => {
    const { licenseKey } = await buy();
    const unknownKey = await validate({ licenseKey: 'LIC-NOT-A-KEY' });
    expect(unknownKey.status).toBe(404);
    expect(unknownKey.body).toEqual({ valid: false, code: 'INVALID_KEY', detail: 'License key not found.', metadata: {} });

    const unknownInstance = await validate({ licenseKey, instanceId: '00000000-0000-4000-8000-000000000000' });
    expect(unknownInstance.status).toBe(404);
    expect(unknownInstance.body).toEqual({ valid: false, code: 'INSTANCE_NOT_FOUND', detail: 'Instance ID invalid for this license.', metadata: {} });

    const { instanceId } = (await activate({ licenseKey, metadata: { secret: 'x' } })).body;
    await deactivate({ licenseKey, instanceId });
    const gone = await validate({ licenseKey, instanceId });
    expect(gone.status).toBe(404);
    expect(gone.body).toMatchObject({ valid: false, code: 'INSTANCE_NOT_FOUND', metadata: {} });
    expect(gone.body.detail).toMatch(/deactivated/);
  });

  it('reports the subscription a key was sold with, followed through a plan change', async () => {
    const customerId = await s.customer();
    await s.card(customerId);
    const created = await s.call('POST', '/subscriptions/create/', { planIdentifier: plans.monthly, chargePeriod: 'MONTHLY', customerId });
    expect(created.status).toBe(201);
    expect(created.body.license).toHaveLength(1);
    const licenseKey = created.body.license[0].licenseKey as string;

    const res = await validate({ licenseKey });
    expect(res.status).toBe(200);
    expect(res.body.license.subscription).toEqual({
      id: created.body.id,
      externalSubscriptionId: null,
      recurrence: '1 month',
      billingPeriodStartTime: START.toISOString(),
      billingPeriodEndTime: '2026-02-01T00:00:00.000Z',
      startDate: '2026-01-01',
      endDate: null,
      status: 'active',
      amount: '10.00',
      currency: 'usd',
      trialDaysRemaining: 0,
      billingType: 'SUBSCRIPTION',
      recurrenceUnit: 1,
      recurrenceType: 'MONTH',
    });

    clock.advance(10 * DAY);
    const changed = await s.call('POST', `/subscriptions/${created.body.id}/update/`, { planIdentifier: plans.monthlyPro, chargePeriod: 'MONTHLY' });
    expect(changed.status).toBe(200);
    const next = changed.body.subscriptionId as string;
    expect(next).not.toBe(created.body.id);
    const after = await validate({ licenseKey });
    expect(after.body.license.subscription).toMatchObject({ id: next, status: 'active', amount: '20.00' });
  });
});

describe('request validation (the reference\'s field errors, with detail and code)', () => {
  it.each([
    ['activate', {}, 'licenseKey', 'This field is required.'],
    ['activate', { licenseKey: null }, 'licenseKey', 'This field may not be null.'],
    ['activate', { licenseKey: '' }, 'licenseKey', 'This field may not be blank.'],
    ['activate', { licenseKey: 'LIC-X', metadata: 'text' }, 'metadata', 'Expected a dictionary of items.'],
    ['activate', { licenseKey: 'LIC-X', instanceName: 7 }, 'instanceName', 'Not a valid string.'],
    ['deactivate', { licenseKey: 'LIC-X' }, 'instanceId', 'This field is required.'],
    ['deactivate', { licenseKey: 'LIC-X', instanceId: 'not-a-uuid' }, 'instanceId', 'Must be a valid UUID.'],
    ['validate', { instanceId: '00000000-0000-4000-8000-000000000000' }, 'licenseKey', 'This field is required.'],
    ['validate', { licenseKey: 'LIC-X', instanceId: 'urn:uuid:00000000-0000-4000-8000-000000000000' }, 'instanceId', 'Must be a valid UUID.'],
  ] as const)('%s %j → 400 naming %s', async (action, body, field, message) => {
    const res = await license(action, body);
    expect(res.status).toBe(400);
    expect(res.body[field]).toEqual([message]);
    expect(res.body.code).toBe('validation_error');
    expect(res.body.detail).toContain(field);
  });

  it('refuses metadata that is too large and unknown fields by name', async () => {
    const tooMany = Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`k${i}`, i]));
    const big = await activate({ licenseKey: 'LIC-X', metadata: tooMany });
    expect(big.status).toBe(400);
    expect(big.body.metadata).toEqual(['metadata may hold at most 50 keys']);

    const unknown = await validate({ licenseKey: 'LIC-X', detail: 'sneaky' });
    expect(unknown.status).toBe(400);
    expect(unknown.body.detail).toBe('detail is not a known field');
    expect(unknown.body.nonFieldErrors).toEqual(['detail: This field is not allowed.']);
  });
});

describe('keys and environments', () => {
  it('lets a client key activate, validate and deactivate (an app on a customer machine)', async () => {
    const { licenseKey } = await buy();
    const key = org.sandbox.clientKey;
    const activated = await activate({ licenseKey }, key);
    expect(activated.status).toBe(201);
    const { instanceId } = activated.body;
    expect((await validate({ licenseKey, instanceId }, key)).body).toMatchObject({ valid: true, code: 'VALID' });
    expect((await deactivate({ licenseKey, instanceId }, key)).status).toBe(200);
  });

  it('requires a key of the environment: none is 401', async () => {
    const { licenseKey } = await buy();
    for (const action of ['activate', 'deactivate', 'validate'] as const) {
      expect((await license(action, { licenseKey }, null)).status).toBe(401);
      expect((await license(action, { licenseKey }, org.production.serverKey)).status).toBe(401);
    }
  });

  it('finds a key only in its own environment and organization', async () => {
    const { licenseKey } = await buy();
    const { instanceId } = (await activate({ licenseKey })).body;

    const production = await validate({ licenseKey, instanceId }, org.production.serverKey, '');
    expect(production.status).toBe(404);
    expect(production.body.code).toBe('INVALID_KEY');
    expect((await activate({ licenseKey }, org.production.serverKey, '')).status).toBe(404);
    expect((await deactivate({ licenseKey, instanceId }, org.production.clientKey, '')).status).toBe(404);

    const stranger = await server.createOrg();
    const strangerCheck = await validate({ licenseKey }, stranger.sandbox.serverKey);
    expect(strangerCheck.status).toBe(404);
    expect(strangerCheck.body.code).toBe('INVALID_KEY');
    expect((await activate({ licenseKey }, stranger.sandbox.clientKey)).status).toBe(404);
    expect((await deactivate({ licenseKey, instanceId }, stranger.sandbox.serverKey)).status).toBe(404);
    expect(await activeInstances(licenseKey)).toBe(1);

    // A key issued in production works there, and not in sandbox. Production takes no test cards: the plan is free.
    const live = await shop(server, org.production.serverKey, '');
    const free = await live.api.plan(live.product.id, { name: uniqueId('Free key'), license: { enabled: true } });
    await live.api.prices(free.identifier, [
      { priceType: 'FREE', currency: 'USD', chargeCatalogPrice: [{ charges: [{ chargePeriod: 'ONE_TIME', priceData: { amount: 0 } }] }] },
    ]);
    await live.api.publish(free.identifier);
    const bought = await buy(free.identifier, live);
    expect((await activate({ licenseKey: bought.licenseKey }, org.production.clientKey, '')).status).toBe(201);
    expect((await validate({ licenseKey: bought.licenseKey })).status).toBe(404);
  });

  it('counts a client key per caller address, since every copy of an app ships it; a server key as one', async () => {
    const limited = await startTestServer({
      env: { BILLOW_RATE_LIMIT_MAX: '3', BILLOW_RATE_LIMIT_WINDOW_MS: '60000', BILLOW_TRUST_PROXY: 'true' },
    });
    try {
      const tenant = await limited.createOrg();
      const check = (key: string, address: string) =>
        limited.request('POST', '/sandbox/api/v1/license/validate/', {
          key,
          body: { licenseKey: 'LIC-UNKNOWN' },
          headers: { 'x-forwarded-for': address },
        });
      for (const key of [tenant.sandbox.clientKey, tenant.sandbox.serverKey]) {
        for (let i = 0; i < 3; i += 1) expect((await check(key, '198.51.100.1')).status).toBe(404);
        expect((await check(key, '198.51.100.1')).status).toBe(429);
      }
      expect((await check(tenant.sandbox.clientKey, '198.51.100.2')).status).toBe(404);
      expect((await check(tenant.sandbox.serverKey, '198.51.100.2')).status).toBe(429);
    } finally {
      await limited.close();
    }
  });

  it('serves the paths with and without the trailing slash', async () => {
    const { licenseKey } = await buy();
    const res = await server.request('POST', '/sandbox/api/v1/license/validate', { key: org.sandbox.serverKey, body: { licenseKey } });
    expect(res.status).toBe(200);
    expect(res.body.valid).toBe(true);
  });
});

describe('@kelviq/node-sdk license.* against Billow', () => {
  let client: Kelviq;
  beforeAll(() => {
    client = officialClient(server, org.sandbox.serverKey);
  });

  it('activates, validates and deactivates', async () => {
    const { customerId, licenseKey } = await buy();
    const activated = await client.license.activate({ licenseKey, customerId, instanceName: 'CI runner', metadata: { build_id: 42, osName: 'linux' } });
    expect(activated.instanceId).toMatch(UUID);
    expect(activated.license).toMatchObject({ licenseKey, activationUsage: 1, activationLimit: 3, enabled: true, customer: { customerId } });

    const validated = await client.license.validate({ licenseKey, instanceId: activated.instanceId });
    expect(validated).toMatchObject({ valid: true, code: 'VALID', metadata: { build_id: 42, osName: 'linux' } });

    const deactivated = await client.license.deactivate({ licenseKey, instanceId: activated.instanceId });
    expect(deactivated.message).toBe('License instance deactivated successfully.');
    expect(deactivated.deactivatedAt).toBe(START.toISOString());
  });

  it('surfaces refusals with the messages of the error bodies', async () => {
    const { licenseKey } = await buy();
    const unknown = await failureOf(client.license.validate({ licenseKey: 'LIC-NOPE' }));
    expect(unknown).toBeInstanceOf(NotFoundError);
    expect(unknown.message).toBe('License key not found.');
    expect(unknown.details).toMatchObject({ valid: false, code: 'INVALID_KEY' });

    for (let i = 0; i < 3; i += 1) await client.license.activate({ licenseKey });
    const full = await failureOf(client.license.activate({ licenseKey }));
    expect(full).toBeInstanceOf(AuthenticationError);
    expect(full.statusCode).toBe(403);
    expect(full.message).toBe('Activation limit reached (3/3).');

    const wrongOwner = await failureOf(client.license.activate({ licenseKey, customerId: 'someone-else' }));
    expect(wrongOwner).toBeInstanceOf(NotFoundError);
    expect(wrongOwner.message).toBe('Invalid license key or customer ID.');

    const { instanceId } = (await client.license.activate({ licenseKey: (await buy()).licenseKey })) as { instanceId: string };
    const mismatched = await failureOf(client.license.deactivate({ licenseKey, instanceId }));
    expect(mismatched).toBeInstanceOf(NotFoundError);
    expect(mismatched.message).toBe('Invalid license key or instance ID.');

    const invalid = await failureOf(client.license.deactivate({ licenseKey, instanceId: 'nope' }));
    expect(invalid).toBeInstanceOf(InvalidRequestError);
    expect(invalid.details).toMatchObject({ instanceId: ['Must be a valid UUID.'] });
  });
});
