import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, uniqueId, type TestOrg, type TestServer } from './harness.js';
import { environmentApi, monthly, type Env } from './catalog-support.js';

let server: TestServer;
let org: TestOrg;
let productId: string;
let sso: any; // BOOLEAN
let calls: any; // METER
let projects: any; // CUSTOMIZABLE

const meterDetails = { featureSubType: 'PRE_AGGREGATED_USAGE', units: { singular: 'call', plural: 'calls' } };

const api = (env: Env = 'sandbox', who: TestOrg = org) => environmentApi(server, who, env);
const call = (method: string, path: string, body?: unknown) => api().call(method, path, body);

async function feature(body: Record<string, unknown>, env: Env = 'sandbox') {
  const res = await api(env).call('POST', '/catalog/features/', body);
  expect(res.status, res.text).toBe(201);
  return res.body;
}

async function plan(env: Env = 'sandbox', product = productId) {
  const identifier = uniqueId('plan');
  const res = await api(env).call('POST', '/catalog/plans/', { name: identifier, identifier, product });
  expect(res.status, res.text).toBe(201);
  return identifier;
}

async function grant(identifier: string, planEntitlements: unknown[]) {
  const res = await call('POST', `/catalog/plans/${identifier}/features/`, { planEntitlements });
  expect(res.status, res.text).toBe(201);
  return res.body;
}

async function publish(identifier: string) {
  expect((await call('POST', `/catalog/plans/${identifier}/prices/bulk/`, { prices: [monthly(10)] })).status).toBe(200);
  const res = await call('POST', `/catalog/plans/${identifier}/publish/`, {});
  expect(res.status, res.text).toBe(200);
}

/** The plan's entitlements as {identifier: details}. */
async function entitlementsOf(identifier: string, query = '') {
  const res = await call('GET', `/catalog/plans/${identifier}/features/${query}`);
  expect(res.status, res.text).toBe(200);
  return Object.fromEntries(res.body.results.map((e: any) => [e.feature.identifier, e.details]));
}

const versionCount = async (identifier: string) =>
  (await call('GET', `/catalog/plans/${identifier}/versions/`)).body.count as number;

beforeAll(async () => {
  server = await startTestServer();
  org = await server.createOrg();
  const product = await call('POST', '/catalog/products/', { name: 'Entitled', taxCode: 'saas' });
  productId = product.body.id;
  sso = await feature({ name: 'SSO', identifier: 'sso', featureType: 'BOOLEAN' });
  calls = await feature({ name: 'API calls', identifier: 'api-calls', featureType: 'METER', featureDetails: meterDetails });
  projects = await feature({ name: 'Projects', identifier: 'projects', featureType: 'CUSTOMIZABLE' });
});
afterAll(() => server.close());

