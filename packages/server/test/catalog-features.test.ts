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

const units = { singular: 'call', plural: 'calls' };

const api = (env: Env = 'sandbox', who: TestOrg = org) => environmentApi(server, who, env);

async function createFeature(body: Record<string, unknown>, env: Env = 'sandbox', who: TestOrg = org) {
  const res = await api(env, who).call('POST', '/catalog/features/', { featureType: 'BOOLEAN', ...body });
  expect(res.status, res.text).toBe(201);
  return res.body;
}

describe('features', () => {
  it('creates a BOOLEAN feature and retrieves it by id and by identifier', async () => {
    const { call } = api();
    const created = await call('POST', '/catalog/features/', {
      name: 'Single sign-on',
      featureType: 'BOOLEAN',
      description: 'SAML and OIDC',
      metadata: { team_owner: 'identity', nested: { some_key: 1 } },
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      identifier: 'single-sign-on',
      name: 'Single sign-on',
      description: 'SAML and OIDC',
      featureType: 'BOOLEAN',
      featureDetails: {},
      meter: {},
      details: {},
      metadata: { team_owner: 'identity', nested: { some_key: 1 } },
      isArchived: false,
    });
    expect(created.body.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(created.body.modifiedOn).toMatch(/Z$/);
    const byId = await call('GET', `/catalog/features/${created.body.id}/`);
    expect(byId.status).toBe(200);
    expect(byId.body).toEqual(created.body);
    const byIdentifier = await call('GET', '/catalog/features/single-sign-on/');
    expect(byIdentifier.status).toBe(200);
    expect(byIdentifier.body).toEqual(created.body);
  });

  it('creates METER features of both sub-types and a CUSTOMIZABLE one', async () => {
    const preAggregated = await createFeature({
      name: 'API calls',
      featureType: 'METER',
      featureDetails: { featureSubType: 'PRE_AGGREGATED_USAGE', units },
    });
    expect(preAggregated).toMatchObject({
      featureType: 'METER',
      featureDetails: { featureSubType: 'PRE_AGGREGATED_USAGE', units },
      meter: {},
    });
    const raw = await createFeature({
      name: 'Tokens',
      featureType: 'METER',
      feature_details: { feature_sub_type: 'RAW_EVENTS', units: { singular: 'token', plural: 'tokens' } },
      meter: { aggregation: { function: 'SUM', field: 'tokens' }, filters: [{ property: 'model', value: 'large' }] },
    });
    expect(raw).toMatchObject({
      featureDetails: { featureSubType: 'RAW_EVENTS', units: { singular: 'token', plural: 'tokens' } },
      meter: { aggregation: { function: 'SUM', field: 'tokens' }, filters: [{ property: 'model', value: 'large' }] },
    });
    const counted = await createFeature({
      name: 'Requests',
      featureType: 'METER',
      featureDetails: { featureSubType: 'RAW_EVENTS', units: { singular: 'request', plural: 'requests' } },
      meter: { aggregation: { function: 'COUNT' } },
    });
    expect(counted.meter).toEqual({ aggregation: { function: 'COUNT' } });
    const customizable = await createFeature({ name: 'Projects', featureType: 'CUSTOMIZABLE' });
    expect(customizable).toMatchObject({ featureType: 'CUSTOMIZABLE', featureDetails: {}, meter: {} });
    for (const feature of [preAggregated, raw, counted, customizable]) {
      expect((await api().call('GET', `/catalog/features/${feature.id}/`)).body).toEqual(feature);
    }
  });

  it.each([
    [{ name: 'm', featureType: 'METER' }, 'featureDetails.featureSubType'],
    [{ name: 'm', featureType: 'METER', featureDetails: { units } }, 'featureDetails.featureSubType'],
    [{ name: 'm', featureType: 'METER', featureDetails: { featureSubType: 'PRE_AGGREGATED_USAGE' } }, 'featureDetails.units'],
    [
      { name: 'm', featureType: 'METER', featureDetails: { featureSubType: 'PRE_AGGREGATED_USAGE', units: { singular: 'seat' } } },
      'plural',
    ],
    [
      { name: 'm', featureType: 'METER', featureDetails: { featureSubType: 'PRE_AGGREGATED_USAGE', units: { plural: 'seats' } } },
      'singular',
    ],
    [
      {
        name: 'm',
        featureType: 'METER',
        featureDetails: { featureSubType: 'PRE_AGGREGATED_USAGE', units: { singular: '', plural: 'seats' } },
      },
      'singular',
    ],
    [{ name: 'm', featureType: 'METER', featureDetails: { featureSubType: 'STREAMED', units } }, 'featureSubType'],
    [{ name: 'm', featureType: 'METER', featureDetails: { featureSubType: 'RAW_EVENTS', units } }, 'meter.aggregation'],
    [
      {
        name: 'm',
        featureType: 'METER',
        featureDetails: { featureSubType: 'RAW_EVENTS', units },
        meter: { aggregation: { function: 'SUM' } },
      },
      'meter.aggregation.field',
    ],
    [
      {
        name: 'm',
        featureType: 'METER',
        featureDetails: { featureSubType: 'RAW_EVENTS', units },
        meter: { aggregation: { function: 'MEDIAN', field: 'x' } },
      },
      'meter.aggregation.function',
    ],
    [{ name: 'b', featureType: 'BOOLEAN', featureDetails: { featureSubType: 'PRE_AGGREGATED_USAGE' } }, 'featureSubType'],
    [{ name: 'b', featureType: 'CUSTOMIZABLE', meter: { aggregation: { function: 'COUNT' } } }, 'meter'],
    [{ name: 'b', featureType: 'LIMIT' }, 'featureType'],
    [{ name: 'b', featureType: 'FLAG' }, 'featureType'],
    [{ name: 'b' }, 'featureType'],
    [{ featureType: 'BOOLEAN' }, 'name'],
    [{ name: '', featureType: 'BOOLEAN' }, 'name'],
    [{ name: 'b', featureType: 'BOOLEAN', identifier: 'Has Spaces' }, 'identifier'],
    [{ name: 'b', featureType: 'BOOLEAN', identifier: 'UPPER' }, 'identifier'],
    [{ name: 'b', featureType: 'BOOLEAN', metadata: 'not an object' }, 'metadata'],
    [{ name: 'b', featureType: 'BOOLEAN', details: { x: 1 } }, 'details'],
    [{ name: 'b', featureType: 'BOOLEAN', metadata: Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`k${i}`, i])) }, 'metadata'],
  ])('rejects feature %j naming %s', async (body, field) => {
    const before = (await api().call('GET', '/catalog/features/')).body.count;
    const res = await api().call('POST', '/catalog/features/', body);
    expect(res.status).toBe(400);
    expect(res.body.detail).toContain(field);
    expect(res.body.code).toBeTypeOf('string');
    expect((await api().call('GET', '/catalog/features/')).body.count).toBe(before);
  });

  it('refuses a name that is only spaces', async () => {
    const res = await api().call('POST', '/catalog/features/', { name: '   ', featureType: 'BOOLEAN' });
    expect(res.status).toBe(400);
    expect(res.body.detail).toContain('name');
  });

  it('makes unique slug identifiers from names and refuses an explicit duplicate with 409', async () => {
    const { call } = api();
    const first = await createFeature({ name: 'Seats Included' });
    const second = await createFeature({ name: 'Seats Included', featureType: 'CUSTOMIZABLE' });
    const third = await createFeature({ name: 'Sièges — inclus!' });
    for (const f of [first, second, third]) expect(f.identifier).toMatch(SLUG);
    expect(first.identifier).toBe('seats-included');
    expect(new Set([first.identifier, second.identifier, third.identifier]).size).toBe(3);

    const dup = await call('POST', '/catalog/features/', { name: 'Other', featureType: 'CUSTOMIZABLE', identifier: first.identifier });
    expect(dup.status).toBe(409);
    expect(dup.body.code).toBe('identifier_taken');
    const kept = await call('GET', `/catalog/features/${first.identifier}/`);
    expect(kept.body).toEqual(first);
  });

  it('keeps identifiers unique per environment', async () => {
    const identifier = uniqueId('both');
    const sandbox = await createFeature({ name: 'In sandbox', identifier }, 'sandbox');
    const production = await createFeature({ name: 'In production', identifier, featureType: 'CUSTOMIZABLE' }, 'production');
    expect(sandbox.id).not.toBe(production.id);
    expect((await api('sandbox').call('GET', `/catalog/features/${identifier}/`)).body).toEqual(sandbox);
    expect((await api('production').call('GET', `/catalog/features/${identifier}/`)).body).toEqual(production);
  });

  it('keeps a sandbox feature out of production', async () => {
    const feature = await createFeature({ name: 'Sandbox only', identifier: uniqueId('sbx') });
    const prod = api('production');
    for (const ref of [feature.id, feature.identifier]) {
      expect((await prod.call('GET', `/catalog/features/${ref}/`)).status).toBe(404);
      expect((await prod.call('DELETE', `/catalog/features/${ref}/`)).status).toBe(404);
    }
    expect((await prod.call('GET', `/catalog/features/?search=${feature.identifier}`)).body.count).toBe(0);
    expect((await api().call('GET', `/catalog/features/${feature.id}/`)).body.isArchived).toBe(false);
  });

  it('updates what a feature shows (PATCH, a Billow extension); identifier, type and meter never change', async () => {
    const { call } = api();
    const feature = await createFeature({ name: 'Exports', identifier: uniqueId('exports'), description: 'CSV', metadata: { team: 'data', tier: 1 } });
    const updated = await call('PATCH', `/catalog/features/${feature.identifier}/`, { name: '  Data exports ', description: null, metadata: { team: 'growth' } });
    expect(updated.status, updated.text).toBe(200);
    expect(updated.body).toMatchObject({ id: feature.id, identifier: feature.identifier, name: 'Data exports', description: '', metadata: { team: 'growth' }, featureType: 'BOOLEAN' });
    expect((await call('GET', `/catalog/features/${feature.id}/`)).body).toEqual(updated.body);
    // Only the fields given change.
    expect((await call('PATCH', `/catalog/features/${feature.id}/`, { description: 'Every table' })).body).toMatchObject({ name: 'Data exports', description: 'Every table', metadata: { team: 'growth' } });

    for (const body of [{ identifier: 'renamed' }, { featureType: 'METER' }, { meter: {} }, { name: '   ' }, { metadata: 'x' }]) {
      const refused = await call('PATCH', `/catalog/features/${feature.id}/`, body);
      expect(refused.status, JSON.stringify(body)).toBe(400);
      expect(refused.body.detail).toBeTruthy();
    }
    expect((await call('GET', '/catalog/features/renamed/')).status).toBe(404);
    expect((await call('PUT', `/catalog/features/${feature.id}/`, { name: 'x' })).status).toBe(405);
    expect((await call('PATCH', `/catalog/features/${randomUUID()}/`, { name: 'x' })).status).toBe(404);
    expect((await api('production').call('PATCH', `/catalog/features/${feature.identifier}/`, { name: 'x' })).status).toBe(404);

    expect((await call('DELETE', `/catalog/features/${feature.id}/`)).status).toBe(204);
    const archived = await call('PATCH', `/catalog/features/${feature.id}/`, { name: 'Back again' });
    expect(archived.status).toBe(400);
    expect(archived.body.code).toBe('archived');
    expect((await call('GET', `/catalog/features/${feature.id}/`)).body).toMatchObject({ name: 'Data exports', isArchived: true });
  });

  it('archives a feature: 204, gone from the list, 400 the second time, 404 when unknown', async () => {
    const { call } = api();
    const feature = await createFeature({ name: 'Soon archived', identifier: uniqueId('archive') });
    const archived = await call('DELETE', `/catalog/features/${feature.id}/`);
    expect(archived.status).toBe(204);
    expect(archived.text).toBe('');
    const fetched = await call('GET', `/catalog/features/${feature.identifier}/`);
    expect(fetched.status).toBe(200);
    expect(fetched.body.isArchived).toBe(true);
    expect((await call('GET', `/catalog/features/?search=${feature.identifier}`)).body.count).toBe(0);
    const twice = await call('DELETE', `/catalog/features/${feature.identifier}/`);
    expect(twice.status).toBe(400);
    expect(twice.body.code).toBe('already_archived');
    for (const ref of [randomUUID(), 'no-such-feature']) {
      const res = await call('GET', `/catalog/features/${ref}/`);
      expect(res.status).toBe(404);
      expect(res.body.detail).toContain(ref);
      expect((await call('DELETE', `/catalog/features/${ref}/`)).status).toBe(404);
    }
  });

  it('keeps plans that grant an archived feature working', async () => {
    const { call } = api();
    const product = (await call('POST', '/catalog/products/', { name: 'Archive host', taxCode: 'saas' })).body;
    const feature = await createFeature({
      name: 'Retired meter',
      identifier: uniqueId('retired'),
      featureType: 'METER',
      featureDetails: { featureSubType: 'PRE_AGGREGATED_USAGE', units },
    });
    const identifier = uniqueId('plan');
    expect((await call('POST', '/catalog/plans/', { name: 'Host plan', identifier, product: product.id })).status).toBe(201);
    const granted = await call('POST', `/catalog/plans/${identifier}/features/`, {
      planEntitlements: [{ feature: feature.id, details: { value: 500, hardLimit: true } }],
    });
    expect(granted.status).toBe(201);
    expect((await call('POST', `/catalog/plans/${identifier}/prices/bulk/`, { prices: [monthly(10)] })).status).toBe(200);
    expect((await call('POST', `/catalog/plans/${identifier}/publish/`, {})).status).toBe(200);

    expect((await call('DELETE', `/catalog/features/${feature.id}/`)).status).toBe(204);

    const plan = await call('GET', `/catalog/plans/${identifier}/`);
    expect(plan.body).toMatchObject({ status: 'published', isLatest: true, version: 1 });
    expect((await call('GET', `/catalog/products/${product.id}/`)).body.plans).toEqual([identifier]);
    const entitlements = await call('GET', `/catalog/plans/${identifier}/features/`);
    expect(entitlements.status).toBe(200);
    expect(entitlements.body.count).toBe(1);
    expect(entitlements.body.results[0].feature).toMatchObject({ id: feature.id, identifier: feature.identifier, isArchived: true });
    expect(entitlements.body.results[0].details).toMatchObject({ value: 500, hardLimit: true });

    // A new version copies it, and the plan can be published again.
    expect((await call('PATCH', `/catalog/plans/${identifier}/`, { description: 'v2' })).body.version).toBe(2);
    const copied = await call('GET', `/catalog/plans/${identifier}/features/?version=2`);
    expect(copied.body.results.map((e: any) => e.feature.id)).toEqual([feature.id]);
    expect((await call('POST', `/catalog/plans/${identifier}/publish/`, {})).status).toBe(200);
    // ...but the archived feature can't be granted anew.
    const other = uniqueId('plan');
    await call('POST', '/catalog/plans/', { name: 'Other plan', identifier: other, product: product.id });
    const refused = await call('POST', `/catalog/plans/${other}/features/`, {
      planEntitlements: [{ feature: feature.id, details: { value: 1 } }],
    });
    expect(refused.status).toBe(400);
    expect(refused.body.detail).toContain('planEntitlements[0].feature');
  });

  it('searches name, identifier and description and leaves archived features out', async () => {
    const other = await server.createOrg();
    const { call } = api('production', other);
    const make = (name: string, identifier: string, description: string) =>
      createFeature({ name, identifier, description }, 'production', other);
    const a = await make('Export to PDF', 'pdf-export', 'Printable reports');
    const b = await make('Webhooks', 'webhooks', 'Push events to your PDF pipeline');
    const c = await make('Audit log', 'audit', 'Who did what');
    const d = await make('PDF forms', 'forms', 'old');
    await call('DELETE', `/catalog/features/${d.id}/`);
    const ids = async (query: string) =>
      (await call('GET', `/catalog/features/${query}`)).body.results.map((f: any) => f.id).sort();
    expect(await ids('?search=pdf')).toEqual([a.id, b.id].sort());
    expect(await ids('?search=AUDIT')).toEqual([c.id]);
    expect(await ids('?search=who%20did')).toEqual([c.id]);
    expect(await ids('?search=_')).toEqual([]);
    const all = await call('GET', '/catalog/features/');
    expect(all.body.count).toBe(3);
    expect(all.body.results.map((f: any) => f.id)).toEqual([c.id, b.id, a.id]);
  });

  it('pages features 100 at a time by default and caps page_size at 100', async () => {
    const other = await server.createOrg();
    const { call } = api('sandbox', other);
    for (let i = 0; i < 12; i++) await createFeature({ name: `Twelve ${i}` }, 'sandbox', other);
    const twelve = await call('GET', '/catalog/features/');
    expect(twelve.body.count).toBe(12);
    expect(twelve.body.results).toHaveLength(12);
    expect(twelve.body.next).toBeNull();
    for (let i = 12; i < 101; i++) await createFeature({ name: `More ${i}` }, 'sandbox', other);
    const first = await call('GET', '/catalog/features/');
    expect(first.body.count).toBe(101);
    expect(first.body.results).toHaveLength(100);
    expect(first.body.next).toBe(`${server.url}/sandbox/api/v1/catalog/features/?page=2`);
    const capped = await call('GET', '/catalog/features/?page_size=1000');
    expect(capped.body.results).toHaveLength(100);
    const last = await call('GET', '/catalog/features/?page=2');
    expect(last.body.results.map((f: any) => f.name)).toEqual(['Twelve 0']);
    const five = await call('GET', '/catalog/features/?page_size=5&page=3');
    expect(five.body.results).toHaveLength(5);
    expect(five.body.previous).toContain('page=2');
  });

  it('refuses writes with a client key (403) and changes nothing', async () => {
    const { call, clientKey } = api();
    const feature = await createFeature({ name: 'Guarded feature', identifier: uniqueId('guarded') });
    const create = await call('POST', '/catalog/features/', { name: 'Sneaky', featureType: 'BOOLEAN' }, clientKey);
    expect(create.status).toBe(403);
    const archive = await call('DELETE', `/catalog/features/${feature.id}/`, undefined, clientKey);
    expect(archive.status).toBe(403);
    expect((await call('PATCH', `/catalog/features/${feature.id}/`, { name: 'Sneaky' }, clientKey)).status).toBe(403);
    expect((await call('GET', '/catalog/features/?search=Sneaky')).body.count).toBe(0);
    expect((await call('GET', `/catalog/features/${feature.id}/`)).body).toEqual(feature);
    // Reads are open to the client key.
    expect((await call('GET', `/catalog/features/${feature.identifier}/`, undefined, clientKey)).body).toEqual(feature);
    expect((await call('GET', `/catalog/features/?search=${feature.identifier}`, undefined, clientKey)).body.count).toBe(1);
  });
});
