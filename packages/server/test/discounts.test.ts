/**
 * Discounts (issue 13, item 4): the management API (ours), and what the checkout and
 * the billing engine use of it: a code resolved against what is bought, redemptions
 * counted exactly once under concurrency (two pools on PostgreSQL), and the cycles a
 * subscription's discount has left for its renewals.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle, Db } from '../src/db/connect.js';
import { inTransaction } from '../src/db/transaction.js';
import { statusOf } from '../src/http/errors.js';
import { DomainError } from '../src/lib/domain-error.js';
import {
  discountAmountMinor,
  discountForRenewal,
  peekDiscountForRenewal,
  redeemDiscount,
  resolveDiscountCode,
  type DiscountContext,
} from '../src/modules/discounts/queries.js';
import { CARDS, shop, type Shop } from './commerce-support.js';
import { environmentIdOf, openTestDatabase, startTestServer, uniqueId, type TestOrg, type TestServer } from './harness.js';

const ON_POSTGRES = Boolean(process.env.DATABASE_URL);
const HOUR = 3_600_000;

let server: TestServer;
let org: TestOrg;
let s: Shop;
let sandboxId: string;
let otherDatabase: DatabaseHandle | null = null;
let db: Db;
/** A second pool on PostgreSQL, as another process would have; PGlite is one database in this process. */
let otherDb: Db;

beforeAll(async () => {
  server = await startTestServer();
  org = await server.createOrg();
  s = await shop(server, org.sandbox.serverKey);
  sandboxId = await environmentIdOf(server, org.organizationId, 'sandbox');
  db = server.database.db;
  otherDatabase = ON_POSTGRES ? await openTestDatabase() : null;
  otherDb = otherDatabase?.db ?? db;
});
afterAll(async () => {
  await otherDatabase?.close();
  await server?.close();
});

const api = (method: string, path: string, body?: unknown, key = org.sandbox.serverKey, prefix = '/sandbox') =>
  server.request(method, `${prefix}/api/v1${path}`, { key, ...(body !== undefined ? { body } : {}) });

function expectStatus(res: { status: number; text: string }, status: number): void {
  expect(res.status, res.text).toBe(status);
}

async function create(body: Record<string, unknown>, key?: string, prefix?: string) {
  const res = await api('POST', '/discounts/', { name: uniqueId('Sale'), ...body }, key, prefix);
  expectStatus(res, 201);
  return res.body;
}

const percentOff = (extra: Record<string, unknown> = {}) => create({ discountType: 'PERCENTAGE', percentOff: 10, ...extra });

/** Where a DomainError thrown by `work` says it came from: [status, code]. */
async function refusal(work: Promise<unknown>): Promise<[number, string, string]> {
  try {
    await work;
  } catch (error) {
    if (error instanceof DomainError) return [statusOf(error), error.code, error.detail];
    throw error;
  }
  throw new Error('expected a refusal');
}

const resolve = (code: string, context: Partial<DiscountContext> = {}) =>
  resolveDiscountCode(db, sandboxId, code, { now: new Date(), ...context });

async function customerUuid(): Promise<string> {
  const customerId = await s.customer();
  const res = await api('GET', `/customers/${customerId}/`);
  return res.body.id;
}

