import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, uniqueId, type TestOrg, type TestServer } from './harness.js';

let server: TestServer;
let org: TestOrg;
const base = '/sandbox/api/v1/customers/';

beforeAll(async () => {
  server = await startTestServer();
  org = await server.createOrg();
});
afterAll(() => server.close());

const post = (body: unknown) => server.request('POST', base, { key: org.sandbox.serverKey, body });

describe('customers', () => {
  it('creates, retrieves, updates and archives a customer', async () => {
    const customerId = uniqueId('cust');
    const created = await post({
      customerId,
      name: 'Ada',
      email: 'ada@example.com',
      metadata: { plan_hint: 'pro', nested: { some_key: 1 } },
      billingAddress: { country: 'gb', line1: '1 Road', postalCode: 'N1', city: 'London' },
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      customerId,
      name: 'Ada',
      email: 'ada@example.com',
      details: {},
      metadata: { plan_hint: 'pro', nested: { some_key: 1 } },
      billingAddress: { country: 'GB', line1: '1 Road', postalCode: 'N1', city: 'London' },
      isArchived: false,
    });
    expect(created.body.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(created.body.createdOn).toMatch(/Z$/);

    const fetched = await server.request('GET', `${base}${customerId}/`, { key: org.sandbox.serverKey });
    expect(fetched.status).toBe(200);
    expect(fetched.body).toEqual(created.body);

    const patched = await server.request('PATCH', `${base}${customerId}/`, {
      key: org.sandbox.serverKey,
      body: { name: 'Ada L.', metadata: { tier: 'gold' } },
    });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({ name: 'Ada L.', email: 'ada@example.com', metadata: { tier: 'gold' } });
    expect(patched.body.billingAddress.country).toBe('GB');

    const archived = await server.request('DELETE', `${base}${customerId}/`, { key: org.sandbox.serverKey });
    expect(archived.status).toBe(204);
    const list = await server.request('GET', `${base}?search=${customerId}`, { key: org.sandbox.serverKey });
    expect(list.body.count).toBe(0);
    const after = await server.request('GET', `${base}${customerId}/`, { key: org.sandbox.serverKey });
    expect(after.body.isArchived).toBe(true);
    expect((await server.request('DELETE', `${base}${customerId}/`, { key: org.sandbox.serverKey })).status).toBe(400);
    const patchArchived = await server.request('PATCH', `${base}${customerId}/`, {
      key: org.sandbox.serverKey,
      body: { name: 'x' },
    });
    expect(patchArchived.status).toBe(400);
    const reuse = await post({ customerId });
    expect(reuse.status).toBe(409);
    expect(reuse.body.detail).toContain('never reused');
  });

  it('refuses a duplicate customerId with 409 and changes nothing', async () => {
    const customerId = uniqueId('dup');
    expect((await post({ customerId, name: 'First' })).status).toBe(201);
    const again = await post({ customerId, name: 'Second' });
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ code: 'customer_exists' });
    const fetched = await server.request('GET', `${base}${customerId}/`, { key: org.sandbox.serverKey });
    expect(fetched.body.name).toBe('First');
  });

  it.each([
    [{ customerId: 'x', email: 'not-an-email' }, 'email'],
    [{ customerId: 'x', billingAddress: { country: 'XX' } }, 'billingAddress.country'],
    [{ customerId: 'x', billingAddress: { country: 'USA' } }, 'billingAddress.country'],
    [{ customerId: 'x', billingAddress: { planet: 'Mars' } }, 'billingAddress.planet'],
    [{ customerId: '' }, 'customerId'],
    [{ customerId: '..' }, 'customerId'],
    [{ customerId: '.' }, 'customerId'],
    [{ customerId: 'a/b' }, 'customerId'],
    [{ customerId: 'a?b' }, 'customerId'],
    [{ customerId: 'a#b' }, 'customerId'],
    [{ customerId: '50%' }, 'customerId'],
    [{ customerId: ' padded ' }, 'customerId'],
    [{ customerId: 12 }, 'customerId'],
    [{ name: 'no id' }, 'customerId'],
    [{ customerId: 'x', metadata: Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`k${i}`, i])) }, 'metadata'],
    [{ customerId: 'x', metadata: { big: 'y'.repeat(9000) } }, 'metadata'],
    [{ customerId: 'x', metadata: 'not an object' }, 'metadata'],
  ])('rejects %j naming %s', async (body, field) => {
    const res = await post(body);
    expect(res.status).toBe(400);
    expect(res.body.detail).toContain(field);
    expect(res.body.code).toBeTypeOf('string');
  });

  it('lists newest first and searches name, email and customerId', async () => {
    const other = await server.createOrg();
    const key = other.production.serverKey;
    const make = (customerId: string, name: string, email: string) =>
      server.request('POST', '/api/v1/customers/', { key, body: { customerId, name, email } });
    await make('alpha-1', 'Grace Hopper', 'grace@navy.mil');
    await make('beta-2', 'Alan Turing', 'alan@bletchley.uk');
    await make('gamma-3', 'Edsger', 'ed@grace-notes.nl');
    const all = await server.request('GET', '/api/v1/customers/', { key });
    expect(all.body.results.map((c: any) => c.customerId)).toEqual(['gamma-3', 'beta-2', 'alpha-1']);
    const byName = await server.request('GET', '/api/v1/customers/?search=grace', { key });
    expect(byName.body.results.map((c: any) => c.customerId).sort()).toEqual(['alpha-1', 'gamma-3']);
    const byId = await server.request('GET', '/api/v1/customers/?search=BETA', { key });
    expect(byId.body.results.map((c: any) => c.customerId)).toEqual(['beta-2']);
    const byEmail = await server.request('GET', '/api/v1/customers/?search=bletchley', { key });
    expect(byEmail.body.count).toBe(1);
    const wildcard = await server.request('GET', '/api/v1/customers/?search=%25', { key });
    expect(wildcard.body.count).toBe(0);
  });

  it('answers 404 for an unknown customer', async () => {
    const res = await server.request('GET', `${base}nobody-here/`, { key: org.sandbox.serverKey });
    expect(res.status).toBe(404);
    expect(res.body.detail).toContain('nobody-here');
  });

  it('clears metadata and billing address with null', async () => {
    const customerId = uniqueId('clear');
    await post({ customerId, metadata: { a: 1 }, billingAddress: { country: 'DE' } });
    const res = await server.request('PATCH', `${base}${customerId}/`, {
      key: org.sandbox.serverKey,
      body: { metadata: null, billing_address: null },
    });
    expect(res.status).toBe(200);
    expect(res.body.metadata).toEqual({});
    expect(res.body.billingAddress).toBeNull();
  });
});

