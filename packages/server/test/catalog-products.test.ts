import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, uniqueId, type TestOrg, type TestServer } from './harness.js';
import { environmentApi, monthly, SLUG, type Env } from './catalog-support.js';

let server: TestServer;
let org: TestOrg;

beforeAll(async () => {
  server = await startTestServer();
  org = await server.createOrg();
});
afterAll(() => server.close());

const TAX_CODES = [
  'saas',
  'saas_business',
  'software',
  'videocontent',
  'informationservice',
  'ebook',
  'digitalgraphic',
  'videogame',
  'eservice',
  'training',
];

const api = (env: Env = 'sandbox', who: TestOrg = org) => environmentApi(server, who, env);

async function createProduct(body: Record<string, unknown>, env: Env = 'sandbox', who: TestOrg = org) {
  const res = await api(env, who).call('POST', '/catalog/products/', { taxCode: 'saas', ...body });
  expect(res.status, res.text).toBe(201);
  return res.body;
}

describe('products', () => {
  it('creates, retrieves by id and identifier, updates and archives a product', async () => {
    const { call } = api();
    const created = await call('POST', '/catalog/products/', {
      name: 'Photo Lab',
      identifier: 'photo-lab',
      taxCode: 'software',
      description: 'Edits photos',
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      identifier: 'photo-lab',
      name: 'Photo Lab',
      description: 'Edits photos',
      taxCode: 'software',
      isArchived: false,
      images: [],
      plans: [],
    });
    expect(created.body.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(created.body.modifiedOn).toMatch(/Z$/);

    const byId = await call('GET', `/catalog/products/${created.body.id}/`);
    expect(byId.status).toBe(200);
    expect(byId.body).toEqual(created.body);
    const byIdentifier = await call('GET', '/catalog/products/photo-lab/');
    expect(byIdentifier.status).toBe(200);
    expect(byIdentifier.body).toEqual(created.body);

    const patched = await call('PATCH', `/catalog/products/${created.body.id}/`, { description: 'Edits photos fast' });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({
      id: created.body.id,
      identifier: 'photo-lab',
      name: 'Photo Lab',
      taxCode: 'software',
      description: 'Edits photos fast',
    });
    const renamed = await call('PATCH', '/catalog/products/photo-lab/', { name: '  Photo Lab Pro ', tax_code: 'ebook' });
    expect(renamed.status).toBe(200);
    expect(renamed.body).toMatchObject({ name: 'Photo Lab Pro', taxCode: 'ebook', description: 'Edits photos fast' });
    expect(renamed.body.identifier).toBe('photo-lab');
    expect((await call('GET', `/catalog/products/${created.body.id}/`)).body).toEqual(renamed.body);

    const archived = await call('DELETE', `/catalog/products/${created.body.id}/`);
    expect(archived.status).toBe(204);
    expect(archived.text).toBe('');
    const after = await call('GET', `/catalog/products/${created.body.id}/`);
    expect(after.status).toBe(200);
    expect(after.body.isArchived).toBe(true);
    const twice = await call('DELETE', '/catalog/products/photo-lab/');
    expect(twice.status).toBe(400);
    expect(twice.body.code).toBe('already_archived');
    expect((await call('PATCH', `/catalog/products/${created.body.id}/`, { name: 'x' })).status).toBe(400);
    const list = await call('GET', '/catalog/products/?search=photo-lab');
    expect(list.body.count).toBe(0);
  });

  it('answers 404 for an unknown product on every operation', async () => {
    const { call } = api();
    for (const ref of [randomUUID(), 'no-such-product']) {
      for (const [method, path, body] of [
        ['GET', `/catalog/products/${ref}/`],
        ['PATCH', `/catalog/products/${ref}/`, { name: 'x' }],
        ['DELETE', `/catalog/products/${ref}/`],
        ['GET', `/catalog/products/${ref}/settings/`],
        ['PATCH', `/catalog/products/${ref}/settings/`, { vpn: false }],
      ] as const) {
        const res = await call(method, path, body);
        expect(res.status, `${method} ${path}`).toBe(404);
        expect(res.body.detail).toContain(ref);
      }
    }
  });

  it('makes a unique slug identifier from the name when none is given', async () => {
    const first = await createProduct({ name: 'Pro Suite' });
    const second = await createProduct({ name: 'Pro Suite' });
    const third = await createProduct({ name: 'pro   SUITE!' });
    const accented = await createProduct({ name: 'Crème Brûlée Édition' });
    const symbols = await createProduct({ name: '★ ★ ★' });
    const long = await createProduct({ name: `${'Long name '.repeat(24)}end` });
    const all = [first, second, third, accented, symbols, long];
    for (const p of all) expect(p.identifier).toMatch(SLUG);
    expect(first.identifier).toBe('pro-suite');
    expect(new Set(all.map((p) => p.identifier)).size).toBe(all.length);
    expect(accented.identifier).toBe('creme-brulee-edition');
    expect(long.identifier.length).toBeLessThanOrEqual(100);
    const fetched = await api().call('GET', `/catalog/products/${second.identifier}/`);
    expect(fetched.body.id).toBe(second.id);
  });

  it('refuses an explicit identifier already taken in the environment with 409, and changes nothing', async () => {
    const { call } = api();
    const identifier = uniqueId('dup');
    const first = await createProduct({ name: 'First', identifier });
    const again = await call('POST', '/catalog/products/', { name: 'Second', identifier, taxCode: 'saas' });
    expect(again.status).toBe(409);
    expect(again.body.code).toBe('identifier_taken');
    expect(again.body.detail).toContain(identifier);
    expect((await call('GET', `/catalog/products/${identifier}/`)).body).toMatchObject({ id: first.id, name: 'First' });
    // A generated identifier is taken too.
    const generated = await createProduct({ name: 'Generated Name Here' });
    const clash = await call('POST', '/catalog/products/', { name: 'x', identifier: generated.identifier, taxCode: 'saas' });
    expect(clash.status).toBe(409);
    // An archived product still holds its identifier.
    await call('DELETE', `/catalog/products/${first.id}/`);
    expect((await call('POST', '/catalog/products/', { name: 'Third', identifier, taxCode: 'saas' })).status).toBe(409);
  });

  it('keeps identifiers unique per environment, not across environments', async () => {
    const identifier = uniqueId('both');
    const sandbox = await createProduct({ name: 'Sandbox one', identifier }, 'sandbox');
    const production = await createProduct({ name: 'Production one', identifier }, 'production');
    expect(sandbox.id).not.toBe(production.id);
    expect((await api('sandbox').call('GET', `/catalog/products/${identifier}/`)).body.id).toBe(sandbox.id);
    expect((await api('production').call('GET', `/catalog/products/${identifier}/`)).body.id).toBe(production.id);
    // Another organization can use it as well.
    const other = await server.createOrg();
    await createProduct({ name: 'Elsewhere', identifier }, 'sandbox', other);
  });

  it('keeps a sandbox product out of production', async () => {
    const product = await createProduct({ name: 'Sandbox only', identifier: uniqueId('sbx') });
    const prod = api('production');
    for (const ref of [product.id, product.identifier]) {
      expect((await prod.call('GET', `/catalog/products/${ref}/`)).status).toBe(404);
      expect((await prod.call('PATCH', `/catalog/products/${ref}/`, { name: 'stolen' })).status).toBe(404);
      expect((await prod.call('DELETE', `/catalog/products/${ref}/`)).status).toBe(404);
      expect((await prod.call('GET', `/catalog/products/${ref}/settings/`)).status).toBe(404);
      expect((await prod.call('PATCH', `/catalog/products/${ref}/settings/`, { tor: false })).status).toBe(404);
    }
    const list = await prod.call('GET', `/catalog/products/?search=${product.identifier}`);
    expect(list.body.count).toBe(0);
    // The other environment's key on this environment's URL is refused outright.
    const crossKey = await server.request('GET', `/api/v1/catalog/products/${product.id}/`, { key: org.sandbox.serverKey });
    expect(crossKey.status).toBe(401);
    const untouched = await api().call('GET', `/catalog/products/${product.id}/`);
    expect(untouched.body).toMatchObject({ name: 'Sandbox only', isArchived: false });
    expect((await api().call('GET', `/catalog/products/${product.id}/settings/`)).body.tor).toBe(true);
  });

  it('accepts every tax code of the reference and nothing else', async () => {
    const { call } = api();
    for (const taxCode of TAX_CODES) {
      const res = await call('POST', '/catalog/products/', { name: `Tax ${taxCode}`, taxCode });
      expect(res.status, taxCode).toBe(201);
      expect(res.body.taxCode).toBe(taxCode);
    }
    for (const taxCode of ['SAAS', 'food', '', 'txcd_10000000']) {
      const res = await call('POST', '/catalog/products/', { name: 'Bad tax', taxCode });
      expect(res.status, taxCode).toBe(400);
      expect(res.body.detail).toContain('taxCode');
    }
    const product = await createProduct({ name: 'Tax patch' });
    const bad = await call('PATCH', `/catalog/products/${product.id}/`, { taxCode: 'groceries' });
    expect(bad.status).toBe(400);
    expect(bad.body.detail).toContain('taxCode');
    expect((await call('GET', `/catalog/products/${product.id}/`)).body.taxCode).toBe('saas');
  });

  it.each([
    [{ taxCode: 'saas' }, 'name'],
    [{ name: 'No tax' }, 'taxCode'],
    [{ name: '', taxCode: 'saas' }, 'name'],
    [{ name: 'x'.repeat(256), taxCode: 'saas' }, 'name'],
    [{ name: 'Bad', taxCode: 'saas', identifier: 'Pro Suite' }, 'identifier'],
    [{ name: 'Bad', taxCode: 'saas', identifier: 'UPPER' }, 'identifier'],
    [{ name: 'Bad', taxCode: 'saas', identifier: '-leading' }, 'identifier'],
    [{ name: 'Bad', taxCode: 'saas', identifier: '_leading' }, 'identifier'],
    [{ name: 'Bad', taxCode: 'saas', identifier: 'a/b' }, 'identifier'],
    [{ name: 'Bad', taxCode: 'saas', identifier: '' }, 'identifier'],
    [{ name: 'Bad', taxCode: 'saas', description: 7 }, 'description'],
    [{ name: 'Bad', taxCode: 'saas', color: 'red' }, 'color'],
    [{ name: 'Bad', taxCode: 'saas', imageKeys: 'tmp/a.png' }, 'imageKeys'],
    [{ name: 'Bad', taxCode: 'saas', imageKeys: Array.from({ length: 11 }, (_, i) => `tmp/${i}.png`) }, 'imageKeys'],
  ])('rejects product %j naming %s', async (body, field) => {
    const res = await api().call('POST', '/catalog/products/', body);
    expect(res.status).toBe(400);
    expect(res.body.detail).toContain(field);
    expect(res.body.code).toBeTypeOf('string');
  });

  it('refuses an imageKey that no upload made, naming it, and creates or changes nothing', async () => {
    const { call } = api();
    const key = `tmp/${randomUUID()}/cover.png`;
    const identifier = uniqueId('imageless');
    const res = await call('POST', '/catalog/products/', { name: 'Imageless', identifier, taxCode: 'saas', imageKeys: [key] });
    expect(res.status).toBe(400);
    expect(res.body.detail).toContain(key);
    expect((await call('GET', `/catalog/products/${identifier}/`)).status).toBe(404);
    const product = await createProduct({ name: 'Has no images' });
    const patch = await call('PATCH', `/catalog/products/${product.id}/`, { name: 'Renamed', imageKeys: [key] });
    expect(patch.status).toBe(400);
    expect(patch.body.detail).toContain(key);
    expect((await call('GET', `/catalog/products/${product.id}/`)).body).toEqual(product);
  });

  it('refuses a name that is only spaces', async () => {
    const res = await api().call('POST', '/catalog/products/', { name: '   ', taxCode: 'saas' });
    expect(res.status).toBe(400);
    expect(res.body.detail).toContain('name');
  });

  it('lists only the published, non-archived plans of a product in `plans`', async () => {
    const { call } = api();
    const product = await createProduct({ name: 'With plans' });
    const other = await createProduct({ name: 'Other product' });
    const plan = async (identifier: string, productId = product.id) => {
      const res = await call('POST', '/catalog/plans/', { name: identifier, identifier, product: productId });
      expect(res.status, res.text).toBe(201);
    };
    const publish = async (identifier: string) => {
      expect((await call('POST', `/catalog/plans/${identifier}/prices/bulk/`, { prices: [monthly(10)] })).status).toBe(200);
      const res = await call('POST', `/catalog/plans/${identifier}/publish/`, {});
      expect(res.status, res.text).toBe(200);
    };
    const ids = {
      published: uniqueId('published'),
      draft: uniqueId('draft'),
      archived: uniqueId('archived'),
      redrafted: uniqueId('redrafted'),
      elsewhere: uniqueId('elsewhere'),
    };
    for (const id of Object.values(ids)) await plan(id, id === ids.elsewhere ? other.id : product.id);
    await publish(ids.published);
    await publish(ids.archived);
    expect((await call('DELETE', `/catalog/plans/${ids.archived}/`)).status).toBe(204);
    await publish(ids.redrafted);
    // A draft above the published version leaves the plan on sale.
    expect((await call('PATCH', `/catalog/plans/${ids.redrafted}/`, { description: 'next' })).body.version).toBe(2);
    await publish(ids.elsewhere);

    const fetched = await call('GET', `/catalog/products/${product.id}/`);
    expect(fetched.status).toBe(200);
    expect([...fetched.body.plans].sort()).toEqual([ids.published, ids.redrafted].sort());
    expect((await call('GET', `/catalog/products/${other.id}/`)).body.plans).toEqual([ids.elsewhere]);
  });

  it('searches name, identifier and description, case-insensitively, and leaves archived products out', async () => {
    const other = await server.createOrg();
    const { call } = api('production', other);
    const make = (name: string, identifier: string, description: string) =>
      createProduct({ name, identifier, description }, 'production', other);
    const a = await make('Aurora Mail', 'mailer', 'Send newsletters');
    const b = await make('Borealis', 'aurora-sync', 'File sync');
    const c = await make('Cosmos', 'cosmos', 'Backups under the aurora');
    const d = await make('Dusk', 'dusk', 'Analytics 100% private');
    const gone = await make('Aurora Old', 'aurora-old', 'retired');
    expect((await call('DELETE', `/catalog/products/${gone.id}/`)).status).toBe(204);

    const ids = async (query: string) => {
      const res = await call('GET', `/catalog/products/${query}`);
      expect(res.status).toBe(200);
      return res.body.results.map((p: any) => p.id).sort();
    };
    expect(await ids('?search=AURORA')).toEqual([a.id, b.id, c.id].sort());
    expect(await ids('?search=mailer')).toEqual([a.id]);
    expect(await ids('?search=backups')).toEqual([c.id]);
    expect(await ids('?search=100%25')).toEqual([d.id]);
    expect(await ids('?search=%25')).toEqual([d.id]);
    expect(await ids('?search=nothing-matches')).toEqual([]);
    const all = await call('GET', '/catalog/products/');
    expect(all.body.count).toBe(4);
    expect(all.body.results.map((p: any) => p.id)).not.toContain(gone.id);
    // Newest first.
    expect(all.body.results.map((p: any) => p.id)).toEqual([d.id, c.id, b.id, a.id]);
    expect(all.body.results[0]).not.toHaveProperty('plans');
  });

  it('pages products 100 at a time by default and caps page_size at 100', async () => {
    const other = await server.createOrg();
    const { call } = api('sandbox', other);
    for (let i = 0; i < 101; i++) await createProduct({ name: `Paged ${i}` }, 'sandbox', other);
    const first = await call('GET', '/catalog/products/');
    expect(first.body.count).toBe(101);
    expect(first.body.results).toHaveLength(100);
    expect(first.body.previous).toBeNull();
    expect(first.body.next).toBe(`${server.url}/sandbox/api/v1/catalog/products/?page=2`);
    const second = await call('GET', '/catalog/products/?page=2');
    expect(second.body.results).toHaveLength(1);
    expect(second.body.next).toBeNull();
    expect(second.body.results[0].name).toBe('Paged 0');
    const capped = await call('GET', '/catalog/products/?page_size=1000');
    expect(capped.status).toBe(200);
    expect(capped.body.results).toHaveLength(100);
    const small = await call('GET', '/catalog/products/?page_size=12&search=Paged%201');
    expect(small.body.count).toBe(12); // Paged 1, 10-19, 100
    expect(small.body.results).toHaveLength(12);
    expect(small.body.next).toBeNull();
    expect((await call('GET', '/catalog/products/?page_size=0')).status).toBe(400);
  });

  it('shows more than 10 products on one page without page_size', async () => {
    const other = await server.createOrg();
    for (let i = 0; i < 12; i++) await createProduct({ name: `Twelve ${i}` }, 'production', other);
    const res = await api('production', other).call('GET', '/catalog/products/');
    expect(res.body.count).toBe(12);
    expect(res.body.results).toHaveLength(12);
    expect(res.body.next).toBeNull();
  });

  it('refuses every write with a client key (403) and changes nothing', async () => {
    const { call, clientKey } = api();
    const product = await createProduct({ name: 'Guarded', identifier: uniqueId('guarded') });
    const imageId = randomUUID();
    const writes: Array<[string, string, unknown]> = [
      ['POST', '/catalog/products/', { name: 'Sneaky', taxCode: 'saas' }],
      ['PATCH', `/catalog/products/${product.id}/`, { name: 'Sneaky' }],
      ['DELETE', `/catalog/products/${product.id}/`, undefined],
      ['PATCH', `/catalog/products/${product.id}/settings/`, { vpn: false }],
      ['PATCH', `/catalog/products/${product.id}/image/${imageId}/`, { enabled: false }],
      ['DELETE', `/catalog/products/${product.id}/image/${imageId}/`, undefined],
    ];
    for (const [method, path, body] of writes) {
      const res = await call(method, path, body, clientKey);
      expect(res.status, `${method} ${path}`).toBe(403);
      expect(res.body.detail).toBeTypeOf('string');
    }
    const after = await call('GET', `/catalog/products/${product.id}/`);
    expect(after.body).toEqual(product);
    // Reads are open to the client key (pricing pages run in browsers).
    expect((await call('GET', `/catalog/products/${product.id}/`, undefined, clientKey)).body).toEqual(product);
    expect((await call('GET', `/catalog/products/?search=${product.identifier}`, undefined, clientKey)).body.count).toBe(1);
    expect((await call('GET', '/catalog/products/?search=Sneaky')).body.count).toBe(0);
    expect((await call('GET', `/catalog/products/${product.id}/settings/`)).body.vpn).toBe(true);
  });
});

describe('product settings', () => {
  it('creates defaults on first read', async () => {
    const { call } = api();
    const product = await createProduct({ name: 'Settings defaults' });
    const first = await call('GET', `/catalog/products/${product.id}/settings/`);
    expect(first.status).toBe(200);
    expect(first.body).toEqual({ vpn: true, tor: true, proxy: true, currency: null, productUrl: null });
    const again = await call('GET', `/catalog/products/${product.identifier}/settings/`);
    expect(again.body).toEqual(first.body);
  });

  it('changes only the fields a PATCH gives', async () => {
    const { call } = api();
    const product = await createProduct({ name: 'Settings patch' });
    const path = `/catalog/products/${product.id}/settings/`;
    // No GET first: PATCH makes the settings too.
    const tor = await call('PATCH', path, { tor: false });
    expect(tor.status).toBe(200);
    expect(tor.body).toEqual({ vpn: true, tor: false, proxy: true, currency: null, productUrl: null });
    const currency = await call('PATCH', path, { currency: 'eur' });
    expect(currency.status).toBe(200);
    expect(currency.body).toEqual({ vpn: true, tor: false, proxy: true, currency: 'EUR', productUrl: null });
    const url = await call('PATCH', path, { product_url: 'https://example.com/app?x=1', vpn: false });
    expect(url.body).toEqual({ vpn: false, tor: false, proxy: true, currency: 'EUR', productUrl: 'https://example.com/app?x=1' });
    const nothing = await call('PATCH', path, {});
    expect(nothing.status).toBe(200);
    expect(nothing.body).toEqual(url.body);
    const cleared = await call('PATCH', path, { currency: null, productUrl: null });
    expect(cleared.body).toEqual({ vpn: false, tor: false, proxy: true, currency: null, productUrl: null });
    expect((await call('GET', path)).body).toEqual(cleared.body);
  });

  it.each([
    [{ currency: 'XYZ' }, 'currency'],
    [{ currency: 'EURO' }, 'currency'],
    [{ currency: 'US' }, 'currency'],
    [{ currency: 840 }, 'currency'],
    [{ productUrl: 'not a url' }, 'productUrl'],
    [{ productUrl: 'example.com/app' }, 'productUrl'],
    [{ vpn: 'no' }, 'vpn'],
    [{ theme: 'dark' }, 'theme'],
  ])('rejects settings %j naming %s, and keeps the stored ones', async (body, field) => {
    const { call } = api();
    const product = await createProduct({ name: uniqueId('Settings bad') });
    const path = `/catalog/products/${product.id}/settings/`;
    await call('PATCH', path, { currency: 'GBP', productUrl: 'https://example.com' });
    const res = await call('PATCH', path, body);
    expect(res.status).toBe(400);
    expect(res.body.detail).toContain(field);
    expect((await call('GET', path)).body).toMatchObject({ vpn: true, currency: 'GBP', productUrl: 'https://example.com' });
  });
});
