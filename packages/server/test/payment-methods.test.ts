import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../src/lib/clock.js';
import { recordEvent, snakeCaseKeys } from '../src/modules/events/writer.js';
import { usableMethodFor } from '../src/modules/payments/methods.service.js';
import { environmentIdOf, startTestServer, uniqueId, type TestOrg, type TestServer } from './harness.js';

// A fixed clock makes expiry checks exact: it is June 2030.
const clock = new ManualClock(new Date('2030-06-15T12:00:00Z'));
let server: TestServer;
let org: TestOrg;
let other: TestOrg;

const SANDBOX = '/sandbox/api/v1';
const PRODUCTION = '/api/v1';

beforeAll(async () => {
  server = await startTestServer({ clock });
  [org, other] = await Promise.all([server.createOrg(), server.createOrg()]);
});
afterAll(() => server.close());

async function createCustomer(
  target: TestOrg = org,
  fields: Record<string, unknown> = {},
  base = SANDBOX,
): Promise<{ customerId: string; id: string }> {
  const customerId = uniqueId('pm-cust');
  const key = base === SANDBOX ? target.sandbox.serverKey : target.production.serverKey;
  const res = await server.request('POST', `${base}/customers/`, { key, body: { customerId, ...fields } });
  expect(res.status, res.text).toBe(201);
  return { customerId, id: res.body.id };
}

const card = (customerId: string, overrides: Record<string, unknown> = {}) => ({
  customerId,
  cardNumber: '4242 4242 4242 4242',
  expMonth: 12,
  expYear: 2031,
  cvc: '123',
  ...overrides,
});

const attach = (body: unknown, target: TestOrg = org, headers?: Record<string, string>) =>
  server.request('POST', `${SANDBOX}/payment-methods/`, { key: target.sandbox.serverKey, body, ...(headers ? { headers } : {}) });

const list = (query = '', target: TestOrg = org, base = SANDBOX) =>
  server.request('GET', `${base}/payment-methods/${query}`, {
    key: base === SANDBOX ? target.sandbox.serverKey : target.production.serverKey,
  });

const makeDefault = (id: number | string, target: TestOrg = org, base = SANDBOX) =>
  server.request('POST', `${base}/payment-methods/${id}/default/`, {
    key: base === SANDBOX ? target.sandbox.serverKey : target.production.serverKey,
  });

async function environmentOf(customerUuid: string): Promise<string> {
  const row = await server.database.db
    .selectFrom('customers')
    .select('environment_id')
    .where('id', '=', customerUuid)
    .executeTakeFirstOrThrow();
  return row.environment_id;
}

/** The customer's methods marked as the default (there must never be two). */
const defaultMethodsOf = (customerUuid: string) =>
  server.database.db
    .selectFrom('payment_methods')
    .select('id')
    .where('customer_id', '=', customerUuid)
    .where('is_default', '=', true)
    .execute();

async function eventsOf(methodId: number) {
  const rows = await server.database.db
    .selectFrom('events')
    .selectAll()
    .where('type', 'like', 'payment_method.%')
    .orderBy('seq')
    .execute();
  return rows.filter((row) => (row.payload as any).data.object.id === methodId);
}