describe('the management API', () => {
  it('creates a percentage discount with a generated code, found by id and by its code in any case', async () => {
    const discount = await percentOff({ percentOff: 12.5, metadata: { campaign: 'autumn' } });
    expect(discount).toMatchObject({
      object: 'discount',
      status: 'ACTIVE',
      discountType: 'PERCENTAGE',
      percentOff: 12.5,
      amountsOff: [],
      duration: 'FOREVER',
      durationInCycles: null,
      maxRedemptions: null,
      timesRedeemed: 0,
      expiresAt: null,
      restrictions: { planIdentifiers: [], productIds: [] },
      metadata: { campaign: 'autumn' },
      archivedAt: null,
    });
    expect(discount.code).toMatch(/^[A-Z0-9]{8}$/);
    const row = await db.selectFrom('discounts').select(['percent_off_bp']).where('id', '=', discount.id).executeTakeFirstOrThrow();
    expect(row.percent_off_bp).toBe(1250);
    expect((await api('GET', `/discounts/${discount.id}/`)).body).toEqual(discount);
    expect((await api('GET', `/discounts/${discount.code.toLowerCase()}/`)).body).toEqual(discount);
  });

  it('stores a fixed amount per currency as integer minor units', async () => {
    const discount = await create({
      discountType: 'FIXED_AMOUNT',
      amountsOff: [{ currency: 'usd', amount: 5.5 }, { currency: 'JPY', amount: 500 }, { currency: 'BHD', amount: 1.125 }],
      duration: 'ONCE',
    });
    expect(discount.amountsOff).toEqual([
      { currency: 'BHD', amount: 1.125, amountUnits: 1125 },
      { currency: 'JPY', amount: 500, amountUnits: 500 },
      { currency: 'USD', amount: 5.5, amountUnits: 550 },
    ]);
    expect(discount).toMatchObject({ percentOff: null, duration: 'ONCE', durationInCycles: null });
    const rows = await db.selectFrom('discount_amounts').selectAll().where('discount_id', '=', discount.id).orderBy('currency').execute();
    expect(rows.map((r) => [r.currency, r.amount_minor])).toEqual([['BHD', 1125], ['JPY', 500], ['USD', 550]]);
  });

  it('takes REPEATING for a count of cycles, FOREVER by default ("recurring" on), a limit, an expiry and restrictions', async () => {
    const expiresAt = new Date(Date.now() + 30 * 24 * HOUR).toISOString();
    const discount = await percentOff({
      code: uniqueId('Intro'),
      durationInCycles: 3,
      maxRedemptions: 100,
      expiresAt,
      restrictions: { planIdentifiers: [s.plans.basic, s.plans.basic], productIds: [s.product.identifier] },
    });
    expect(discount).toMatchObject({
      duration: 'REPEATING',
      durationInCycles: 3,
      maxRedemptions: 100,
      expiresAt,
      restrictions: { planIdentifiers: [s.plans.basic], productIds: [s.product.id] },
    });
  });

  it('takes the snake_case spelling of every field, and keeps metadata as sent', async () => {
    const res = await api('POST', '/discounts/', {
      name: 'Snake',
      discount_type: 'FIXED_AMOUNT',
      amounts_off: [{ currency: 'EUR', amount: 2 }],
      duration: 'REPEATING',
      duration_in_cycles: 2,
      max_redemptions: 5,
      restrictions: { plan_identifiers: [s.plans.pro] },
      metadata: { some_key: { inner_key: 1 } },
    });
    expectStatus(res, 201);
    expect(res.body).toMatchObject({
      discountType: 'FIXED_AMOUNT',
      amountsOff: [{ currency: 'EUR', amount: 2, amountUnits: 200 }],
      durationInCycles: 2,
      maxRedemptions: 5,
      restrictions: { planIdentifiers: [s.plans.pro] },
      metadata: { some_key: { inner_key: 1 } },
    });
  });

  it('keeps codes unique per environment without regard to case, until the holder is archived', async () => {
    const code = uniqueId('Dup');
    const first = await percentOff({ code });
    const clash = await api('POST', '/discounts/', { name: 'Again', code: code.toUpperCase(), discountType: 'PERCENTAGE', percentOff: 5 });
    expectStatus(clash, 409);
    expect(clash.body).toMatchObject({ code: 'discount_code_taken' });
    expect(clash.body.detail).toContain(code.toUpperCase());

    const archived = await api('POST', `/discounts/${first.id}/archive/`);
    expectStatus(archived, 200);
    expect(archived.body).toMatchObject({ id: first.id, status: 'ARCHIVED' });
    const again = await api('POST', `/discounts/${first.id}/archive/`);
    expect(again.body.archivedAt).toBe(archived.body.archivedAt);

    const second = await percentOff({ code: code.toUpperCase() });
    // By code: the live one first, the archived one still reachable by id.
    expect((await api('GET', `/discounts/${code}/`)).body.id).toBe(second.id);
    expect((await api('GET', `/discounts/${first.id}/`)).body.status).toBe('ARCHIVED');
  });

  it('refuses every invalid field with a 400 and a detail, creating nothing', async () => {
    const archivedPlan = await s.api.plan(s.product.id, { name: uniqueId('Gone') });
    expectStatus(await api('DELETE', `/catalog/plans/${archivedPlan.identifier}/`), 204);
    const percent = { name: 'Bad', discountType: 'PERCENTAGE', percentOff: 10 };
    const fixedUsd = { name: 'Bad', discountType: 'FIXED_AMOUNT' };
    const cases: Array<[string, Record<string, unknown>, RegExp]> = [
      ['no name', { discountType: 'PERCENTAGE', percentOff: 10 }, /name is required/],
      ['a blank name', { ...percent, name: '   ' }, /name must not be blank/],
      ['an unknown type', { ...percent, discountType: 'BOGOF' }, /discountType must be one of/],
      ['0 %', { ...percent, percentOff: 0 }, /percentOff/],
      ['over 100 %', { ...percent, percentOff: 100.01 }, /percentOff/],
      ['three decimals', { ...percent, percentOff: 12.345 }, /more than two decimal places/],
      ['a percentage as text', { ...percent, percentOff: '10' }, /percentOff/],
      ['no percentOff', { name: 'Bad', discountType: 'PERCENTAGE' }, /percentOff is required/],
      ['amounts on a percentage', { ...percent, amountsOff: [{ currency: 'USD', amount: 1 }] }, /amountsOff is for discountType FIXED_AMOUNT/],
      ['no amountsOff', fixedUsd, /amountsOff is required/],
      ['empty amountsOff', { ...fixedUsd, amountsOff: [] }, /amountsOff/],
      ['a percentage on a fixed amount', { ...fixedUsd, percentOff: 5, amountsOff: [{ currency: 'USD', amount: 1 }] }, /percentOff is for/],
      ['an unknown currency', { ...fixedUsd, amountsOff: [{ currency: 'XYZ', amount: 1 }] }, /not an ISO 4217/],
      ['a currency twice', { ...fixedUsd, amountsOff: [{ currency: 'USD', amount: 1 }, { currency: 'usd', amount: 2 }] }, /given twice/],
      ['a zero amount', { ...fixedUsd, amountsOff: [{ currency: 'USD', amount: 0 }] }, /amount/],
      ['a negative amount', { ...fixedUsd, amountsOff: [{ currency: 'USD', amount: -1 }] }, /amount/],
      ['cents of a cent', { ...fixedUsd, amountsOff: [{ currency: 'USD', amount: 1.234 }] }, /more than 2 decimal places/],
      ['decimals of yen', { ...fixedUsd, amountsOff: [{ currency: 'JPY', amount: 1.5 }] }, /whole number/],
      ['a huge amount', { ...fixedUsd, amountsOff: [{ currency: 'USD', amount: 1e20 }] }, /too large/],
      ['REPEATING without a count', { ...percent, duration: 'REPEATING' }, /durationInCycles is required/],
      ['a count on ONCE', { ...percent, duration: 'ONCE', durationInCycles: 2 }, /durationInCycles is for duration REPEATING/],
      ['a count on FOREVER', { ...percent, duration: 'FOREVER', durationInCycles: 2 }, /durationInCycles is for duration REPEATING/],
      ['0 cycles', { ...percent, durationInCycles: 0 }, /durationInCycles/],
      ['121 cycles', { ...percent, durationInCycles: 121 }, /durationInCycles/],
      ['an unknown duration', { ...percent, duration: 'SOMETIMES' }, /duration must be one of/],
      ['no redemptions', { ...percent, maxRedemptions: 0 }, /maxRedemptions/],
      ['half a redemption', { ...percent, maxRedemptions: 1.5 }, /maxRedemptions/],
      ['a past expiry', { ...percent, expiresAt: new Date(Date.now() - HOUR).toISOString() }, /must be in the future/],
      ['an expiry that is no date', { ...percent, expiresAt: 'tomorrow' }, /expiresAt/],
      ['an expiry in the year 3000', { ...percent, expiresAt: '3000-01-01T00:00:00Z' }, /before the year 3000/],
      ['an unknown plan', { ...percent, restrictions: { planIdentifiers: ['nope'] } }, /no plan "nope"/],
      ['an archived plan', { ...percent, restrictions: { planIdentifiers: [archivedPlan.identifier] } }, /no plan/],
      ['an unknown product', { ...percent, restrictions: { productIds: ['00000000-0000-4000-8000-000000000000'] } }, /no product/],
      ['an unknown restriction', { ...percent, restrictions: { countries: ['FR'] } }, /restrictions.countries is not a known field/],
      ['too much metadata', { ...percent, metadata: Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`k${i}`, i])) }, /metadata/],
      ['a short code', { ...percent, code: 'AB' }, /code/],
      ['a code with a space', { ...percent, code: 'NO SPACE' }, /code/],
      ['an unknown field', { ...percent, couponType: 'x' }, /couponType is not a known field/],
    ];
    const before = (await api('GET', '/discounts/?page_size=1')).body.count;
    for (const [label, body, detail] of cases) {
      const res = await api('POST', '/discounts/', body);
      expect(res.status, `${label}: ${res.text}`).toBe(400);
      expect(res.body.detail, label).toMatch(detail);
      expect(res.body.code, label).toBe('validation_error');
    }
    expect((await api('GET', '/discounts/?page_size=1')).body.count).toBe(before);
  });

  it('answers 404 for an unknown id or code, a UUID or not, on every route', async () => {
    for (const ref of ['00000000-0000-4000-8000-000000000000', 'nope', 'not-a-uuid-at-all', '%27%3B--']) {
      for (const [method, path] of [['GET', `/discounts/${ref}/`], ['POST', `/discounts/${ref}/archive/`]] as const) {
        const res = await api(method, path);
        expect(res.status, `${method} ${path}: ${res.text}`).toBe(404);
        expect(res.body.code).toBe('discount_not_found');
      }
    }
  });

  it('refuses a client key and a missing key', async () => {
    const client = await api('GET', '/discounts/', undefined, org.sandbox.clientKey);
    expectStatus(client, 403);
    const created = await api('POST', '/discounts/', { name: 'x', discountType: 'PERCENTAGE', percentOff: 1 }, org.sandbox.clientKey);
    expectStatus(created, 403);
    expectStatus(await server.request('GET', '/sandbox/api/v1/discounts/'), 401);
  });

  it('keeps each environment to itself: sandbox, production and another organization', async () => {
    const code = uniqueId('Iso');
    const sandbox = await percentOff({ code });
    const other = await server.createOrg();
    for (const [key, prefix] of [[org.production.serverKey, ''], [other.sandbox.serverKey, '/sandbox']] as const) {
      expectStatus(await api('GET', `/discounts/${sandbox.id}/`, undefined, key, prefix), 404);
      expectStatus(await api('GET', `/discounts/${code}/`, undefined, key, prefix), 404);
      expectStatus(await api('POST', `/discounts/${sandbox.id}/archive/`, undefined, key, prefix), 404);
      expect((await api('GET', `/discounts/?search=${code}`, undefined, key, prefix)).body.count).toBe(0);
      // The same code is free there.
      expect((await create({ code, discountType: 'PERCENTAGE', percentOff: 5 }, key, prefix)).code).toBe(code);
    }
    expect((await api('GET', `/discounts/${sandbox.id}/`)).body.status).toBe('ACTIVE');
  });
});

