import { createServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../server/src/lib/clock.js';
import { prefixOf, startTestServer, uniqueId, type TestOrg, type TestServer } from '../../server/test/harness.js';
import { Billow, BillowConflictError, BillowConnectionError, BillowError, type Customer, type Fetch } from '../src/index.js';

type Environment = 'sandbox' | 'production';
const environments: Environment[] = ['sandbox', 'production'];
const other = (environment: Environment): Environment => (environment === 'sandbox' ? 'production' : 'sandbox');

let server: TestServer;
let org: TestOrg;
const clock = new ManualClock(new Date());

beforeAll(async () => {
  server = await startTestServer({ clock });
  org = await server.createOrg();
});
afterAll(() => server.close());

const baseUrlOf = (environment: Environment) => `${server.url}${prefixOf(environment)}`;
const clientFor = (environment: Environment, apiKey = org[environment].serverKey) =>
  new Billow({ apiKey, baseUrl: baseUrlOf(environment) });

/** Resolves to the error a promise rejects with; fails the test when it resolves. */
async function failureOf(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected the call to fail, but it succeeded');
}

async function billowErrorOf(promise: Promise<unknown>): Promise<BillowError> {
  const error = await failureOf(promise);
  expect(error).toBeInstanceOf(BillowError);
  return error as BillowError;
}

interface Recorded {
  url: string;
  method: string;
  headers: Headers;
  body: string | null;
}

/** A fetch that passes requests on to the real one and keeps what was sent. */
function recordingFetch(): { fetch: Fetch; sent: Recorded[] } {
  const sent: Recorded[] = [];
  const fetch: Fetch = async (input, init) => {
    sent.push({
      url: String(input),
      method: init?.method ?? 'GET',
      headers: new Headers(init?.headers),
      body: typeof init?.body === 'string' ? init.body : null,
    });
    return globalThis.fetch(input, init);
  };
  return { fetch, sent };
}

describe.each(environments)('@billow/sdk customers in %s', (environment) => {
  let billow: Billow;
  beforeAll(() => {
    billow = clientFor(environment);
  });

  it('creates a customer and retrieves the same one', async () => {
    const customerId = uniqueId('sdk');
    const metadata = { plan_hint: 'pro', camelKey: 'x', nested: { innerCamel: 1, inner_snake: [{ deepKey: true }] } };
    const created = await billow.customers.create({
      customerId,
      name: 'Ada Lovelace',
      email: 'ada@example.com',
      metadata,
      billingAddress: { country: 'gb', line1: '12 St James Square', postalCode: 'SW1Y 4JH', city: 'London' },
    });

    expect(created).toEqual({
      id: expect.stringMatching(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/),
      customerId,
      name: 'Ada Lovelace',
      email: 'ada@example.com',
      details: {},
      metadata,
      billingAddress: { country: 'GB', line1: '12 St James Square', postalCode: 'SW1Y 4JH', city: 'London' },
      isArchived: false,
      createdOn: clock.now().toISOString(),
      modifiedOn: clock.now().toISOString(),
    });
    expect(await billow.customers.retrieve(customerId)).toEqual(created);
  });

  it('updates name, email and metadata, keeping the fields left out', async () => {
    const customerId = uniqueId('sdk-upd');
    const created = await billow.customers.create({ customerId, name: 'Old', email: 'old@example.com', metadata: { a: 1 } });
    clock.advance(1_000);

    const renamed = await billow.customers.update(customerId, { name: 'New' });
    expect(renamed).toMatchObject({ id: created.id, name: 'New', email: 'old@example.com', metadata: { a: 1 } });
    expect(renamed.modifiedOn).toBe(clock.now().toISOString());
    expect(renamed.createdOn).toBe(created.createdOn);

    const metadata = { utm_source: 'ads', firstSeen: '2025-01-01', deep: { some_key: { otherKey: [1, 2] } } };
    const changed = await billow.customers.update(customerId, { email: 'new@example.com', metadata });
    expect(changed).toMatchObject({ name: 'New', email: 'new@example.com' });
    expect(changed.metadata).toEqual(metadata);

    const cleared = await billow.customers.update(customerId, { metadata: null, name: null });
    expect(cleared).toMatchObject({ name: null, email: 'new@example.com', metadata: {} });
    expect(await billow.customers.retrieve(customerId)).toEqual(cleared);
  });

  it('lists newest first, in pages, and searches', async () => {
    const fresh = await server.createOrg();
    const client = new Billow({ apiKey: fresh[environment].serverKey, baseUrl: baseUrlOf(environment) });
    const made: Customer[] = [];
    for (const [customerId, name] of [['c-1', 'Grace Hopper'], ['c-2', 'Alan Turing'], ['c-3', 'Edsger Dijkstra']]) {
      clock.advance(1_000);
      made.push(await client.customers.create({ customerId: customerId!, name: name! }));
    }
    const ids = (customers: Customer[]) => customers.map((c) => c.customerId);

    const all = await client.customers.list();
    expect(all.count).toBe(3);
    expect(ids(all.results)).toEqual(['c-3', 'c-2', 'c-1']);
    expect(all.results[0]).toEqual(made[2]);
    expect(all.next).toBeNull();

    const first = await client.customers.list({ page_size: 2 });
    expect(ids(first.results)).toEqual(['c-3', 'c-2']);
    expect(first.count).toBe(3);
    expect(first.previous).toBeNull();
    expect(new URL(first.next!).searchParams.get('page')).toBe('2');

    const second = await client.customers.list({ page: 2, page_size: 2 });
    expect(ids(second.results)).toEqual(['c-1']);
    expect(second.next).toBeNull();
    expect(new URL(second.previous!).searchParams.get('page')).toBe('1');

    const found = await client.customers.list({ search: 'turing' });
    expect(ids(found.results)).toEqual(['c-2']);
    expect(found.count).toBe(1);

    // Billow's sort and order: by name (Alan, Edsger, Grace), and the other way round.
    expect(ids((await client.customers.list({ sort: 'name' })).results)).toEqual(['c-2', 'c-3', 'c-1']);
    expect(ids((await client.customers.list({ sort: 'name', order: 'desc', page_size: 1 })).results)).toEqual(['c-1']);
  });

  it('archives: the customer leaves the list and its customerId is retired', async () => {
    const customerId = uniqueId('sdk-arch');
    await billow.customers.create({ customerId });
    expect((await billow.customers.list({ search: customerId })).count).toBe(1);

    await expect(billow.customers.archive(customerId)).resolves.toBeUndefined();
    expect((await billow.customers.list({ search: customerId })).count).toBe(0);
    expect((await billow.customers.retrieve(customerId)).isArchived).toBe(true);

    const again = await billowErrorOf(billow.customers.archive(customerId));
    expect(again).toMatchObject({ status: 400, code: 'customer_archived' });
    const reuse = await billowErrorOf(billow.customers.create({ customerId }));
    expect(reuse).toMatchObject({ status: 409, code: 'customer_exists' });
    expect(reuse.detail).toContain('never reused');
  });

  it('encodes customerIds that hold spaces, +, &, = and non-ASCII letters', async () => {
    const { fetch, sent } = recordingFetch();
    const client = new Billow({ apiKey: org[environment].serverKey, baseUrl: baseUrlOf(environment), fetch });
    const customerId = `acme corp+eu &x=${uniqueId('y')} Zürich`;

    const created = await client.customers.create({ customerId, name: 'Acme' });
    expect(created.customerId).toBe(customerId);
    expect((await client.customers.retrieve(customerId)).id).toBe(created.id);
    expect((await client.customers.update(customerId, { name: 'Acme EU' })).name).toBe('Acme EU');
    await client.customers.archive(customerId);
    expect((await client.customers.retrieve(customerId)).isArchived).toBe(true);

    const itemUrl = sent.find((r) => r.method === 'GET')!.url;
    expect(itemUrl).toBe(`${baseUrlOf(environment)}/api/v1/customers/${encodeURIComponent(customerId)}/`);
  });

  it('surfaces the refusal of a customerId no URL path could carry', async () => {
    const client = new Billow({ apiKey: org[environment].serverKey, baseUrl: baseUrlOf(environment) });
    await expect(client.customers.create({ customerId: 'eu/acme' })).rejects.toMatchObject({
      status: 400,
      code: 'validation_error',
    });
  });

  it('sends the key, JSON and the idempotency key, and no body on reads', async () => {
    const { fetch, sent } = recordingFetch();
    const client = new Billow({ apiKey: org[environment].serverKey, baseUrl: `${baseUrlOf(environment)}/`, fetch });
    const customerId = uniqueId('sdk-wire');
    await client.customers.create({ customerId, metadata: { camelKey: 1 } }, { idempotencyKey: `idem-${customerId}` });
    await client.customers.list({ page: 1, page_size: 5, search: customerId });

    const [post, get] = sent;
    expect(post!.url).toBe(`${baseUrlOf(environment)}/api/v1/customers/`);
    expect(post!.headers.get('authorization')).toBe(`Bearer ${org[environment].serverKey}`);
    expect(post!.headers.get('content-type')).toBe('application/json');
    expect(post!.headers.get('idempotency-key')).toBe(`idem-${customerId}`);
    expect(JSON.parse(post!.body!)).toEqual({ customerId, metadata: { camelKey: 1 } });
    const query = new URL(get!.url).searchParams;
    expect(Object.fromEntries(query)).toEqual({ page: '1', page_size: '5', search: customerId });
    expect(get!.body).toBeNull();
    expect(get!.headers.has('content-type')).toBe(false);
  });

  it('replays an idempotent create and refuses the key with another body', async () => {
    const customerId = uniqueId('sdk-idem');
    const idempotencyKey = uniqueId('key');
    const first = await billow.customers.create({ customerId, name: 'Once' }, { idempotencyKey });
    const replay = await billow.customers.create({ customerId, name: 'Once' }, { idempotencyKey });
    expect(replay).toEqual(first);
    expect((await billow.customers.list({ search: customerId })).count).toBe(1);

    const reused = await billowErrorOf(
      billow.customers.create({ customerId: uniqueId('sdk-idem'), name: 'Other' }, { idempotencyKey }),
    );
    expect(reused).toMatchObject({ status: 409, code: 'idempotency_key_reused' });

    const duplicate = await billowErrorOf(billow.customers.create({ customerId, name: 'Once' }));
    expect(duplicate.code).toBe('customer_exists');
  });

  it("raises BillowError with Billow's status, code and detail", async () => {
    const customerId = uniqueId('sdk-err');
    await billow.customers.create({ customerId });

    const duplicate = await billowErrorOf(billow.customers.create({ customerId }));
    expect(duplicate).toMatchObject({ status: 409, code: 'customer_exists', name: 'BillowConflictError' });
    expect(duplicate).toBeInstanceOf(BillowConflictError);
    expect(duplicate.detail).toBe(`A customer with customerId "${customerId}" already exists`);
    expect(duplicate.message).toContain(duplicate.detail);
    expect(duplicate.requestId).toBeTruthy();

    const invalid = await billowErrorOf(billow.customers.create({ customerId: uniqueId('x'), email: 'not-an-email' }));
    expect(invalid).toMatchObject({ status: 400, code: 'validation_error' });
    expect(invalid.detail).toContain('email');

    const missing = await billowErrorOf(billow.customers.retrieve('nobody-here'));
    expect(missing).toMatchObject({ status: 404, code: 'customer_not_found' });
    expect(missing.detail).toContain('nobody-here');

    const updateMissing = await billowErrorOf(billow.customers.update('nobody-here', { name: 'x' }));
    expect(updateMissing.status).toBe(404);
  });

  it(`keeps ${environment} customers out of ${other(environment)}`, async () => {
    const customerId = uniqueId('sdk-iso');
    await billow.customers.create({ customerId });
    const elsewhere = clientFor(other(environment));
    expect((await billowErrorOf(elsewhere.customers.retrieve(customerId))).status).toBe(404);
    expect((await elsewhere.customers.list({ search: customerId })).count).toBe(0);
    // The same customerId is free in the other environment.
    expect((await elsewhere.customers.create({ customerId })).customerId).toBe(customerId);
  });

  it('refuses keys of the other environment (401), client keys (403) and unknown keys (401)', async () => {
    const wrongEnvironment = await billowErrorOf(
      clientFor(environment, org[other(environment)].serverKey).customers.list(),
    );
    expect(wrongEnvironment).toMatchObject({ status: 401, code: 'unauthorized' });
    expect(wrongEnvironment.detail).toContain(other(environment));

    const clientKey = await billowErrorOf(clientFor(environment, org[environment].clientKey).customers.list());
    expect(clientKey).toMatchObject({ status: 403, code: 'forbidden' });

    const unknown = await billowErrorOf(clientFor(environment, 'sk_test_nope').customers.list());
    expect(unknown).toMatchObject({ status: 401, code: 'unauthorized' });
  });
});

describe('@billow/sdk transport', () => {
  const key = 'sk_test_whatever';

  it('gives up after timeoutMs with a BillowConnectionError', async () => {
    const hanging: Fetch = (_input, init) =>
      new Promise((_resolve, reject) => {
        init?.signal?.addEventListener('abort', () => reject(init.signal!.reason));
      });
    const billow = new Billow({ apiKey: key, baseUrl: 'http://billow.invalid', timeoutMs: 50, maxRetries: 0, fetch: hanging });
    const error = await failureOf(billow.customers.retrieve('c'));
    expect(error).toBeInstanceOf(BillowConnectionError);
    expect(error).toMatchObject({ timedOut: true });
    expect((error as Error).message).toContain('50 ms');
  });

  it('reports a server that cannot be reached', async () => {
    const port = await new Promise<number>((resolve) => {
      const probe = createServer().listen(0, '127.0.0.1', () => {
        const address = probe.address();
        probe.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
      });
    });
    const billow = new Billow({ apiKey: key, baseUrl: `http://127.0.0.1:${port}`, maxRetries: 0 });
    const error = await failureOf(billow.customers.list());
    expect(error).toBeInstanceOf(BillowConnectionError);
    expect(error).toMatchObject({ timedOut: false });
  });

  it('turns an error page that is not from Billow into a BillowError', async () => {
    const proxy: Fetch = async () => new Response('<html>502 Bad Gateway</html>', { status: 502 });
    const billow = new Billow({ apiKey: key, baseUrl: 'http://billow.invalid', maxRetries: 0, fetch: proxy });
    const error = await billowErrorOf(billow.customers.list());
    expect(error).toMatchObject({ status: 502, code: 'http_error' });
    expect(error.detail).toContain('502 Bad Gateway');
  });

  it('refuses a success body that is not JSON', async () => {
    const odd: Fetch = async () => new Response('OK', { status: 200 });
    const billow = new Billow({ apiKey: key, baseUrl: 'http://billow.invalid', fetch: odd });
    expect(await billowErrorOf(billow.customers.retrieve('c'))).toMatchObject({ code: 'invalid_response' });
  });

  it.each(['', '.', '..'])('refuses the customerId %j, which would address the list instead', async (customerId) => {
    const calls: string[] = [];
    const spy: Fetch = async (input) => {
      calls.push(String(input));
      return new Response('{}', { status: 200 });
    };
    const billow = new Billow({ apiKey: key, baseUrl: 'http://billow.invalid', fetch: spy });
    await expect(billow.customers.retrieve(customerId)).rejects.toThrow(TypeError);
    await expect(billow.customers.update(customerId, { name: 'x' })).rejects.toThrow(/can't be addressed/);
    await expect(billow.customers.archive(customerId)).rejects.toThrow(TypeError);
    expect(calls).toEqual([]);
  });

  it('checks its options', () => {
    expect(() => new Billow({ apiKey: '', baseUrl: 'http://localhost:4000' })).toThrow(/apiKey/);
    expect(() => new Billow({ apiKey: key, baseUrl: 'localhost:4000' })).toThrow(/baseUrl/);
    expect(() => new Billow({ apiKey: key, baseUrl: 'http://localhost:4000/?env=x' })).toThrow(/baseUrl/);
    expect(() => new Billow({ apiKey: key, baseUrl: 'http://localhost:4000', timeoutMs: 0 })).toThrow(/timeoutMs/);
  });
});