describe('POST /payment-methods/ (sandbox test cards)', () => {
  it('attaches a card: 201 with every field of the payment method, and the first one is the default', async () => {
    const { customerId } = await createCustomer(org, {
      name: 'Geo Jacob',
      email: 'geo@example.com',
      billingAddress: { postalCode: '680121', country: 'IN' },
    });
    const res = await attach(card(customerId));
    expect(res.status, res.text).toBe(201);
    expect(res.body).toEqual({
      id: expect.any(Number),
      customer: {
        customerId,
        name: 'Geo Jacob',
        email: 'geo@example.com',
        billingAddress: { postalCode: '680121', country: 'IN' },
      },
      methodType: 'card',
      methodData: { brand: 'visa', last4: '4242', expMonth: 12, expYear: 2031, funding: 'credit', country: 'US' },
      isDefault: true,
      status: 'succeeded',
      createdOn: '2030-06-15T12:00:00.000Z',
      modifiedOn: '2030-06-15T12:00:00.000Z',
    });
    expect(Number.isInteger(res.body.id)).toBe(true);

    const second = await attach(card(customerId, { cardNumber: '5555-5555-5555-4444', expYear: 32, cvc: '999' }));
    expect(second.status, second.text).toBe(201);
    expect(second.body.isDefault).toBe(false);
    expect(second.body.methodData).toMatchObject({ brand: 'mastercard', last4: '4444', expYear: 2032 });

    const amex = await attach(card(customerId, { cardNumber: '3782 822463 10005', cvc: '1234' }));
    expect(amex.status, amex.text).toBe(201);
    expect(amex.body.methodData.brand).toBe('amex');

    // The card is stored as the sandbox provider's handle; the cvc is not stored at all.
    const row = await server.database.db
      .selectFrom('payment_methods')
      .selectAll()
      .where('id', '=', res.body.id)
      .executeTakeFirstOrThrow();
    expect(row.provider_ref).toBe('card_4242424242424242');
    expect(JSON.stringify(row)).not.toContain('"123"');
  });

  it('writes payment_method.created with the payload of the webhook reference', async () => {
    const { customerId, id: customerUuid } = await createCustomer(org, {
      name: 'Geo Jacob',
      email: 'geojacob@example.com',
      billingAddress: { postalCode: '680121', country: 'IN' },
    });
    const res = await attach(card(customerId, { expMonth: 12, expYear: 2031 }));
    expect(res.status).toBe(201);
    const events = await eventsOf(res.body.id);
    expect(events).toHaveLength(1);
    const [event] = events;
    expect(event!.type).toBe('payment_method.created');
    expect(event!.organization_id).toBe(org.organizationId);
    expect(event!.created_at.toISOString()).toBe('2030-06-15T12:00:00.000Z');
    expect(event!.payload).toEqual({
      id: event!.id,
      type: 'payment_method.created',
      created_at: '2030-06-15T12:00:00Z',
      data: {
        object: {
          id: res.body.id,
          object: 'payment_method',
          organization: org.organizationId,
          customer_id: customerId,
          customer: {
            id: customerUuid,
            name: 'Geo Jacob',
            email: 'geojacob@example.com',
            customer_id: customerId,
            billing_address: {
              line1: null,
              line2: null,
              city: null,
              state: null,
              postal_code: '680121',
              country: 'IN',
            },
          },
          method_type: 'card',
          method_data: { brand: 'visa', last4: '4242', exp_month: 12, exp_year: 2031, funding: 'credit', country: 'US' },
          is_default: true,
          status: 'succeeded',
        },
      },
    });
  });

  it('refuses a card number that fails the Luhn check, naming cardNumber', async () => {
    const { customerId } = await createCustomer();
    for (const cardNumber of ['4242 4242 4242 4241', '1234567890123', '4242 4242', '4242x4242x4242x4242']) {
      const res = await attach(card(customerId, { cardNumber }));
      expect(res.status, cardNumber).toBe(400);
      expect(res.body.detail, cardNumber).toMatch(/^cardNumber/);
    }
    const luhn = await attach(card(customerId, { cardNumber: '4242424242424241' }));
    expect(luhn.body).toMatchObject({ code: 'invalid_card_number', detail: expect.stringMatching(/Luhn/) });
    expect((await list(`?customer_id=${customerId}`)).body.count).toBe(0);
  });

  it('refuses an expired card, and accepts one that expires this month', async () => {
    const { customerId } = await createCustomer();
    const lastMonth = await attach(card(customerId, { expMonth: 5, expYear: 2030 }));
    expect(lastMonth.status).toBe(400);
    expect(lastMonth.body).toMatchObject({ code: 'card_expired' });
    expect(lastMonth.body.detail).toMatch(/expMonth\/expYear.*05\/2030/);
    const lastYear = await attach(card(customerId, { expMonth: 12, expYear: 2029 }));
    expect(lastYear.status).toBe(400);
    const twoDigits = await attach(card(customerId, { expMonth: 12, expYear: 29 }));
    expect(twoDigits.status).toBe(400);
    expect(twoDigits.body.detail).toContain('12/2029');
    const thisMonth = await attach(card(customerId, { expMonth: 6, expYear: 2030 }));
    expect(thisMonth.status, thisMonth.text).toBe(201);
  });

  it('refuses an unknown customer, naming customerId, and an archived one', async () => {
    const unknown = await attach(card('nobody-like-this'));
    expect(unknown.status).toBe(400);
    expect(unknown.body).toMatchObject({ code: 'customer_not_found' });
    expect(unknown.body.detail).toMatch(/^customerId: .*"nobody-like-this"/);

    const { customerId } = await createCustomer();
    expect((await server.request('DELETE', `${SANDBOX}/customers/${customerId}/`, { key: org.sandbox.serverKey })).status).toBe(204);
    const archived = await attach(card(customerId));
    expect(archived.status).toBe(400);
    expect(archived.body).toMatchObject({ code: 'customer_archived' });
    expect(archived.body.detail).toMatch(/^customerId: .*archived/);
  });

  it('refuses a wrong cvc, a bad month and missing or unknown fields, naming them', async () => {
    const { customerId } = await createCustomer();
    const cases: [Record<string, unknown>, RegExp][] = [
      [card(customerId, { cvc: '12' }), /^cvc/],
      [card(customerId, { cvc: '1234' }), /^cvc: .*3 digits/],
      [card(customerId, { cardNumber: '378282246310005', cvc: '123' }), /^cvc: .*4 digits/],
      [card(customerId, { expMonth: 13 }), /^expMonth/],
      [card(customerId, { expYear: 2200 }), /^expYear/],
      [{ customerId, cardNumber: '4242424242424242', expMonth: 1, expYear: 2031 }, /^cvc is required/],
      [card(customerId, { nickname: 'x' }), /^nickname is not a known field/],
    ];
    for (const [body, detail] of cases) {
      const res = await attach(body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.detail, JSON.stringify(body)).toMatch(detail);
    }
  });

  it('accepts snake_case fields and honours Idempotency-Key', async () => {
    const { customerId } = await createCustomer();
    const body = { customer_id: customerId, card_number: '4242424242424242', exp_month: 1, exp_year: 2032, cvc: '000' };
    const headers = { 'idempotency-key': uniqueId('idem') };
    const [first, second] = [await attach(body, org, headers), await attach(body, org, headers)];
    expect(first.status, first.text).toBe(201);
    expect(second.status).toBe(201);
    expect(second.body).toEqual(first.body);
    expect((await list(`?customer_id=${customerId}`)).body.count).toBe(1);
  });

  it('answers 403 sandbox_only in production, explaining it is a testing aid, and saves nothing', async () => {
    const { customerId } = await createCustomer(org, {}, PRODUCTION);
    const res = await server.request('POST', `${PRODUCTION}/payment-methods/`, {
      key: org.production.serverKey,
      body: card(customerId),
    });
    expect(res.status).toBe(403);
    expect(res.body.code).toBe('sandbox_only');
    expect(res.body.detail).toMatch(/testing aid/);
    expect(res.body.detail).toMatch(/\/sandbox/);
    expect((await list(`?customer_id=${customerId}`, org, PRODUCTION)).body.count).toBe(0);
  });

  it('gives concurrent first cards of one customer exactly one default', async () => {
    const { customerId, id } = await createCustomer();
    const results = await Promise.all(Array.from({ length: 8 }, () => attach(card(customerId))));
    expect(results.map((r) => r.status)).toEqual(Array(8).fill(201));
    expect(results.filter((r) => r.body.isDefault)).toHaveLength(1);
    expect(await defaultMethodsOf(id)).toHaveLength(1);
  });
});

