import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { commerceSeller, createCustomer, insertOrder, insertSubscription, type Seller } from './commerce-factory.js';
import { startTestServer, type TestServer } from './harness.js';

/**
 * Billow's capped count (decision 0089): `count=capped` counts a list exactly up to 10,000
 * rows, or to the end of the page asked, and says in `countCapped` whether there are more;
 * without it, the answer is the reference's, byte for byte (no `countCapped`).
 */
let server: TestServer;
let big: Seller;
let small: Seller;
const CUSTOMERS = 10_003;

const get = (seller: Seller, path: string) => server.request('GET', `${seller.api}${path}`, { key: seller.key });

beforeAll(async () => {
  server = await startTestServer();
  big = await commerceSeller(server, await server.createOrg(), 'sandbox');
  small = await commerceSeller(server, await server.createOrg(), 'sandbox');
  // More customers than the cap, a minute apart, in one statement.
  await sql`
    INSERT INTO customers (id, environment_id, customer_id, name, email, details, metadata, created_at, modified_at)
    SELECT gen_random_uuid(), ${big.environmentId}, 'cap-' || n, 'Capped ' || n, 'cap' || n || '@example.com', '{}'::jsonb, '{}'::jsonb,
           now() - n * interval '1 minute', now() - n * interval '1 minute'
      FROM generate_series(1, ${CUSTOMERS}::int) AS n`.execute(server.database.db);
  // A few of everything in the small environment.
  for (let i = 0; i < 3; i++) {
    const customer = await createCustomer(small);
    const subscriptionId = await insertSubscription(small, customer);
    const { orderId } = await insertOrder(small, customer, { subscriptionId, totalMinor: 1000 + i });
    // A part refunded: a refund, its credit note and a REFUND transaction beside the CHARGE.
    const refund = await server.request('POST', `${small.api}/refunds/`, { key: small.key, body: { orderId, amountUnits: 100 } });
    if (refund.status !== 200) throw new Error(`refund: ${refund.status} ${refund.text}`);
  }
}, 60_000);
afterAll(() => server.close());

describe('a list longer than the cap', () => {
  it('counts up to 10,000 and says there are more, with a link to the next page', async () => {
    const res = await get(big, '/customers/?count=capped');
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ count: 10_000, countCapped: true, previous: null });
    expect(res.body.next).toContain('page=2');
    expect(res.body.next).toContain('count=capped');
    expect(res.body.results).toHaveLength(10);
  });

  it('still knows there is a next page on the last page within the cap', async () => {
    const res = await get(big, '/customers/?count=capped&page=1000');
    expect(res.body).toMatchObject({ count: 10_000, countCapped: true });
    expect(res.body.results).toHaveLength(10);
    expect(res.body.next).toContain('page=1001');
  });

  it('counts to the end of a page asked past the cap, exactly once the end is near', async () => {
    const deep = await get(big, '/customers/?count=capped&page=1001');
    // The count read up to 10,010 rows: there are 10,003, all counted. Newest first: the first made come last.
    expect(deep.body).toMatchObject({ count: CUSTOMERS, countCapped: false, next: null });
    expect(deep.body.results.map((c: { customerId: string }) => c.customerId)).toEqual(['cap-3', 'cap-2', 'cap-1']);
    const wide = await get(big, '/customers/?count=capped&page=101&page_size=100');
    expect(wide.body).toMatchObject({ count: CUSTOMERS, countCapped: false, next: null });
    expect(wide.body.results).toHaveLength(3);
  });

  it('keeps capping a search, and counts exactly without count=capped, as the reference does', async () => {
    // 'cap1' matches cap1, cap10..cap19, cap100.., cap1000..: 1 + 10 + 100 + 1000 + 4 (10000-10003) = 1115.
    const search = await get(big, '/customers/?count=capped&search=cap1');
    expect(search.body).toMatchObject({ count: 1115, countCapped: false });
    const exact = await get(big, '/customers/');
    expect(exact.body.count).toBe(CUSTOMERS);
    expect(Object.keys(exact.body)).toEqual(['count', 'next', 'previous', 'results']);
    expect((await get(big, '/customers/?count=exact')).body).not.toHaveProperty('countCapped');
  });
});

describe('the lists of the dashboard', () => {
  it.each([
    ['/customers/', 3],
    ['/orders/', 3],
    ['/invoices/', 3],
    ['/subscriptions/?sort=createdOn', 3],
    ['/credit-notes/', 3],
    ['/refunds/', 3],
    ['/transaction/', 6],
  ])('%s: a short list counts exactly either way', async (path, rows) => {
    const join = path.includes('?') ? '&' : '?';
    const reference = await get(small, path);
    const capped = await get(small, `${path}${join}count=capped`);
    expect(reference.status, reference.text).toBe(200);
    expect(capped.status, capped.text).toBe(200);
    expect(reference.body.count).toBe(rows);
    expect(reference.body).not.toHaveProperty('countCapped');
    expect(capped.body).toMatchObject({ count: rows, countCapped: false, next: null });
    expect(capped.body.results).toEqual(reference.body.results);
  });

  it('refuses a count it does not know, with a detail', async () => {
    for (const path of ['/orders/', '/credit-notes/', '/refunds/', '/transaction/']) {
      const res = await get(small, `${path}?count=estimate`);
      expect(res.status, path).toBe(400);
      expect(res.body.detail).toMatch(/count/);
    }
  });

  it('pages the credit notes and refunds with count=capped to the end of a short list', async () => {
    // A page asked far past a short list: the count reads to the end of that page and finds the three.
    for (const path of ['/credit-notes/', '/refunds/']) {
      const res = await get(small, `${path}?count=capped&page=2&page_size=2`);
      expect(res.body, path).toMatchObject({ count: 3, countCapped: false, next: null });
      expect(res.body.results).toHaveLength(1);
      expect(res.body.previous).toContain('count=capped');
    }
  });
});
