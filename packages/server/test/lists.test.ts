import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { commerceSeller, createCustomer, insertOrder, insertSubscription, type Seller, type TestCustomer } from './commerce-factory.js';
import { shop } from './commerce-support.js';
import { startTestServer, uniqueId, type TestOrg, type TestServer } from './harness.js';

/**
 * Billow's list extension for the dashboard (decision 0079): search, sort and order on the
 * lists of customers, subscriptions, orders, invoices and credit notes, paged as before;
 * bad parameters refused with a detail; nothing of another organization or environment.
 */
let server: TestServer;
let org: TestOrg;
let other: TestOrg;
let seller: Seller;
let second: Seller;
let production: Seller;
let foreign: Seller;
const tag = uniqueId('lst').replace(/-/g, '');
const people: TestCustomer[] = [];

const get = (path: string, key = seller.key, api = seller.api) => server.request('GET', `${api}${path}`, { key });
const ids = (body: { results: { customerId?: string; id: string }[] }) => body.results.map((r) => r.customerId ?? r.id);

beforeAll(async () => {
  server = await startTestServer();
  org = await server.createOrg();
  other = await server.createOrg();
  seller = await commerceSeller(server, org, 'sandbox');
  second = await commerceSeller(server, org, 'sandbox');
  production = await commerceSeller(server, org, 'production');
  foreign = await commerceSeller(server, other, 'sandbox');
  // Three customers of the sandbox, created in this order; names and emails sort differently from it.
  for (const [name, email] of [
    ['Charlie Brown', `zed.${tag}@example.com`],
    ['alice Archer', `mike.${tag}@example.com`],
    ['Bob Builder', `adam.${tag}@example.com`],
  ] as const) {
    people.push(await createCustomer(seller, { customerId: `${tag}-${people.length}`, name, email }));
  }
  // Look-alikes elsewhere: production of the same organization, and another organization.
  await createCustomer(production, { customerId: `${tag}-prod`, name: 'Alice Production', email: `alice.${tag}@example.com` });
  await createCustomer(foreign, { customerId: `${tag}-foreign`, name: 'Alice Foreign', email: `alice2.${tag}@example.com` });
});
afterAll(() => server.close());

describe('customers', () => {
  it('searches name, email and customerId anywhere, in any case, only in its own environment', async () => {
    expect(ids((await get(`/customers/?search=ALICE`)).body).filter((id) => id.startsWith(tag))).toEqual([`${tag}-1`]);
    expect(ids((await get(`/customers/?search=mike.${tag}`)).body)).toEqual([`${tag}-1`]);
    expect(ids((await get(`/customers/?search=${tag}-2`)).body)).toEqual([`${tag}-2`]);
    const all = await get(`/customers/?search=${tag}`);
    expect(all.body.count).toBe(3);
    expect(ids(all.body)).toEqual([`${tag}-2`, `${tag}-1`, `${tag}-0`]);
    // The production key sees only production's look-alike; the other organization only its own.
    expect(ids((await get(`/customers/?search=${tag}`, production.key, production.api)).body)).toEqual([`${tag}-prod`]);
    expect(ids((await get(`/customers/?search=${tag}`, foreign.key, foreign.api)).body)).toEqual([`${tag}-foreign`]);
  });

  it('sorts by name, email, customerId and creation, in either order', async () => {
    const sorted = async (query: string) => ids((await get(`/customers/?search=${tag}&${query}`)).body);
    expect(await sorted('sort=email')).toEqual([`${tag}-2`, `${tag}-1`, `${tag}-0`]);
    expect(await sorted('sort=email&order=desc')).toEqual([`${tag}-0`, `${tag}-1`, `${tag}-2`]);
    expect(await sorted('sort=customerId')).toEqual([`${tag}-0`, `${tag}-1`, `${tag}-2`]);
    expect(await sorted('sort=createdOn')).toEqual([`${tag}-2`, `${tag}-1`, `${tag}-0`]);
    expect(await sorted('sort=createdOn&order=asc')).toEqual([`${tag}-0`, `${tag}-1`, `${tag}-2`]);
    const byName = await sorted('sort=name');
    expect(byName.indexOf(`${tag}-2`)).toBeLessThan(byName.indexOf(`${tag}-0`)); // Bob before Charlie
  });

  it('pages a sorted list, keeping search and sort in the links', async () => {
    const first = await get(`/customers/?search=${tag}&sort=email&page_size=2`);
    expect(first.body.count).toBe(3);
    expect(ids(first.body)).toEqual([`${tag}-2`, `${tag}-1`]);
    const next = new URL(first.body.next);
    expect(next.searchParams.get('sort')).toBe('email');
    expect(next.searchParams.get('search')).toBe(tag);
    const second = await server.request('GET', next.pathname + next.search, { key: seller.key });
    expect(ids(second.body)).toEqual([`${tag}-0`]);
    expect(second.body.next).toBeNull();
  });

  it('refuses bad parameters with a detail, and answers as before without them', async () => {
    const bad: Array<[string, RegExp]> = [
      ['sort=password', /sort must be one of createdOn, name, email, customerId/],
      ['sort=name&order=sideways', /order must be one of asc, desc/],
      ['order=asc', /order needs sort/],
      [`search=${'x'.repeat(201)}`, /search/],
      ['page=0', /page/],
      ['page_size=abc', /page_size/],
    ];
    for (const [query, detail] of bad) {
      const res = await get(`/customers/?${query}`);
      expect(res.status, query).toBe(400);
      expect(res.body.detail, query).toMatch(detail);
    }
    const plain = await get('/customers/');
    expect(plain.status).toBe(200);
    expect(Object.keys(plain.body)).toEqual(['count', 'next', 'previous', 'results']);
  });
});