describe('customer events', () => {
  it('records customer.created and customer.updated with what changed, in the same transaction', async () => {
    const customerId = uniqueId('evented');
    const created = await post({ customerId, name: 'Before', billingAddress: { country: 'FR', postalCode: '75001' } });
    await server.request('PATCH', `${base}${customerId}/`, { key: org.sandbox.serverKey, body: { name: 'After' } });
    await server.request('PATCH', `${base}${customerId}/`, { key: org.sandbox.serverKey, body: { name: 'After' } });
    const events = await server.database.db
      .selectFrom('events')
      .select(['type', 'payload'])
      .where(sql`payload::jsonb`, '@>', JSON.stringify({ data: { object: { id: created.body.id } } }))
      .orderBy('seq')
      .execute();
    expect(events.map((e) => e.type)).toEqual(['customer.created', 'customer.updated']);
    const [made, changed] = events.map((e) => e.payload as any);
    expect(made.data.object).toMatchObject({
      object: 'customer',
      customer_id: customerId,
      name: 'Before',
      billing_address: { country: 'FR', postal_code: '75001' },
      subscriptions: 0,
    });
    expect(changed.data.object.name).toBe('After');
    expect(changed.data.previous_attributes).toEqual({ name: 'Before' });
  });

  it('records nothing when a request is refused', async () => {
    // This organization's events only: other test files write theirs to the same database meanwhile.
    const count = () =>
      server.database.db
        .selectFrom('events')
        .innerJoin('environments', 'environments.id', 'events.environment_id')
        .where('environments.organization_id', '=', org.organizationId)
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow();
    const taken = uniqueId('taken');
    expect((await post({ customerId: taken })).status).toBe(201);
    const before = await count();
    await post({ customerId: uniqueId('bad'), email: 'not-an-email' });
    // The create is one statement with its event: the unique constraint refuses both.
    expect((await post({ customerId: taken, name: 'Again' })).status).toBe(409);
    expect(Number((await count()).n)).toBe(Number(before.n));
  });
});