describe('listing', () => {
  it('filters by status and searches code and name, with pages', async () => {
    const tag = uniqueId('list').replace(/-/g, '');
    const active = await percentOff({ code: `${tag}A`, name: 'Active one' });
    const exhausted = await percentOff({ code: `${tag}B`, name: 'Used up', maxRedemptions: 1 });
    const lapsed = await percentOff({ code: `${tag}C`, name: `Lapsed ${tag}`, expiresAt: new Date(Date.now() + HOUR).toISOString() });
    const archived = await percentOff({ code: `${tag}D`, name: 'Archived one' });
    const buyer = await customerUuid();
    await inTransaction(db, (tx) => redeemDiscount(tx, exhausted.id, { customerId: buyer, now: new Date() }));
    await db.updateTable('discounts').set({ expires_at: new Date(Date.now() - 1000) }).where('id', '=', lapsed.id).execute();
    expectStatus(await api('POST', `/discounts/${archived.id}/archive/`), 200);

    const ids = async (query: string) => (await api('GET', `/discounts/?search=${tag}${query}`)).body.results.map((d: { id: string }) => d.id);
    expect(await ids('')).toEqual([archived.id, lapsed.id, exhausted.id, active.id]);
    expect(await ids('&status=ACTIVE')).toEqual([active.id]);
    expect(await ids('&status=EXPIRED')).toEqual([lapsed.id, exhausted.id]);
    expect(await ids('&status=ARCHIVED')).toEqual([archived.id]);
    expect((await api('GET', `/discounts/${exhausted.id}/`)).body).toMatchObject({ status: 'EXPIRED', timesRedeemed: 1 });
    // Name search, any case; a search that finds nothing; % and _ taken literally.
    expect((await api('GET', `/discounts/?search=lapsed%20${tag.toUpperCase()}`)).body.results.map((d: { id: string }) => d.id)).toEqual([lapsed.id]);
    expect((await api('GET', `/discounts/?search=${tag}%25`)).body.count).toBe(0);

    const page = await api('GET', `/discounts/?search=${tag}&page_size=3`);
    expect(page.body).toMatchObject({ count: 4, previous: null });
    expect(page.body.results).toHaveLength(3);
    const next = await server.request('GET', new URL(page.body.next).pathname + new URL(page.body.next).search, { key: org.sandbox.serverKey });
    expect(next.body.results.map((d: { id: string }) => d.id)).toEqual([active.id]);
    expectStatus(await api('GET', '/discounts/?status=LIVE'), 400);
    expectStatus(await api('GET', '/discounts/?page=0'), 400);
  });
});