describe('subscriptions of every customer', () => {
  let subs: { id: string; customer: TestCustomer; seller: Seller }[];

  beforeAll(async () => {
    const [c0, c1, c2] = people as [TestCustomer, TestCustomer, TestCustomer];
    const day = (n: number) => new Date(Date.UTC(2026, 0, n));
    subs = [
      { id: await insertSubscription(seller, c0, day(1)), customer: c0, seller },
      { id: await insertSubscription(second, c1, day(2)), customer: c1, seller: second },
      { id: await insertSubscription(seller, c2, day(3)), customer: c2, seller },
    ];
    await server.database.db.updateTable('subscriptions').set({ status: 'past_due' }).where('id', '=', subs[2]!.id).execute();
    const elsewhere = await createCustomer(production, { customerId: uniqueId('prodsub') });
    await insertSubscription(production, elsewhere);
  });

  it('still needs customer_id without our parameters', async () => {
    const res = await get('/subscriptions/');
    expect(res.status).toBe(400);
    expect(res.body.detail).toBe('query parameter customer_id is required');
  });

  it("lists every customer's with a sort, filtered by status and plan, searched by customer", async () => {
    const mine = (body: { results: { id: string }[] }) => body.results.map((r) => r.id).filter((id) => subs.some((s) => s.id === id));
    const all = await get(`/subscriptions/?sort=createdOn&search=${tag}`);
    expect(all.status, all.text).toBe(200);
    expect(all.body.count).toBe(3);
    expect(mine(all.body)).toEqual([subs[2]!.id, subs[1]!.id, subs[0]!.id]);
    expect(mine((await get(`/subscriptions/?sort=createdOn&order=asc&search=${tag}`)).body)).toEqual([subs[0]!.id, subs[1]!.id, subs[2]!.id]);
    expect(mine((await get(`/subscriptions/?status=past_due&sort=createdOn&search=${tag}`)).body)).toEqual([subs[2]!.id]);
    expect(mine((await get(`/subscriptions/?plan=${second.plan.identifier}`)).body)).toEqual([subs[1]!.id]);
    expect(mine((await get(`/subscriptions/?plan=${seller.plan.id}&status=active`)).body)).toEqual([subs[0]!.id]);
    expect((await get(`/subscriptions/?plan=${second.plan.identifier}&search=zed.${tag}`)).body.count).toBe(0);
    expect(mine((await get(`/subscriptions/?search=mike.${tag}`)).body)).toEqual([subs[1]!.id]);
    expect((await get('/subscriptions/?plan=no-such-plan')).body).toMatchObject({ count: 0, results: [] });
  });

  it('never shows another environment or organization', async () => {
    const sandbox = await get('/subscriptions/?sort=createdOn&page_size=100');
    expect(sandbox.body.results.every((s: { customerId: string }) => !s.customerId.startsWith('prodsub'))).toBe(true);
    const foreignList = await get('/subscriptions/?sort=createdOn', foreign.key, foreign.api);
    expect(foreignList.body.count).toBe(0);
    expect((await get(`/subscriptions/?plan=${seller.plan.identifier}`, foreign.key, foreign.api)).body.count).toBe(0);
  });

  it('refuses bad parameters with a detail', async () => {
    for (const [query, detail] of [
      ['sort=amount', /sort must be one of createdOn, currentPeriodEnd/],
      ['sort=createdOn&status=paused', /status: "paused" is not one of/],
      ['plan=', /plan/],
    ] as const) {
      const res = await get(`/subscriptions/?${query}`);
      expect(res.status, query).toBe(400);
      expect(res.body.detail, query).toMatch(detail);
    }
  });
});