describe('plan entitlements', () => {
  it('adds entitlements (201 with the plan) and lists them as {feature, details}', async () => {
    const identifier = await plan();
    const res = await call('POST', `/catalog/plans/${identifier}/features/`, {
      planEntitlements: [
        { feature: sso.id, details: { value: true } },
        { feature: calls.id, details: { value: 1000, hardLimit: true } },
        { feature: projects.identifier, details: { hasUnlimitedUsage: true } },
      ],
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ identifier, product: productId, version: 1, status: 'draft', isLatest: false });

    const list = await call('GET', `/catalog/plans/${identifier}/features/`);
    expect(list.status).toBe(200);
    expect(list.body.count).toBe(3);
    expect(list.body.next).toBeNull();
    const byId = Object.fromEntries(list.body.results.map((e: any) => [e.feature.id, e]));
    expect(byId[sso.id].feature).toEqual(sso);
    expect(byId[calls.id].feature).toEqual(calls);
    expect(byId[sso.id].details).toMatchObject({ value: true, hasUnlimitedUsage: false });
    expect(byId[calls.id].details).toMatchObject({ value: 1000, hasUnlimitedUsage: false, hardLimit: true });
    expect(byId[projects.id].details).toMatchObject({ hasUnlimitedUsage: true });
    for (const e of list.body.results) {
      expect(Object.keys(e).sort()).toEqual(['details', 'feature']);
      expect(e.details).toHaveProperty('value');
      expect(e.details).toHaveProperty('hasUnlimitedUsage');
    }
  });

  it('patches by the feature identifier, returns {details} and keeps the fields it is not given', async () => {
    const identifier = await plan();
    const alerts = { enabled: true, thresholds: [50, 90], thresholdType: 'PERCENTAGE' };
    await grant(identifier, [
      { feature: calls.id, details: { value: 1000, hardLimit: true, reset: 'EVERY_YEAR', usageAlerts: alerts } },
      { feature: sso.id, details: { value: true } },
    ]);
    const patched = await call('PATCH', `/catalog/plans/${identifier}/features/api-calls/`, { details: { value: 20000 } });
    expect(patched.status).toBe(200);
    expect(Object.keys(patched.body)).toEqual(['details']);
    expect(patched.body.details).toMatchObject({
      value: 20000,
      hasUnlimitedUsage: false,
      hardLimit: true,
      reset: 'EVERY_YEAR',
      usageAlerts: alerts,
    });
    const unlimited = await call('PATCH', `/catalog/plans/${identifier}/features/api-calls/`, {
      details: { has_unlimited_usage: true },
    });
    expect(unlimited.status).toBe(200);
    expect(unlimited.body.details).toMatchObject({ hasUnlimitedUsage: true, hardLimit: true, reset: 'EVERY_YEAR' });
    const stored = await entitlementsOf(identifier);
    expect(stored['api-calls']).toEqual(unlimited.body.details);
    expect(stored.sso).toMatchObject({ value: true });

    const off = await call('PATCH', `/catalog/plans/${identifier}/features/sso/`, { details: { value: false } });
    expect(off.status).toBe(200);
    expect(off.body.details).toMatchObject({ value: false, hasUnlimitedUsage: false });
    expect((await entitlementsOf(identifier)).sso.value).toBe(false);
  });

  it('answers PATCH and DELETE with 404 for a feature the plan does not grant, an unknown feature or plan', async () => {
    const identifier = await plan();
    await grant(identifier, [{ feature: sso.id }]);
    const cases: Array<[string, string]> = [
      [identifier, 'projects'],
      [identifier, 'no-such-feature'],
      ['no-such-plan', 'sso'],
    ];
    for (const [planId, featureId] of cases) {
      const path = `/catalog/plans/${planId}/features/${featureId}/`;
      const patch = await call('PATCH', path, { details: { value: 3 } });
      expect(patch.status, `PATCH ${path}`).toBe(404);
      expect((await call('DELETE', path)).status, `DELETE ${path}`).toBe(404);
    }
    expect((await call('GET', '/catalog/plans/no-such-plan/features/')).status).toBe(404);
  });

  it('reaches a feature by its identifier even when the identifier looks like a UUID', async () => {
    const identifier = await plan();
    const uuidLike = randomUUID();
    const odd = await feature({ name: 'Odd identifier', identifier: uuidLike, featureType: 'CUSTOMIZABLE' });
    await grant(identifier, [{ feature: odd.id, details: { value: 1 } }]);
    const res = await call('PATCH', `/catalog/plans/${identifier}/features/${uuidLike}/`, { details: { value: 2 } });
    expect(res.status, res.text).toBe(200);
    expect(res.body.details.value).toBe(2);
  });

  it('deletes an entitlement with 204', async () => {
    const identifier = await plan();
    await grant(identifier, [{ feature: sso.id }, { feature: calls.id, details: { value: 5 } }]);
    const res = await call('DELETE', `/catalog/plans/${identifier}/features/sso/`);
    expect(res.status).toBe(204);
    expect(res.text).toBe('');
    expect(Object.keys(await entitlementsOf(identifier))).toEqual(['api-calls']);
    expect((await call('DELETE', `/catalog/plans/${identifier}/features/sso/`)).status).toBe(404);
    // It can be granted again afterwards.
    await grant(identifier, [{ feature: sso.id, details: { value: false } }]);
    expect((await entitlementsOf(identifier)).sso.value).toBe(false);
  });

  describe('validates details against the feature type', () => {
    it.each([
      ['sso', { value: 5 }, 'planEntitlements[0].details.value'],
      ['sso', { value: 'yes' }, 'value'],
      ['sso', { value: null }, 'planEntitlements[0].details.value'],
      ['sso', { hasUnlimitedUsage: true }, 'planEntitlements[0].details.hasUnlimitedUsage'],
      ['api-calls', { value: true }, 'planEntitlements[0].details.value'],
      ['api-calls', { value: -1 }, 'value'],
      ['api-calls', {}, 'planEntitlements[0].details.value'],
      ['api-calls', { value: 10, usageAlerts: { thresholds: [90, 50] } }, 'usageAlerts.thresholds'],
      ['api-calls', { value: 10, reset: 'EVERY_FORTNIGHT' }, 'reset'],
      ['projects', { value: false }, 'planEntitlements[0].details.value'],
      ['projects', { hasUnlimitedUsage: false }, 'planEntitlements[0].details.value'],
      ['projects', { value: 3, colour: 'red' }, 'colour'],
    ])('refuses %s with %j naming %s', async (featureId, details, field) => {
      const identifier = await plan();
      const res = await call('POST', `/catalog/plans/${identifier}/features/`, {
        planEntitlements: [{ feature: featureId, details }],
      });
      expect(res.status).toBe(400);
      expect(res.body.detail).toContain(field);
      expect((await call('GET', `/catalog/plans/${identifier}/features/`)).body.count).toBe(0);
    });

    it.each([
      ['sso', { value: false }, { value: false, hasUnlimitedUsage: false }],
      ['sso', undefined, { value: true, hasUnlimitedUsage: false }],
      ['api-calls', { value: 0 }, { value: 0, hasUnlimitedUsage: false }],
      ['api-calls', { value: 2.5 }, { value: 2.5, hasUnlimitedUsage: false }],
      ['api-calls', { hasUnlimitedUsage: true }, { hasUnlimitedUsage: true }],
      ['projects', { value: 12 }, { value: 12, hasUnlimitedUsage: false }],
      ['projects', { hasUnlimitedUsage: true, value: 3 }, { hasUnlimitedUsage: true }],
    ])('accepts %s with %j', async (featureId, details, expected) => {
      const identifier = await plan();
      await grant(identifier, [{ feature: featureId, ...(details ? { details } : {}) }]);
      expect((await entitlementsOf(identifier))[featureId]).toMatchObject(expected);
    });

    it('on PATCH too, leaving the stored details as they were', async () => {
      const identifier = await plan();
      await grant(identifier, [{ feature: calls.id, details: { value: 100 } }, { feature: sso.id }]);
      const cases: Array<[string, unknown, string]> = [
        ['api-calls', { value: true }, 'details.value'],
        ['api-calls', { value: -5 }, 'value'],
        ['api-calls', { value: null }, 'details.value'],
        ['sso', { value: 10 }, 'details.value'],
        ['sso', { hasUnlimitedUsage: true }, 'details.hasUnlimitedUsage'],
        ['sso', { unknownField: 1 }, 'unknownField'],
      ];
      for (const [featureId, details, field] of cases) {
        const res = await call('PATCH', `/catalog/plans/${identifier}/features/${featureId}/`, { details });
        expect(res.status, JSON.stringify(details)).toBe(400);
        expect(res.body.detail).toContain(field);
      }
      const missing = await call('PATCH', `/catalog/plans/${identifier}/features/sso/`, {});
      expect(missing.status).toBe(400);
      expect(missing.body.detail).toContain('details');
      const stored = await entitlementsOf(identifier);
      expect(stored['api-calls']).toMatchObject({ value: 100, hasUnlimitedUsage: false });
      expect(stored.sso).toMatchObject({ value: true });
    });
  });

  it('refuses unknown, archived, foreign and repeated features with 400 naming the field, adding none', async () => {
    const identifier = await plan();
    await grant(identifier, [{ feature: calls.id, details: { value: 1 } }]);
    const archived = await feature({ name: 'Archived one', identifier: uniqueId('gone'), featureType: 'BOOLEAN' });
    expect((await call('DELETE', `/catalog/features/${archived.id}/`)).status).toBe(204);
    const foreign = await feature({ name: 'Production one', identifier: uniqueId('prod'), featureType: 'BOOLEAN' }, 'production');
    const otherOrg = await server.createOrg();
    const otherOrgFeature = await api('sandbox', otherOrg).call('POST', '/catalog/features/', {
      name: 'Other org',
      featureType: 'BOOLEAN',
    });
    const cases: Array<[unknown[], string]> = [
      [[{ feature: randomUUID(), details: { value: true } }], 'planEntitlements[0].feature'],
      [[{ feature: 'no-such-feature' }], 'planEntitlements[0].feature'],
      [[{ feature: sso.id }, { feature: archived.id }], 'planEntitlements[1].feature'],
      [[{ feature: sso.id }, { feature: archived.identifier }], 'planEntitlements[1].feature'],
      [[{ feature: foreign.id }], 'planEntitlements[0].feature'],
      [[{ feature: foreign.identifier }], 'planEntitlements[0].feature'],
      [[{ feature: otherOrgFeature.body.id }], 'planEntitlements[0].feature'],
      [[{ feature: sso.id }, { feature: sso.id }], 'planEntitlements[1].feature'],
      [[{ feature: sso.id }, { feature: 'sso' }], 'planEntitlements[1].feature'],
      [[{ feature: sso.id }, { feature: calls.id, details: { value: 2 } }], 'planEntitlements[1].feature'],
      [[], 'planEntitlements'],
      [[{ details: { value: true } }], 'planEntitlements[0].feature'],
    ];
    for (const [planEntitlements, field] of cases) {
      const res = await call('POST', `/catalog/plans/${identifier}/features/`, { planEntitlements });
      expect(res.status, JSON.stringify(planEntitlements)).toBe(400);
      expect(res.body.detail, JSON.stringify(planEntitlements)).toContain(field);
    }
    const missing = await call('POST', `/catalog/plans/${identifier}/features/`, {});
    expect(missing.status).toBe(400);
    expect(missing.body.detail).toContain('planEntitlements');
    expect(await entitlementsOf(identifier)).toEqual({ 'api-calls': expect.objectContaining({ value: 1 }) });
    expect(await versionCount(identifier)).toBe(1);
  });

  it('pages the entitlement list and keeps version and page_size in the links', async () => {
    const identifier = await plan();
    const many = [];
    for (let i = 0; i < 12; i++) many.push(await feature({ name: `Flag ${i}`, featureType: 'BOOLEAN' }));
    await grant(
      identifier,
      many.map((f) => ({ feature: f.id })),
    );
    const first = await call('GET', `/catalog/plans/${identifier}/features/?version=1&page_size=5`);
    expect(first.body.count).toBe(12);
    expect(first.body.results).toHaveLength(5);
    const next = new URL(first.body.next);
    expect(next.pathname).toBe(`/sandbox/api/v1/catalog/plans/${identifier}/features/`);
    expect(Object.fromEntries(next.searchParams)).toEqual({ version: '1', page_size: '5', page: '2' });
    const seen: string[] = [];
    let url: string | null = `${server.url}/sandbox/api/v1/catalog/plans/${identifier}/features/?page_size=5`;
    while (url) {
      const res = await fetch(url, { headers: { authorization: `Bearer ${org.sandbox.serverKey}` } });
      const body = (await res.json()) as any;
      seen.push(...body.results.map((e: any) => e.feature.id));
      url = body.next;
    }
    expect(seen.sort()).toEqual(many.map((f) => f.id).sort());
    const all = await call('GET', `/catalog/plans/${identifier}/features/?page_size=1000`);
    expect(all.body.results).toHaveLength(12);
    for (const query of ['?version=0', '?version=abc', '?page=0']) {
      const res = await call('GET', `/catalog/plans/${identifier}/features/${query}`);
      expect(res.status, query).toBe(400);
      expect(res.body.detail).toContain(query.slice(1, query.indexOf('=')));
    }
    const unknownVersion = await call('GET', `/catalog/plans/${identifier}/features/?version=9`);
    expect(unknownVersion.status).toBe(404);
  });

  describe('on a published plan', () => {
    it('a PATCH makes version 2 as a draft and leaves version 1 as it was', async () => {
      const identifier = await plan();
      await grant(identifier, [
        { feature: calls.id, details: { value: 1000 } },
        { feature: sso.id, details: { value: true } },
      ]);
      await publish(identifier);
      const before = await call('GET', `/catalog/plans/${identifier}/features/?version=1`);

      const patched = await call('PATCH', `/catalog/plans/${identifier}/features/api-calls/`, { details: { value: 5000 } });
      expect(patched.status).toBe(200);
      expect(patched.body.details.value).toBe(5000);

      const latest = await call('GET', `/catalog/plans/${identifier}/`);
      expect(latest.body).toMatchObject({ version: 2, status: 'draft', isLatest: false });
      const v1 = await call('GET', `/catalog/plans/${identifier}/?version=1`);
      expect(v1.body).toMatchObject({ version: 1, status: 'published', isLatest: true });
      expect(await call('GET', `/catalog/plans/${identifier}/features/?version=1`)).toMatchObject({
        status: 200,
        body: before.body,
      });
      expect((await entitlementsOf(identifier))['api-calls'].value).toBe(5000);
      expect((await entitlementsOf(identifier, '?version=2'))['api-calls'].value).toBe(5000);
      expect((await entitlementsOf(identifier, '?version=2')).sso.value).toBe(true);

      // Later writes edit the same draft.
      const again = await call('PATCH', `/catalog/plans/${identifier}/features/sso/`, { details: { value: false } });
      expect(again.status).toBe(200);
      expect(await versionCount(identifier)).toBe(2);
      expect((await entitlementsOf(identifier, '?version=1')).sso.value).toBe(true);

      // Publishing the draft puts the new values on sale and supersedes version 1, still unchanged.
      expect((await call('POST', `/catalog/plans/${identifier}/publish/`, {})).status).toBe(200);
      expect((await call('GET', `/catalog/plans/${identifier}/?version=1`)).body.status).toBe('superseded');
      expect((await call('GET', `/catalog/plans/${identifier}/`)).body).toMatchObject({ version: 2, status: 'published' });
      expect((await call('GET', `/catalog/plans/${identifier}/features/?version=1`)).body).toEqual(before.body);
    });

    it('adding and deleting entitlements also go to a new draft', async () => {
      const added = await plan();
      await grant(added, [{ feature: sso.id }]);
      await publish(added);
      const res = await call('POST', `/catalog/plans/${added}/features/`, {
        planEntitlements: [{ feature: projects.id, details: { value: 3 } }],
      });
      expect(res.status).toBe(201);
      expect(res.body).toMatchObject({ identifier: added, version: 2, status: 'draft', isLatest: false });
      expect(Object.keys(await entitlementsOf(added, '?version=1'))).toEqual(['sso']);
      expect(Object.keys(await entitlementsOf(added)).sort()).toEqual(['projects', 'sso']);

      const removed = await plan();
      await grant(removed, [{ feature: sso.id }, { feature: calls.id, details: { value: 10 } }]);
      await publish(removed);
      expect((await call('DELETE', `/catalog/plans/${removed}/features/sso/`)).status).toBe(204);
      expect((await call('GET', `/catalog/plans/${removed}/`)).body).toMatchObject({ version: 2, status: 'draft' });
      expect(Object.keys(await entitlementsOf(removed, '?version=1')).sort()).toEqual(['api-calls', 'sso']);
      expect(Object.keys(await entitlementsOf(removed))).toEqual(['api-calls']);
    });

    it('publishes the draft without a request body, since its options are optional', async () => {
      const identifier = await plan();
      await grant(identifier, [{ feature: sso.id }]);
      expect((await call('POST', `/catalog/plans/${identifier}/prices/bulk/`, { prices: [monthly(10)] })).status).toBe(200);
      const res = await call('POST', `/catalog/plans/${identifier}/publish/`);
      expect(res.status, res.text).toBe(200);
      expect(res.body).toEqual({ status: 'published', identifier, version: 1 });
    });

    it('concurrent writes share one draft', async () => {
      const identifier = await plan();
      await grant(identifier, [
        { feature: calls.id, details: { value: 10 } },
        { feature: sso.id, details: { value: true } },
      ]);
      await publish(identifier);
      const results = await Promise.all([
        call('PATCH', `/catalog/plans/${identifier}/features/api-calls/`, { details: { value: 20 } }),
        call('DELETE', `/catalog/plans/${identifier}/features/sso/`),
        call('POST', `/catalog/plans/${identifier}/features/`, { planEntitlements: [{ feature: projects.id, details: { value: 4 } }] }),
      ]);
      expect(results.map((r) => r.status)).toEqual([200, 204, 201]);
      expect(await versionCount(identifier)).toBe(2);
      expect(await entitlementsOf(identifier)).toEqual({
        'api-calls': expect.objectContaining({ value: 20 }),
        projects: expect.objectContaining({ value: 4 }),
      });
      expect(Object.keys(await entitlementsOf(identifier, '?version=1')).sort()).toEqual(['api-calls', 'sso']);
    });

    it('a refused write makes no draft', async () => {
      const identifier = await plan();
      await grant(identifier, [{ feature: calls.id, details: { value: 10 } }]);
      await publish(identifier);
      const refused: Array<[string, string, unknown, number]> = [
        ['PATCH', 'features/api-calls/', { details: { value: true } }, 400],
        ['PATCH', 'features/projects/', { details: { value: 1 } }, 404],
        ['DELETE', 'features/sso/', undefined, 404],
        ['POST', 'features/', { planEntitlements: [{ feature: calls.id, details: { value: 5 } }] }, 400],
        ['POST', 'features/', { planEntitlements: [{ feature: randomUUID() }] }, 400],
      ];
      for (const [method, path, body, status] of refused) {
        const res = await call(method, `/catalog/plans/${identifier}/${path}`, body);
        expect(res.status, `${method} ${path}`).toBe(status);
      }
      const { clientKey } = api();
      const forbidden = await api().call(
        'PATCH',
        `/catalog/plans/${identifier}/features/api-calls/`,
        { details: { value: 99 } },
        clientKey,
      );
      expect(forbidden.status).toBe(403);
      expect(await versionCount(identifier)).toBe(1);
      expect((await call('GET', `/catalog/plans/${identifier}/`)).body).toMatchObject({ version: 1, status: 'published' });
      expect((await entitlementsOf(identifier))['api-calls'].value).toBe(10);
    });
  });

  it('refuses every write with a client key (403) and changes nothing', async () => {
    const identifier = await plan();
    await grant(identifier, [{ feature: calls.id, details: { value: 7 } }]);
    const { call: as, clientKey } = api();
    const writes: Array<[string, string, unknown]> = [
      ['POST', 'features/', { planEntitlements: [{ feature: sso.id }] }],
      ['PATCH', 'features/api-calls/', { details: { value: 8 } }],
      ['DELETE', 'features/api-calls/', undefined],
    ];
    for (const [method, path, body] of writes) {
      const res = await as(method, `/catalog/plans/${identifier}/${path}`, body, clientKey);
      expect(res.status, `${method} ${path}`).toBe(403);
    }
    expect(await entitlementsOf(identifier)).toEqual({ 'api-calls': expect.objectContaining({ value: 7 }) });
    // Reading them is open to the client key.
    const read = await as('GET', `/catalog/plans/${identifier}/features/`, undefined, clientKey);
    expect(read.status).toBe(200);
    expect(read.body.results.map((e: any) => e.details.value)).toEqual([7]);
  });

  it('says in the API docs that PATCH keeps the detail fields it is not given', async () => {
    const doc = (await server.request('GET', '/api/v1/openapi.json')).body;
    const operation = doc.paths['/api/v1/catalog/plans/{identifier}/features/{feature_id}/'].patch;
    expect(`${operation.summary} ${operation.description}`).toMatch(/keep/i);
  });

  it("keeps a sandbox plan's entitlements out of production", async () => {
    const identifier = await plan();
    await grant(identifier, [{ feature: sso.id }]);
    // The same feature identifier exists in production, so only the plan is missing there.
    await feature({ name: 'SSO', identifier: 'sso', featureType: 'BOOLEAN' }, 'production');
    const prod = api('production');
    expect((await prod.call('GET', `/catalog/plans/${identifier}/features/`)).status).toBe(404);
    expect((await prod.call('PATCH', `/catalog/plans/${identifier}/features/sso/`, { details: { value: false } })).status).toBe(
      404,
    );
    expect((await prod.call('DELETE', `/catalog/plans/${identifier}/features/sso/`)).status).toBe(404);
    expect(
      (await prod.call('POST', `/catalog/plans/${identifier}/features/`, { planEntitlements: [{ feature: 'sso' }] })).status,
    ).toBe(404);
    expect((await entitlementsOf(identifier)).sso.value).toBe(true);
  });
});