describe('resolveDiscountCode', () => {
  it('returns the discount for a code in any case, with its terms', async () => {
    const discount = await percentOff({ percentOff: 15, durationInCycles: 2 });
    const found = await resolve(`  ${discount.code.toLowerCase()} `, { planIdentifier: s.plans.basic, currency: 'EUR' });
    expect(found).toMatchObject({
      id: discount.id,
      code: discount.code,
      environmentId: sandboxId,
      discountType: 'PERCENTAGE',
      percentOffBasisPoints: 1500,
      duration: 'REPEATING',
      durationInCycles: 2,
    });
    expect(discountAmountMinor(found, 1000, 'USD')).toBe(150);
  });

  it('refuses an unknown, archived, expired or exhausted code, each with its own code', async () => {
    expect(await refusal(resolve('NOSUCHCODE'))).toEqual([400, 'discount_code_unknown', 'Discount code "NOSUCHCODE" does not exist']);
    const archived = await percentOff();
    await api('POST', `/discounts/${archived.id}/archive/`);
    expect((await refusal(resolve(archived.code)))[1]).toBe('discount_code_unknown');

    const lapsed = await percentOff({ expiresAt: new Date(Date.now() + HOUR).toISOString() });
    expect((await resolve(lapsed.code)).id).toBe(lapsed.id);
    const [status, code, detail] = await refusal(resolve(lapsed.code, { now: new Date(Date.now() + 2 * HOUR) }));
    expect([status, code]).toEqual([400, 'discount_code_expired']);
    expect(detail).toContain(lapsed.expiresAt);

    const once = await percentOff({ maxRedemptions: 1 });
    // The customer first: on PGlite, a request made inside the transaction would wait for its one connection.
    const buyer = await customerUuid();
    await inTransaction(db, (tx) => redeemDiscount(tx, once.id, { customerId: buyer, now: new Date() }));
    expect(await refusal(resolve(once.code))).toEqual([400, 'discount_code_exhausted', `Discount code "${once.code}" has been redeemed 1 times, its limit`]);
    // Another environment does not know it.
    const production = await environmentIdOf(server, org.organizationId, 'production');
    expect((await refusal(resolveDiscountCode(db, production, lapsed.code, { now: new Date() })))[1]).toBe('discount_code_unknown');
  });

  it('applies restrictions to the plan named, or any plan of a product named', async () => {
    const byPlan = await percentOff({ restrictions: { planIdentifiers: [s.plans.basic] } });
    expect((await resolve(byPlan.code, { planIdentifier: s.plans.basic })).id).toBe(byPlan.id);
    const [status, code, detail] = await refusal(resolve(byPlan.code, { planIdentifier: s.plans.pro }));
    expect([status, code]).toEqual([400, 'discount_not_applicable']);
    expect(detail).toContain(s.plans.pro);
    expect((await refusal(resolve(byPlan.code)))[1]).toBe('discount_not_applicable');

    const other = await s.api.product();
    const byProduct = await percentOff({ restrictions: { productIds: [s.product.id] } });
    expect((await resolve(byProduct.code, { planIdentifier: s.plans.pro })).id).toBe(byProduct.id);
    expect((await resolve(byProduct.code, { productId: s.product.id })).id).toBe(byProduct.id);
    expect((await refusal(resolve(byProduct.code, { productId: other.id })))[1]).toBe('discount_not_applicable');
  });

  it('refuses a fixed amount without the currency; a percentage applies in any currency', async () => {
    const fixed = await create({ discountType: 'FIXED_AMOUNT', amountsOff: [{ currency: 'USD', amount: 5 }] });
    const found = await resolve(fixed.code, { currency: 'usd' });
    expect(discountAmountMinor(found, 1999, 'USD')).toBe(500);
    expect(discountAmountMinor(found, 300, 'USD')).toBe(300);
    expect(await refusal(resolve(fixed.code, { currency: 'EUR' }))).toEqual([400, 'discount_not_applicable', `Discount code "${fixed.code}" has no amount off in EUR`]);
  });
});