describe('GET /payment-methods/', () => {
  it('lists newest first, 10 per page by default, with absolute page links', async () => {
    const { customerId } = await createCustomer();
    const ids: number[] = [];
    for (let i = 0; i < 12; i++) {
      const res = await attach(card(customerId));
      ids.push(res.body.id);
    }
    const first = await list(`?customer_id=${customerId}`);
    expect(first.status).toBe(200);
    expect(first.body.count).toBe(12);
    expect(first.body.results.map((m: any) => m.id)).toEqual([...ids].reverse().slice(0, 10));
    expect(first.body.next).toMatch(/^http:\/\/.*\/sandbox\/api\/v1\/payment-methods\/\?.*page=2/);
    expect(first.body.previous).toBeNull();
    const second = await server.request('GET', new URL(first.body.next).pathname + new URL(first.body.next).search, {
      key: org.sandbox.serverKey,
    });
    expect(second.body.results.map((m: any) => m.id)).toEqual([ids[1], ids[0]]);
    const small = await list(`?customer_id=${customerId}&page_size=5&page=3`);
    expect(small.body.results.map((m: any) => m.id)).toEqual([ids[1], ids[0]]);
  });

  it('filters by customer_id and by customer_email (regardless of case), and by both', async () => {
    const a = await createCustomer(org, { email: 'Shared.Person@example.com' });
    const b = await createCustomer(org, { email: 'shared.person@example.com' });
    const c = await createCustomer(org, { email: 'someone.else@example.com' });
    const ma = (await attach(card(a.customerId))).body.id;
    const mb = (await attach(card(b.customerId))).body.id;
    const mc = (await attach(card(c.customerId))).body.id;

    const byId = await list(`?customer_id=${a.customerId}`);
    expect(byId.body.results.map((m: any) => m.id)).toEqual([ma]);
    expect(byId.body.results[0].customer.customerId).toBe(a.customerId);

    const byEmail = await list(`?customer_email=${encodeURIComponent('SHARED.person@example.com')}`);
    expect(byEmail.body.results.map((m: any) => m.id)).toEqual([mb, ma]);

    const both = await list(`?customer_id=${b.customerId}&customer_email=shared.person%40example.com`);
    expect(both.body.results.map((m: any) => m.id)).toEqual([mb]);
    const mismatch = await list(`?customer_id=${c.customerId}&customer_email=shared.person%40example.com`);
    expect(mismatch.body).toMatchObject({ count: 0, results: [] });

    const camel = await list(`?customerId=${c.customerId}`);
    expect(camel.body.results.map((m: any) => m.id)).toEqual([mc]);
    expect((await list('?customer_id=no-such-customer')).body).toMatchObject({ count: 0, results: [] });

    const all = await list('?page_size=100');
    const allIds = all.body.results.map((m: any) => m.id);
    expect(allIds).toEqual(expect.arrayContaining([ma, mb, mc]));
    expect(allIds).toEqual([...allIds].sort((x: number, y: number) => y - x));
  });

  it('lists only succeeded methods that are not deleted', async () => {
    const { customerId, id } = await createCustomer();
    const kept = (await attach(card(customerId))).body.id;
    const deleted = (await attach(card(customerId))).body.id;
    await server.database.db.updateTable('payment_methods').set({ deleted_at: clock.now() }).where('id', '=', deleted).execute();
    const pending = await server.database.db
      .insertInto('payment_methods')
      .values({
        environment_id: await environmentOf(id),
        customer_id: id,
        method_type: 'card',
        brand: 'visa',
        last4: '3155',
        exp_month: 1,
        exp_year: 2033,
        funding: 'credit',
        country: 'US',
        provider_ref: 'card_4000002500003155',
        status: 'requires_action',
        is_default: false,
        created_at: clock.now(),
        modified_at: clock.now(),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const res = await list(`?customer_id=${customerId}`);
    expect(res.body.results.map((m: any) => m.id)).toEqual([kept]);
    expect(res.body.count).toBe(1);
    expect(res.body.results[0].status).toBe('succeeded');
    // Neither can become the default.
    expect((await makeDefault(deleted)).status).toBe(404);
    const notUsable = await makeDefault(pending.id);
    expect(notUsable.status).toBe(400);
    expect(notUsable.body.code).toBe('payment_method_unusable');
  });

  it('refuses bad page parameters', async () => {
    expect((await list('?page=0')).status).toBe(400);
    expect((await list('?page_size=abc')).status).toBe(400);
  });
});

describe('POST /payment-methods/{id}/default/', () => {
  it("makes a method the default; the old one loses it; there is always exactly one; events tell both", async () => {
    const { customerId, id: customerUuid } = await createCustomer();
    const first = (await attach(card(customerId))).body;
    const second = (await attach(card(customerId, { cardNumber: '5555555555554444' }))).body;
    expect([first.isDefault, second.isDefault]).toEqual([true, false]);

    clock.advance(60_000);
    const res = await makeDefault(second.id);
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ id: second.id, isDefault: true, status: 'succeeded', createdOn: second.createdOn });
    expect(res.body.modifiedOn).not.toBe(second.modifiedOn);

    const listed = await list(`?customer_id=${customerId}`);
    expect(listed.body.results.map((m: any) => [m.id, m.isDefault])).toEqual([
      [second.id, true],
      [first.id, false],
    ]);

    const demoted = await eventsOf(first.id);
    expect(demoted.map((e) => e.type)).toEqual(['payment_method.created', 'payment_method.updated']);
    expect((demoted[1]!.payload as any).data).toMatchObject({
      object: { id: first.id, object: 'payment_method', is_default: false, customer_id: customerId },
      previous_attributes: { is_default: true },
    });
    const promoted = await eventsOf(second.id);
    expect(promoted.map((e) => e.type)).toEqual(['payment_method.created', 'payment_method.updated']);
    expect((promoted[1]!.payload as any).data).toMatchObject({
      object: { id: second.id, is_default: true, customer: { id: customerUuid } },
      previous_attributes: { is_default: false },
    });

    // Already the default: nothing changes, and nothing is announced.
    const again = await makeDefault(second.id);
    expect(again.status).toBe(200);
    expect(again.body).toEqual(res.body);
    expect(await eventsOf(second.id)).toHaveLength(2);

    // And back, with an empty JSON body.
    const back = await server.request('POST', `${SANDBOX}/payment-methods/${first.id}/default`, {
      key: org.sandbox.serverKey,
      body: {},
    });
    expect(back.status, back.text).toBe(200);
    const rows = await server.database.db
      .selectFrom('payment_methods')
      .select(['id', 'is_default'])
      .where('customer_id', '=', customerUuid)
      .where('is_default', '=', true)
      .execute();
    expect(rows).toEqual([{ id: first.id, is_default: true }]);
  });

  it('concurrent switches leave exactly one default', async () => {
    const { customerId, id } = await createCustomer();
    const methods: number[] = [];
    for (let i = 0; i < 5; i++) methods.push((await attach(card(customerId))).body.id);
    const results = await Promise.all(methods.flatMap((m) => [makeDefault(m), makeDefault(m)]));
    expect(results.map((r) => r.status)).toEqual(Array(10).fill(200));
    expect(await defaultMethodsOf(id)).toHaveLength(1);
  });

  it('answers 404 for an unknown id, a non-numeric one and another environment’s method', async () => {
    const { customerId } = await createCustomer();
    const mine = (await attach(card(customerId))).body.id;
    for (const id of ['999999999', 'abc', '0', '1.5', '99999999999999999999']) {
      const res = await makeDefault(id);
      expect(res.status, id).toBe(404);
      expect(res.body.code, id).toBe('payment_method_not_found');
    }
    expect((await makeDefault(mine, other)).status).toBe(404);
    expect((await makeDefault(mine, org, PRODUCTION)).status).toBe(404);
    expect((await makeDefault(mine)).status).toBe(200);
  });

  it('refuses a body with fields', async () => {
    const res = await server.request('POST', `${SANDBOX}/payment-methods/1/default/`, {
      key: org.sandbox.serverKey,
      body: { isDefault: true },
    });
    expect(res.status).toBe(400);
    expect(res.body.detail).toMatch(/isDefault is not a known field/);
  });
});