describe('orders and invoices', () => {
  let buyer: TestCustomer;
  const orders: string[] = [];
  const invoices: string[] = [];

  beforeAll(async () => {
    buyer = await createCustomer(seller, { customerId: uniqueId('orders'), name: 'Grace Hopper', email: `grace.${tag}@example.com` });
    for (const [total, day] of [
      [3000, 1],
      [1000, 2],
      [2000, 3],
    ] as const) {
      const inserted = await insertOrder(seller, buyer, { totalMinor: total, taxMinor: 0, createdAt: new Date(Date.UTC(2026, 1, day)) });
      orders.push(inserted.orderId);
      invoices.push(inserted.invoiceId);
    }
    await server.database.db.updateTable('invoices').set({ number: `${tag.toUpperCase()}-000042` }).where('id', '=', invoices[1]!).execute();
  });

  it('sorts orders by total, creation and payment; the default order is unchanged', async () => {
    const list = async (query: string) => ids((await get(`/orders/?customer_id=${buyer.customerId}&${query}`)).body);
    expect(await list('')).toEqual([orders[2], orders[1], orders[0]]);
    expect(await list('sort=total')).toEqual([orders[0], orders[2], orders[1]]);
    expect(await list('sort=total&order=asc')).toEqual([orders[1], orders[2], orders[0]]);
    expect(await list('sort=createdOn&order=asc')).toEqual([orders[0], orders[1], orders[2]]);
    expect(await list('sort=paidOn')).toEqual([orders[2], orders[1], orders[0]]);
    expect(ids((await get(`/orders/?search=grace.${tag}&sort=total&page_size=1&page=2`)).body)).toEqual([orders[2]]);
  });

  it('searches invoices by number and customer, and sorts them', async () => {
    expect(ids((await get(`/invoices/?search=${tag}-000042`)).body)).toEqual([invoices[1]]);
    expect(ids((await get(`/invoices/?search=grace.${tag}`)).body)).toEqual([invoices[2], invoices[1], invoices[0]]);
    expect(ids((await get(`/invoices/?search=GRACE.${tag}&sort=total&order=asc`)).body)).toEqual([invoices[1], invoices[2], invoices[0]]);
    expect(ids((await get(`/invoices/?customer_id=${buyer.customerId}&sort=issuedOn&order=asc`)).body)).toEqual(invoices);
    expect((await get(`/invoices/?search=grace.${tag}`, production.key, production.api)).body.count).toBe(0);
    expect((await get(`/invoices/?search=grace.${tag}`, foreign.key, foreign.api)).body.count).toBe(0);
    // By its id anywhere, in any case; an invoice both halves of the search find (its number and its customer) is listed once.
    expect(ids((await get(`/invoices/?search=${invoices[0]!.slice(-8).toLowerCase()}`)).body)).toEqual([invoices[0]]);
    await server.database.db.updateTable('invoices').set({ number: `GRACE.${tag.toUpperCase()}-7` }).where('id', '=', invoices[2]!).execute();
    const both = (await get(`/invoices/?search=grace.${tag}`)).body;
    expect([both.count, ids(both)]).toEqual([3, [invoices[2], invoices[1], invoices[0]]]);
  });

  it('refuses bad parameters with a detail', async () => {
    for (const [path, detail] of [
      ['/orders/?sort=customer', /sort must be one of paidOn, createdOn, total/],
      ['/orders/?order=desc', /order needs sort/],
      ['/invoices/?sort=amount', /sort must be one of issuedOn, total, number/],
      [`/invoices/?search=${'y'.repeat(201)}`, /search/],
      ['/credit-notes/?sort=reason', /sort must be one of issuedOn, total/],
    ] as const) {
      const res = await get(path);
      expect(res.status, path).toBe(400);
      expect(res.body.detail, path).toMatch(detail);
    }
  });
});

describe('credit notes', () => {
  it('searches by number and customer, sorts by total, within the environment', async () => {
    const s = await shop(server, org.sandbox.serverKey);
    const customerId = await s.customer({ name: 'Ada Credit', email: `ada.${tag}@example.com` });
    await s.card(customerId);
    for (const amountUnits of [100, 300]) {
      const charged = await s.call('POST', '/charges/', { planIdentifier: s.plans.lifetime, chargePeriod: 'ONE_TIME', customerId });
      expect(charged.status, charged.text).toBe(201);
      const order = (await s.call('GET', `/orders/?customer_id=${customerId}`)).body.results[0];
      const refunded = await s.call('POST', '/refunds/', { orderId: order.id, amountUnits });
      expect(refunded.status, refunded.text).toBe(200);
    }
    const notes = (await get(`/credit-notes/?search=ada.${tag}`)).body;
    expect(notes.count).toBe(2);
    const [newest, oldest] = notes.results as { id: string; number: string; amountTotalUnits: number }[];
    expect(ids((await get(`/credit-notes/?search=ada.${tag}&sort=total&order=asc`)).body)).toEqual([oldest!.id, newest!.id]);
    expect(ids((await get(`/credit-notes/?search=${encodeURIComponent(oldest!.number)}`)).body)).toEqual([oldest!.id]);
    expect((await get(`/credit-notes/?search=ada.${tag}`, foreign.key, foreign.api)).body.count).toBe(0);
  });
});
