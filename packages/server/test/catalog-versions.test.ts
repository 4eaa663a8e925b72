import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { catalogClient, monthly } from './catalog-support.js';
import { startTestServer, uniqueId, type TestOrg, type TestServer } from './harness.js';

let server: TestServer;
let org: TestOrg;
let api: ReturnType<typeof catalogClient>;
let productId: string;

beforeAll(async () => {
  server = await startTestServer();
  org = await server.createOrg();
  api = catalogClient(server, org.production.serverKey);
  productId = (await api.product()).id;
});
afterAll(() => server.close());

async function publishedPlan(extra: Record<string, unknown> = {}) {
  const plan = await api.plan(productId, extra);
  await api.prices(plan.identifier, [monthly(10)]);
  await api.publish(plan.identifier);
  return plan.identifier as string;
}

const versionsOf = async (identifier: string) =>
  (await api.call('GET', `/catalog/plans/${identifier}/versions/`)).body.results.map((v: any) => [v.version, v.status]);

describe('plan versions', () => {
  it('start as a draft at version 1 and go on sale when published', async () => {
    const plan = await api.plan(productId, { description: 'first' });
    expect(plan).toMatchObject({ version: 1, isLatest: false, status: 'draft', product: productId, files: [], links: [] });
    const noPrice = await api.call('POST', `/catalog/plans/${plan.identifier}/publish/`, {});
    expect(noPrice.status).toBe(400);
    expect(noPrice.body.detail).toMatch(/enabled price/);

    await api.prices(plan.identifier, [{ ...monthly(10), enabled: false }]);
    expect((await api.call('POST', `/catalog/plans/${plan.identifier}/publish/`, {})).status).toBe(400);
    await api.prices(plan.identifier, [monthly(10)]);
    const published = await api.publish(plan.identifier);
    expect(published).toEqual({ status: 'published', identifier: plan.identifier, version: 1 });
    const fetched = await api.call('GET', `/catalog/plans/${plan.identifier}/`);
    expect(fetched.body).toMatchObject({ version: 1, isLatest: true, status: 'published' });
    const again = await api.call('POST', `/catalog/plans/${plan.identifier}/publish/`, {});
    expect(again.status).toBe(400);
    expect(again.body.code).toBe('nothing_to_publish');
  });

  it('make exactly one draft on the first write to a published plan, and leave the published rows alone', async () => {
    const identifier = await publishedPlan({ metadata: { tier: 'one' } });
    const before = {
      plan: (await api.call('GET', `/catalog/plans/${identifier}/?version=1`)).body,
      prices: (await api.call('GET', `/catalog/plans/${identifier}/prices/?version=1`)).body,
    };

    const patched = await api.call('PATCH', `/catalog/plans/${identifier}/`, { name: 'Renamed', metadata: { tier: 'two' } });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({ version: 2, status: 'draft', isLatest: false, name: 'Renamed' });
    await api.prices(identifier, [monthly(12)]);
    await api.call('PATCH', `/catalog/plans/${identifier}/`, { description: 'still the same draft' });
    expect(await versionsOf(identifier)).toEqual([
      [2, 'draft'],
      [1, 'published'],
    ]);

    expect((await api.call('GET', `/catalog/plans/${identifier}/?version=1`)).body).toEqual(before.plan);
    expect((await api.call('GET', `/catalog/plans/${identifier}/prices/?version=1`)).body).toEqual(before.prices);
    const draftPrices = await api.call('GET', `/catalog/plans/${identifier}/prices/`);
    expect(draftPrices.body.results[0]).toMatchObject({ version: 2 });
    expect(draftPrices.body.results[0].chargeCatalogPrice[0].charges[0].priceData.amount).toBe(12);
  });

  it('supersede the old version on publish, and discard only drafts', async () => {
    const identifier = await publishedPlan();
    await api.call('PATCH', `/catalog/plans/${identifier}/`, { name: 'Second' });
    expect((await api.publish(identifier)).version).toBe(2);
    expect(await versionsOf(identifier)).toEqual([
      [2, 'published'],
      [1, 'superseded'],
    ]);
    expect((await api.call('GET', `/catalog/plans/${identifier}/?version=1`)).body.isLatest).toBe(false);

    const nothing = await api.call('DELETE', `/catalog/plans/${identifier}/discard/`);
    expect(nothing.status).toBe(400);

    await api.call('PATCH', `/catalog/plans/${identifier}/`, { name: 'Third, abandoned' });
    expect((await api.call('DELETE', `/catalog/plans/${identifier}/discard/`)).status).toBe(204);
    const current = await api.call('GET', `/catalog/plans/${identifier}/`);
    expect(current.body).toMatchObject({ version: 2, name: 'Second', status: 'published' });

    await api.call('PATCH', `/catalog/plans/${identifier}/`, { name: 'Third' });
    expect((await api.publish(identifier)).version).toBe(3);
  });

  it('delete a never-published plan on discard', async () => {
    const plan = await api.plan(productId);
    expect((await api.call('DELETE', `/catalog/plans/${plan.identifier}/discard/`)).status).toBe(204);
    expect((await api.call('GET', `/catalog/plans/${plan.identifier}/`)).status).toBe(404);
  });

  it('make one draft, not two, when writes to a published plan arrive together', async () => {
    const identifier = await publishedPlan();
    const writes = await Promise.all([
      api.call('PATCH', `/catalog/plans/${identifier}/`, { description: 'a' }),
      api.call('PATCH', `/catalog/plans/${identifier}/`, { ordering: 3 }),
      api.call('POST', `/catalog/plans/${identifier}/prices/bulk/`, { prices: [monthly(20)] }),
      api.call('PATCH', `/catalog/plans/${identifier}/`, { isVisible: false }),
    ]);
    expect(writes.map((w) => w.status)).toEqual([200, 200, 200, 200]);
    expect(await versionsOf(identifier)).toEqual([
      [2, 'draft'],
      [1, 'published'],
    ]);
    const draft = (await api.call('GET', `/catalog/plans/${identifier}/`)).body;
    expect(draft).toMatchObject({ description: 'a', ordering: 3, isVisible: false });
  });

  it('are immutable once published, enforced by the database itself', async () => {
    const identifier = await publishedPlan();
    const db = server.database.db;
    const version = await db
      .selectFrom('plan_versions as v')
      .innerJoin('plans as p', 'p.id', 'v.plan_id')
      .select(['v.id'])
      .where('p.identifier', '=', identifier)
      .where('p.environment_id', 'in', db.selectFrom('environments').select('id').where('organization_id', '=', org.organizationId))
      .executeTakeFirstOrThrow();
    const attempts = [
      sql`update plan_versions set name = 'tampered' where id = ${version.id}`,
      sql`delete from plan_versions where id = ${version.id}`,
      sql`update plan_prices set enabled = false where plan_version_id = ${version.id}`,
      sql`delete from plan_prices where plan_version_id = ${version.id}`,
    ];
    for (const attempt of attempts) {
      await expect(attempt.execute(db)).rejects.toThrow(/published/);
    }
    const unchanged = await api.call('GET', `/catalog/plans/${identifier}/?version=1`);
    expect(unchanged.body.status).toBe('published');
  });

  it('list one row per plan, its newest version, leaving out archived plans and archived products', async () => {
    const other = await server.createOrg();
    const mine = catalogClient(server, other.sandbox.serverKey, '/sandbox');
    const product = await mine.product();
    const kept = await mine.plan(product.id);
    await mine.prices(kept.identifier, [monthly(5)]);
    await mine.publish(kept.identifier);
    await mine.call('PATCH', `/catalog/plans/${kept.identifier}/`, { name: 'Draft name' });
    const archived = await mine.plan(product.id);
    expect((await mine.call('DELETE', `/catalog/plans/${archived.identifier}/`)).status).toBe(204);
    expect((await mine.call('DELETE', `/catalog/plans/${archived.identifier}/`)).status).toBe(400);
    const gone = await mine.product();
    await mine.plan(gone.id);
    await mine.call('DELETE', `/catalog/products/${gone.id}/`);

    const list = await mine.call('GET', '/catalog/plans/');
    expect(list.body.count).toBe(1);
    expect(list.body.results[0]).toMatchObject({ identifier: kept.identifier, version: 2, name: 'Draft name' });
    const archivedPlan = await mine.call('GET', `/catalog/plans/${archived.identifier}/`);
    expect(archivedPlan.body.isArchived).toBe(true);
    const write = await mine.call('PATCH', `/catalog/plans/${archived.identifier}/`, { name: 'x' });
    expect(write.status).toBe(400);
  });

  it('answer 404 for an unknown plan or version, and keep environments apart', async () => {
    const identifier = await publishedPlan();
    expect((await api.call('GET', `/catalog/plans/${identifier}/?version=9`)).status).toBe(404);
    expect((await api.call('GET', `/catalog/plans/${uniqueId('nope')}/`)).status).toBe(404);
    const sandbox = catalogClient(server, org.sandbox.serverKey, '/sandbox');
    expect((await sandbox.call('GET', `/catalog/plans/${identifier}/`)).status).toBe(404);
  });

  it('generate unique identifiers from names and refuse a taken one', async () => {
    const a = await api.plan(productId, { name: 'Team Annual' });
    const b = await api.plan(productId, { name: 'Team Annual' });
    expect(a.identifier).toMatch(/^team-annual/);
    expect(b.identifier).not.toBe(a.identifier);
    const taken = await api.call('POST', '/catalog/plans/', { name: 'x', product: productId, identifier: a.identifier });
    expect(taken.status).toBe(409);
    const bad = await api.call('POST', '/catalog/plans/', { name: 'x', product: productId, identifier: 'Not A Slug' });
    expect(bad.status).toBe(400);
    expect(bad.body.detail).toMatch(/^identifier/);
    const noProduct = await api.call('POST', '/catalog/plans/', { name: 'x', product: '00000000-0000-4000-8000-000000000000' });
    expect(noProduct.status).toBe(400);
    expect(noProduct.body.detail).toMatch(/^product/);
  });

  it('page plan lists by 100 by default', async () => {
    const other = await server.createOrg();
    const mine = catalogClient(server, other.production.serverKey);
    const product = await mine.product();
    for (let i = 0; i < 12; i++) await mine.plan(product.id);
    const list = await mine.call('GET', '/catalog/plans/');
    expect(list.body.results).toHaveLength(12);
    expect(list.body.next).toBeNull();
    const small = await mine.call('GET', '/catalog/plans/?page_size=5&page=3');
    expect(small.body.results).toHaveLength(2);
  });
});