describe('isolation and keys', () => {
  it("keeps each environment's methods to itself", async () => {
    const { customerId } = await createCustomer();
    const mine = (await attach(card(customerId))).body.id;
    const otherOrg = await list('?page_size=100', other);
    expect(otherOrg.body.results.map((m: any) => m.id)).not.toContain(mine);
    const production = await list('?page_size=100', org, PRODUCTION);
    expect(production.body.results.map((m: any) => m.id)).not.toContain(mine);
    // Another organization cannot attach to this customer, even knowing its customerId.
    const foreign = await attach(card(customerId), other);
    expect(foreign.status).toBe(400);
    expect(foreign.body.code).toBe('customer_not_found');
  });

  it('a client key may not use any of these routes (403); no key is 401', async () => {
    const { customerId } = await createCustomer();
    const id = (await attach(card(customerId))).body.id;
    const calls = [
      server.request('GET', `${SANDBOX}/payment-methods/`, { key: org.sandbox.clientKey }),
      server.request('POST', `${SANDBOX}/payment-methods/`, { key: org.sandbox.clientKey, body: card(customerId) }),
      server.request('POST', `${SANDBOX}/payment-methods/${id}/default/`, { key: org.sandbox.clientKey }),
    ];
    for (const res of await Promise.all(calls)) {
      expect(res.status).toBe(403);
      expect(res.body.code).toBe('forbidden');
    }
    expect((await server.request('GET', `${SANDBOX}/payment-methods/`)).status).toBe(401);
    expect((await list(`?customer_id=${customerId}`)).body.count).toBe(1);
  });
});