describe('redemptions', () => {
  it('counts 20 concurrent redemptions of a code limited to 10 exactly: 10 succeed, 10 are refused as exhausted', async () => {
    const discount = await percentOff({ maxRedemptions: 10 });
    const buyers = await Promise.all(Array.from({ length: 4 }, () => customerUuid()));
    const now = new Date();
    const outcomes = await Promise.allSettled(
      Array.from({ length: 20 }, (_, i) =>
        inTransaction(i % 2 === 0 ? db : otherDb, (tx) => redeemDiscount(tx, discount.id, { customerId: buyers[i % 4]!, now })),
      ),
    );
    const succeeded = outcomes.filter((o) => o.status === 'fulfilled');
    const refused = outcomes.flatMap((o) => (o.status === 'rejected' ? [o.reason] : []));
    expect(succeeded).toHaveLength(10);
    expect(refused).toHaveLength(10);
    for (const reason of refused) {
      expect(reason).toMatchObject({ code: 'discount_code_exhausted' });
      expect(statusOf(reason as DomainError)).toBe(400);
    }
    expect((await api('GET', `/discounts/${discount.id}/`)).body).toMatchObject({ timesRedeemed: 10, status: 'EXPIRED' });
    const rows = await db.selectFrom('discount_redemptions').select('id').where('discount_id', '=', discount.id).execute();
    expect(rows).toHaveLength(10);
  });

  it('refuses redeeming an archived or expired discount, and an unknown id with a 404', async () => {
    const buyer = await customerUuid();
    const archived = await percentOff();
    await api('POST', `/discounts/${archived.id}/archive/`);
    const redeem = (id: string, now = new Date()) => inTransaction(db, (tx) => redeemDiscount(tx, id, { customerId: buyer, now }));
    expect((await refusal(redeem(archived.id)))[1]).toBe('discount_code_unknown');
    const lapsing = await percentOff({ expiresAt: new Date(Date.now() + HOUR).toISOString() });
    expect((await refusal(redeem(lapsing.id, new Date(Date.now() + 2 * HOUR))))[1]).toBe('discount_code_expired');
    expect((await refusal(redeem('00000000-0000-4000-8000-000000000000')))[0]).toBe(404);
    expect((await refusal(redeem('not-a-uuid')))[0]).toBe(404);
    for (const d of [archived, lapsing]) expect((await api('GET', `/discounts/${d.id}/`)).body.timesRedeemed).toBe(0);
  });
});