describe('a version named on a write (issue 24, item 8)', () => {
  it('DELETE ?version=N is refused: archiving takes every version, so none is archived', async () => {
    const identifier = await publishedPlan();
    await api.call('PATCH', `/catalog/plans/${identifier}/`, { name: 'Second' });
    const refused = await api.call('DELETE', `/catalog/plans/${identifier}/?version=2`);
    expect(refused.status).toBe(400);
    expect(refused.body.code).toBe('version_not_supported');
    expect(refused.body.detail).toMatch(/version.*every version/);
    const listed = (await api.call('GET', '/catalog/plans/?page_size=100')).body.results.map((p: any) => p.identifier);
    expect(listed).toContain(identifier);
    expect((await api.call('PATCH', `/catalog/plans/${identifier}/`, { name: 'Still open' })).status).toBe(200);
    expect((await api.call('DELETE', `/catalog/plans/${identifier}/`)).status).toBe(204);
  });

  it('PATCH ?version=N changes the newest version only: an older one is refused (400), a missing one is 404', async () => {
    const identifier = await publishedPlan({ description: 'v1' });
    const first = await api.call('PATCH', `/catalog/plans/${identifier}/?version=1`, { description: 'v2' });
    expect(first.status, first.text).toBe(200);
    expect(first.body).toMatchObject({ version: 2, status: 'draft', description: 'v2' });
    const v1 = (await api.call('GET', `/catalog/plans/${identifier}/?version=1`)).body;

    const older = await api.call('PATCH', `/catalog/plans/${identifier}/?version=1`, { description: 'aimed at v1' });
    expect(older.status).toBe(400);
    expect(older.body.code).toBe('plan_version_not_newest');
    expect(older.body.detail).toMatch(/version 1 is not its newest version \(2\)/);
    const missing = await api.call('PATCH', `/catalog/plans/${identifier}/?version=9`, { description: 'aimed at v9' });
    expect(missing.status).toBe(404);
    expect(missing.body.code).toBe('plan_version_not_found');
    expect((await api.call('GET', `/catalog/plans/${identifier}/?version=1`)).body).toEqual(v1);
    expect((await api.call('GET', `/catalog/plans/${identifier}/`)).body).toMatchObject({ version: 2, description: 'v2' });

    const newest = await api.call('PATCH', `/catalog/plans/${identifier}/?version=2`, { description: 'v2, again' });
    expect(newest.status).toBe(200);
    expect(newest.body).toMatchObject({ version: 2, description: 'v2, again' });
    expect(await versionsOf(identifier)).toEqual([
      [2, 'draft'],
      [1, 'published'],
    ]);
  });

  it('every other write refuses a version (400) and changes nothing', async () => {
    const identifier = await publishedPlan();
    const writes: [string, string, unknown][] = [
      ['POST', 'publish/', {}],
      ['DELETE', 'discard/', undefined],
      ['POST', 'prices/bulk/', { prices: [monthly(99)] }],
      ['POST', 'features/', { planEntitlements: [] }],
      ['PATCH', 'features/some-feature/', { details: { value: 3 } }],
      ['DELETE', 'features/some-feature/', undefined],
      ['PATCH', 'file/00000000-0000-4000-8000-000000000000/', { name: 'x' }],
      ['DELETE', 'file/00000000-0000-4000-8000-000000000000/', undefined],
    ];
    for (const [method, path, body] of writes) {
      const res = await api.call(method, `/catalog/plans/${identifier}/${path}?version=1`, body);
      expect(res.status, `${method} ${path}: ${res.text}`).toBe(400);
      expect(res.body.code, `${method} ${path}`).toBe('version_not_supported');
    }
    expect(await versionsOf(identifier)).toEqual([[1, 'published']]);
  });
});