describe('usableMethodFor', () => {
  it('is the default method, else the newest usable one, else nothing', async () => {
    const { customerId, id } = await createCustomer();
    const environmentId = await environmentOf(id);
    const db = server.database.db;
    expect(await usableMethodFor(db, environmentId, id)).toBeUndefined();
    const first = (await attach(card(customerId))).body.id;
    const second = (await attach(card(customerId))).body.id;
    expect((await usableMethodFor(db, environmentId, id))?.id).toBe(first);
    // Without a default (say, it was removed), the newest succeeded method.
    await db.updateTable('payment_methods').set({ deleted_at: clock.now() }).where('id', '=', first).execute();
    expect((await usableMethodFor(db, environmentId, id))?.id).toBe(second);
    // Never another environment's.
    const otherEnvironmentId = await environmentIdOf(server, other.organizationId, 'sandbox');
    expect(await usableMethodFor(db, otherEnvironmentId, id)).toBeUndefined();
  });
});

describe('the events writer', () => {
  it('snake-cases keys deeply, except inside metadata, and writes dates as ISO strings', () => {
    expect(
      snakeCaseKeys({
        customerId: 'c',
        billingAddress: { postalCode: '1' },
        metadata: { keepThis: { andThis: 1 } },
        lines: [{ amountUnits: 1 }],
        paidAt: new Date('2030-01-02T03:04:05.678Z'),
        gone: undefined,
      }),
    ).toEqual({
      customer_id: 'c',
      billing_address: { postal_code: '1' },
      metadata: { keepThis: { andThis: 1 } },
      lines: [{ amount_units: 1 }],
      paid_at: '2030-01-02T03:04:05.678Z',
    });
  });

  it('writes the envelope: id, type, created_at, data.object with object and organization, previous_attributes', async () => {
    const environmentId = await environmentIdOf(server, org.organizationId, 'sandbox');
    const at = new Date('2030-06-15T12:34:56.789Z');
    const eventId = await recordEvent(server.database.db, {
      environmentId,
      organizationId: org.organizationId,
      type: 'checkout.completed',
      data: { id: 'cs_123', checkoutType: 'ONE_TIME', metadata: { orderRef: 'A' } },
      previousAttributes: { someField: null },
      at,
    });
    const row = await server.database.db
      .selectFrom('events')
      .selectAll()
      .where('id', '=', eventId)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ type: 'checkout.completed', environment_id: environmentId, organization_id: org.organizationId });
    expect(row.payload).toEqual({
      id: eventId,
      type: 'checkout.completed',
      created_at: '2030-06-15T12:34:56Z',
      data: {
        object: {
          id: 'cs_123',
          object: 'checkout_session',
          checkout_type: 'ONE_TIME',
          metadata: { orderRef: 'A' },
          organization: org.organizationId,
        },
        previous_attributes: { some_field: null },
      },
    });
    const plain = await recordEvent(server.database.db, {
      environmentId,
      organizationId: org.organizationId,
      type: 'order.created',
      data: { id: 'ORD-1', object: 'order', organization: 'kept-as-given' },
      at,
    });
    const plainRow = await server.database.db.selectFrom('events').select('payload').where('id', '=', plain).executeTakeFirstOrThrow();
    expect(plainRow.payload.data).toEqual({ object: { id: 'ORD-1', object: 'order', organization: 'kept-as-given' } });
  });
});
