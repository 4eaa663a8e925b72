import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  AuthenticationError,
  InvalidRequestError,
  NotFoundError,
  type CustomerResponse,
  type Kelviq,
} from '@kelviq/node-sdk';
import { ManualClock } from '../src/lib/clock.js';
import { prefixOf, startTestServer, uniqueId, type TestOrg, type TestServer } from './harness.js';
import { failureOf, officialClient } from './official-client-support.js';

// Billow driven through the unmodified official client, @kelviq/node-sdk 2.6.0.

type Environment = 'sandbox' | 'production';
const environments: Environment[] = ['sandbox', 'production'];
const other = (environment: Environment): Environment => (environment === 'sandbox' ? 'production' : 'sandbox');

const ARCHIVED_MESSAGE = 'Operation completed successfully (204 No Content).';

let server: TestServer;
let org: TestOrg;
const clock = new ManualClock(new Date());

beforeAll(async () => {
  server = await startTestServer({ clock });
  org = await server.createOrg();
});
afterAll(() => server.close());

const kelviq = (environment: Environment, accessToken: string) => officialClient(server, accessToken, environment);

describe.each(environments)('@kelviq/node-sdk customers against Billow %s', (environment) => {
  let client: Kelviq;
  beforeAll(() => {
    client = kelviq(environment, org[environment].serverKey);
  });

  it('creates a customer, and retrieve returns the same one', async () => {
    const customerId = uniqueId('kq');
    const metadata = { plan_hint: 'pro', signupSource: 'web', nested: { someKey: 1, other_key: [{ innerCamel: true }] } };
    const created = await client.customers.create({ customerId, name: 'Ada Lovelace', email: 'ada@example.com', metadata });

    expect(created).toEqual({
      id: expect.stringMatching(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/),
      customerId,
      name: 'Ada Lovelace',
      email: 'ada@example.com',
      details: {},
      metadata,
      billingAddress: null,
      isArchived: false,
      createdOn: clock.now().toISOString(),
      modifiedOn: clock.now().toISOString(),
    });
    expect(await client.customers.retrieve({ customerId })).toEqual(created);
  });

  it('creates with only a customerId', async () => {
    const customerId = uniqueId('kq-bare');
    const created = await client.customers.create({ customerId });
    expect(created).toMatchObject({ customerId, name: null, email: null, metadata: {} });
  });

  it('updates name, email and metadata, keeping metadata keys exactly as sent', async () => {
    const customerId = uniqueId('kq-upd');
    const created = await client.customers.create({ customerId, name: 'Old', email: 'old@example.com', metadata: { a: 1 } });
    clock.advance(1_000);

    const renamed = await client.customers.update({ customerId, name: 'New Name' });
    expect(renamed).toMatchObject({ id: created.id, name: 'New Name', email: 'old@example.com', metadata: { a: 1 } });
    expect(renamed.createdOn).toBe(created.createdOn);
    expect(renamed.modifiedOn).toBe(clock.now().toISOString());

    const metadata = {
      utm_source: 'newsletter',
      accountManager: 'Grace',
      HTTPHeader: 'x',
      nested: { camelCaseKey: 1, snake_case_key: { deeperCamel: [{ listItemKey: 'v' }] } },
    };
    const changed = await client.customers.update({ customerId, email: 'new@example.com', metadata });
    expect(changed).toMatchObject({ id: created.id, name: 'New Name', email: 'new@example.com' });
    expect(changed.metadata).toEqual(metadata);

    expect(await client.customers.retrieve({ customerId })).toEqual(changed);
  });

  it('lists newest first, and pages with page and pageSize', async () => {
    const fresh = await server.createOrg();
    const lister = kelviq(environment, fresh[environment].serverKey);
    const made: CustomerResponse[] = [];
    for (const customerId of ['first', 'second', 'third']) {
      clock.advance(1_000);
      made.push(await lister.customers.create({ customerId, email: `${customerId}@example.com` }));
    }
    const ids = (customers: CustomerResponse[]) => customers.map((c) => c.customerId);

    const all = await lister.customers.list();
    expect(all).toMatchObject({ count: 3, next: null, previous: null });
    expect(all.results).toEqual([made[2], made[1], made[0]]);

    const page1 = await lister.customers.list({ page: 1, pageSize: 2 });
    expect(page1.count).toBe(3);
    expect(ids(page1.results)).toEqual(['third', 'second']);
    expect(page1.previous).toBeNull();
    const next = new URL(page1.next!);
    expect(next.pathname).toBe(`${prefixOf(environment)}/api/v1/customers/`);
    expect(next.searchParams.get('page')).toBe('2');
    expect(next.searchParams.get('page_size')).toBe('2');

    const page2 = await lister.customers.list({ page: 2, pageSize: 2 });
    expect(ids(page2.results)).toEqual(['first']);
    expect(page2.next).toBeNull();
    expect(new URL(page2.previous!).searchParams.get('page')).toBe('1');

    const pastTheEnd = await lister.customers.list({ page: 3, pageSize: 2 });
    expect(pastTheEnd).toMatchObject({ count: 3, results: [] });
  });

  it('archives: resolves with the synthetic message and the customer leaves the list', async () => {
    const fresh = await server.createOrg();
    const archiver = kelviq(environment, fresh[environment].serverKey);
    await archiver.customers.create({ customerId: 'stays' });
    await archiver.customers.create({ customerId: 'goes' });

    await expect(archiver.customers.archive({ customerId: 'goes' })).resolves.toEqual({ message: ARCHIVED_MESSAGE });

    const list = await archiver.customers.list();
    expect(list.count).toBe(1);
    expect(list.results.map((c) => c.customerId)).toEqual(['stays']);
    expect(await archiver.customers.retrieve({ customerId: 'goes' })).toMatchObject({ isArchived: true });

    const twice = await failureOf(archiver.customers.archive({ customerId: 'goes' }));
    expect(twice).toBeInstanceOf(InvalidRequestError);
    expect(twice.message).toContain('already archived');
    const reuse = await failureOf(archiver.customers.create({ customerId: 'goes' }));
    expect(reuse.statusCode).toBe(409);
    expect(reuse.message).toContain('never reused');
  });

  it("surfaces Billow's detail as the error message", async () => {
    const customerId = uniqueId('kq-dup');
    await client.customers.create({ customerId, name: 'First' });

    const duplicate = await failureOf(client.customers.create({ customerId, name: 'Second' }));
    expect(duplicate.statusCode).toBe(409);
    expect(duplicate.message).toBe(`A customer with customerId "${customerId}" already exists`);
    expect(duplicate.details).toEqual({ detail: duplicate.message, code: 'customer_exists' });
    expect((await client.customers.retrieve({ customerId })).name).toBe('First');

    const invalid = await failureOf(client.customers.create({ customerId: uniqueId('kq'), email: 'not-an-email' }));
    expect(invalid).toBeInstanceOf(InvalidRequestError);
    expect(invalid.statusCode).toBe(400);
    expect(invalid.message).toContain('email');

    const missing = await failureOf(client.customers.retrieve({ customerId: 'nobody-here' }));
    expect(missing).toBeInstanceOf(NotFoundError);
    expect(missing.message).toBe('No customer with customerId "nobody-here"');

    const updateMissing = await failureOf(client.customers.update({ customerId: 'nobody-here', name: 'x' }));
    expect(updateMissing).toBeInstanceOf(NotFoundError);
  });

  it(`keeps ${environment} customers out of ${other(environment)}`, async () => {
    const customerId = uniqueId('kq-iso');
    await client.customers.create({ customerId });
    const elsewhere = kelviq(other(environment), org[other(environment)].serverKey);

    const missing = await failureOf(elsewhere.customers.retrieve({ customerId }));
    expect(missing).toBeInstanceOf(NotFoundError);
    expect(missing.statusCode).toBe(404);
    const all = await elsewhere.customers.list({ pageSize: 100 });
    expect(all.results.map((c) => c.customerId)).not.toContain(customerId);
  });

  it(`refuses a ${other(environment)} key, a client key and an unknown key`, async () => {
    const wrongKey = kelviq(environment, org[other(environment)].serverKey);
    const wrongEnvironment = await failureOf(wrongKey.customers.list());
    expect(wrongEnvironment).toBeInstanceOf(AuthenticationError);
    expect(wrongEnvironment.statusCode).toBe(401);
    expect(wrongEnvironment.message).toContain(`belongs to the ${other(environment)} environment`);
    await expect(wrongKey.customers.create({ customerId: uniqueId('kq') })).rejects.toBeInstanceOf(AuthenticationError);

    const clientKey = await failureOf(kelviq(environment, org[environment].clientKey).customers.list());
    expect(clientKey).toBeInstanceOf(AuthenticationError);
    expect(clientKey.statusCode).toBe(403);

    const unknown = await failureOf(kelviq(environment, 'sk_live_unknown').customers.list());
    expect(unknown).toBeInstanceOf(AuthenticationError);
    expect(unknown.statusCode).toBe(401);
  });
});