describe('discounts carried into renewals', () => {
  async function subscription(): Promise<{ customer: string; subscriptionId: string }> {
    const customerId = await s.customer();
    await s.card(customerId, CARDS.ok);
    const res = await s.call('POST', '/subscriptions/create/', { planIdentifier: s.plans.basic, chargePeriod: 'MONTHLY', customerId });
    expectStatus(res, 201);
    const customer = (await api('GET', `/customers/${customerId}/`)).body.id;
    return { customer, subscriptionId: res.body.id };
  }

  async function renewals(discountBody: Record<string, unknown>, appliedToFirstPayment?: boolean): Promise<Array<string | null>> {
    const discount = await percentOff(discountBody);
    const { customer, subscriptionId } = await subscription();
    const redemption = await inTransaction(db, (tx) =>
      redeemDiscount(tx, discount.id, { customerId: customer, subscriptionId, now: new Date(), appliedToFirstPayment }),
    );
    expect(redemption.discount.id).toBe(discount.id);
    const taken: Array<string | null> = [];
    for (let i = 0; i < 4; i++) taken.push((await inTransaction(db, (tx) => discountForRenewal(tx, subscriptionId)))?.id ?? null);
    return taken.map((id) => (id === discount.id ? 'discount' : id));
  }

  it('ONCE: the first payment only; REPEATING 3: the first payment and 2 renewals; FOREVER: every renewal', async () => {
    expect(await renewals({ duration: 'ONCE' })).toEqual([null, null, null, null]);
    expect(await renewals({ durationInCycles: 3 })).toEqual(['discount', 'discount', null, null]);
    expect(await renewals({})).toEqual(['discount', 'discount', 'discount', 'discount']);
  });

  it('leaves every cycle to the renewals when the first payment was not discounted (a trial)', async () => {
    expect(await renewals({ duration: 'ONCE' }, false)).toEqual(['discount', null, null, null]);
    expect(await renewals({ durationInCycles: 2 }, false)).toEqual(['discount', 'discount', null, null]);
  });

  it('keeps applying after the discount is archived; a peek takes nothing; a rollback gives the cycle back', async () => {
    const discount = await percentOff({ durationInCycles: 2 });
    const { customer, subscriptionId } = await subscription();
    const redemption = await inTransaction(db, (tx) => redeemDiscount(tx, discount.id, { customerId: customer, subscriptionId, now: new Date() }));
    expect(redemption.renewalCyclesLeft).toBe(1);
    await api('POST', `/discounts/${discount.id}/archive/`);
    expect((await peekDiscountForRenewal(db, subscriptionId))?.id).toBe(discount.id);
    await expect(
      inTransaction(db, async (tx) => {
        expect((await discountForRenewal(tx, subscriptionId))?.id).toBe(discount.id);
        throw new Error('the renewal failed');
      }),
    ).rejects.toThrow('the renewal failed');
    expect((await inTransaction(db, (tx) => discountForRenewal(tx, subscriptionId)))?.id).toBe(discount.id);
    expect(await peekDiscountForRenewal(db, subscriptionId)).toBeNull();
    expect(await inTransaction(db, (tx) => discountForRenewal(tx, subscriptionId))).toBeNull();
    expect(await peekDiscountForRenewal(db, '00000000-0000-4000-8000-000000000000')).toBeNull();
  });

  it('refuses a second discount on one subscription with a 409, counting nothing', async () => {
    const first = await percentOff();
    const second = await percentOff();
    const { customer, subscriptionId } = await subscription();
    await inTransaction(db, (tx) => redeemDiscount(tx, first.id, { customerId: customer, subscriptionId, now: new Date() }));
    const [status, code] = await refusal(inTransaction(db, (tx) => redeemDiscount(tx, second.id, { customerId: customer, subscriptionId, now: new Date() })));
    expect([status, code]).toEqual([409, 'subscription_has_discount']);
    expect((await api('GET', `/discounts/${second.id}/`)).body.timesRedeemed).toBe(0);
  });
});

describe('the API document', () => {
  it('documents the discount routes under their tag', async () => {
    const doc = (await server.request('GET', '/api/v1/openapi.json')).body;
    expect(Object.keys(doc.paths['/api/v1/discounts/']).sort()).toEqual(['get', 'post']);
    expect(Object.keys(doc.paths['/api/v1/discounts/{id}/'])).toEqual(['get']);
    expect(doc.paths['/api/v1/discounts/{id}/archive/'].post.tags).toEqual(['Discounts']);
  });
});
