/**
 * Promotions (issue 13, item 5): the management API of ours under /promotion-rules/,
 * and the Edge API's GET /promotions (DOMAIN.md §2.15), located by the caller's
 * address. The server trusts X-Forwarded-For here (BILLOW_TRUST_PROXY), which is how
 * these tests come from Germany, India, the United States or Brazil.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { shop, type Shop } from './commerce-support.js';
import { startTestServer, uniqueId, type TestOrg, type TestServer } from './harness.js';

const IP = { DE: '85.214.0.1', IN: '49.44.0.1', US: '8.8.8.8', BR: '200.147.0.1', ZA: '41.0.0.1', none: '203.0.113.5' } as const;
const BROWSER = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0 Safari/537.36';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

let server: TestServer;
let org: TestOrg;
let other: TestOrg;
let s: Shop;

beforeAll(async () => {
  server = await startTestServer({ env: { BILLOW_TRUST_PROXY: 'true' } });
  [org, other] = await Promise.all([server.createOrg(), server.createOrg()]);
  s = await shop(server, org.sandbox.serverKey);
});
afterAll(() => server.close());

const rules = (method: string, path = '', body?: unknown, key = org.sandbox.serverKey, prefix = '/sandbox') =>
  server.request(method, `${prefix}/api/v1/promotion-rules/${path}`, { key, ...(body !== undefined ? { body } : {}) });

/** GET /promotions as the promotions UI sends it, from a country's address. */
const visit = (promotionId: string, from: keyof typeof IP, options: { key?: string | null; prefix?: string; ua?: string; path?: string } = {}) =>
  server.request('GET', `${options.prefix ?? '/sandbox'}/api/v1/${options.path ?? 'promotions'}?promotion_id=${encodeURIComponent(promotionId)}`, {
    key: options.key === undefined ? org.sandbox.clientKey : options.key,
    headers: { 'x-forwarded-for': IP[from], 'user-agent': options.ua ?? BROWSER },
  });

const PPP = [
  { group: 1, percentage: 0 },
  { group: 2, percentage: 10 },
  { group: 3, percentage: 20 },
  { group: 4, percentage: 30 },
  { group: 5, percentage: 40 },
];

async function createPromotion(extra: Record<string, unknown> = {}) {
  const res = await rules('POST', '', {
    name: uniqueId('PPP'),
    productId: s.product.id,
    pppDiscounts: PPP,
    countryOverrides: [{ countryCode: 'in', percentage: 55 }],
    couponCode: 'PPP-2026',
    ...extra,
  });
  if (res.status !== 201) throw new Error(`promotion: ${res.status} ${res.text}`);
  return res.body;
}

describe('the promotions management API', () => {
  it('creates a promotion with defaults, and retrieves and lists it', async () => {
    const created = await rules('POST', '', { name: 'Launch', productId: s.product.id });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      object: 'promotion',
      name: 'Launch',
      productId: s.product.id,
      planIdentifiers: null,
      pppDiscounts: [1, 2, 3, 4, 5].map((group) => ({ group, percentage: 0 })),
      countryOverrides: [],
      couponCode: null,
      message: '',
      banner: { backgroundColor: '#3182CE', placement: 'top', unStyled: false, addCloseIcon: false },
      security: { vpn: true, tor: true, proxy: true, relay: true, crawler: true },
      enabled: true,
      archivedOn: null,
    });
    expect(created.body.id).toMatch(UUID);
    expect((await rules('GET', `${created.body.id}/`)).body).toEqual(created.body);
    const list = await rules('GET', `?product_id=${s.product.id}&page_size=100`);
    expect(list.status).toBe(200);
    expect(list.body.results.map((p: { id: string }) => p.id)).toContain(created.body.id);
  });

  it('keeps the scope, overrides (upper-cased, sorted) and banner it is given; snake_case is accepted', async () => {
    const res = await rules('POST', '', {
      name: 'Scoped',
      product_id: s.product.id,
      plan_identifiers: [s.plans.pro, s.plans.basic, s.plans.pro],
      ppp_discounts: [{ group: 5, percentage: 50 }],
      country_overrides: [{ country_code: 'za', percentage: 5 }, { country_code: 'BR', percentage: 0 }],
      coupon_code: 'SOUTH',
      banner: { placement: 'bottom', fontSize: '14px', countryMessage: '<b>{country}</b> <script>x</script>' },
      security: { crawler: false },
      enabled: false,
    });
    expect(res.status, res.text).toBe(201);
    expect(res.body).toMatchObject({
      planIdentifiers: [s.plans.pro, s.plans.basic],
      pppDiscounts: [0, 0, 0, 0, 50].map((percentage, i) => ({ group: i + 1, percentage })),
      countryOverrides: [{ countryCode: 'BR', percentage: 0 }, { countryCode: 'ZA', percentage: 5 }],
      couponCode: 'SOUTH',
      banner: { placement: 'bottom', fontSize: '14px', backgroundColor: '#3182CE', countryMessage: '<b>{country}</b> <script>x</script>' },
      security: { vpn: true, crawler: false },
      enabled: false,
    });
  });

  it('refuses bad input with 400 and a detail, and creates nothing', async () => {
    const draft = await s.api.plan(s.product.id);
    const otherProduct = await s.api.product();
    const foreign = await s.api.plan(otherProduct.id);
    await s.api.prices(foreign.identifier, [{ priceType: 'FREE', currency: 'USD', chargeCatalogPrice: [{ charges: [{ chargePeriod: 'MONTHLY', priceData: { amount: 0 } }] }] }]);
    await s.api.publish(foreign.identifier);
    const before = (await rules('GET', '?page_size=1')).body.count;
    const base = { name: 'Bad', productId: s.product.id };
    const cases: Array<[Record<string, unknown>, RegExp]> = [
      [{ productId: s.product.id }, /name/],
      [{ ...base, productId: randomUUID() }, /productId/],
      [{ ...base, productId: 'no-such-product' }, /productId/],
      [{ ...base, planIdentifiers: [draft.identifier] }, /not published/],
      [{ ...base, planIdentifiers: [foreign.identifier] }, /not a plan of the product/],
      [{ ...base, planIdentifiers: ['nope'] }, /not a plan of the product/],
      [{ ...base, planIdentifiers: [] }, /at least one plan/],
      [{ ...base, pppDiscounts: [{ group: 6, percentage: 10 }] }, /group/],
      [{ ...base, pppDiscounts: [{ group: 2, percentage: 10 }, { group: 2, percentage: 20 }] }, /group 2 twice/],
      [{ ...base, pppDiscounts: [{ group: 2, percentage: 101 }] }, /percentage/],
      [{ ...base, pppDiscounts: [{ group: 2, percentage: 12.5 }] }, /percentage/],
      [{ ...base, countryOverrides: [{ countryCode: 'XX', percentage: 10 }] }, /^countryOverrides\[0\]\.countryCode: "XX"/],
      [{ ...base, countryOverrides: [{ countryCode: 'de', percentage: 10 }, { countryCode: 'DE', percentage: 5 }] }, /^countryOverrides\[1\]\.countryCode: DE is listed twice/],
      [{ ...base, couponCode: 'has space' }, /couponCode/],
      [{ ...base, banner: { backgroundColor: 'red; background: url(x)' } }, /backgroundColor/],
      [{ ...base, banner: { fontSize: '1rem;color:red' } }, /fontSize/],
      [{ ...base, banner: { placement: 'left' } }, /placement/],
      [{ ...base, security: { vpn: 'yes' } }, /vpn/],
      [{ ...base, surprise: true }, /surprise/],
    ];
    for (const [body, detail] of cases) {
      const res = await rules('POST', '', body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.detail, JSON.stringify(body)).toMatch(detail);
    }
    expect((await rules('GET', '?page_size=1')).body.count).toBe(before);
  });

  it('answers 404 for an unknown, non-UUID or foreign id, never 500', async () => {
    const mine = await createPromotion();
    for (const id of [randomUUID(), 'not-a-uuid', '12345', '%E2%9C%93']) {
      for (const [method, body] of [['GET', undefined], ['PATCH', { name: 'x' }], ['DELETE', undefined]] as const) {
        const res = await rules(method, `${id}/`, body);
        expect(res.status, `${method} ${id}`).toBe(404);
        expect(res.body.code).toBe('promotion_not_found');
      }
    }
    // The same id in production, or in another organization's sandbox, is not there.
    expect((await rules('GET', `${mine.id}/`, undefined, org.production.serverKey, '')).status).toBe(404);
    expect((await rules('GET', `${mine.id}/`, undefined, other.sandbox.serverKey)).status).toBe(404);
    expect((await rules('PATCH', `${mine.id}/`, { name: 'theirs' }, other.sandbox.serverKey)).status).toBe(404);
  });

  it('updates field by field, validates updates, archives, and refuses to change an archived promotion', async () => {
    const created = await createPromotion();
    const updated = await rules('PATCH', `${created.id}/`, { name: 'Renamed', banner: { fontColor: '#000' }, security: { vpn: false } });
    expect(updated.status, updated.text).toBe(200);
    expect(updated.body).toMatchObject({
      name: 'Renamed',
      couponCode: 'PPP-2026',
      countryOverrides: [{ countryCode: 'IN', percentage: 55 }],
      banner: { fontColor: '#000', backgroundColor: '#3182CE' },
      security: { vpn: false, tor: true, crawler: true },
    });
    expect(Date.parse(updated.body.modifiedOn)).toBeGreaterThanOrEqual(Date.parse(created.modifiedOn));
    const bad = await rules('PATCH', `${created.id}/`, { countryOverrides: [{ countryCode: 'ZZ', percentage: 1 }] });
    expect(bad.status).toBe(400);
    expect((await rules('GET', `${created.id}/`)).body.countryOverrides).toEqual([{ countryCode: 'IN', percentage: 55 }]);
    const cleared = await rules('PATCH', `${created.id}/`, { couponCode: null, planIdentifiers: [s.plans.basic] });
    expect(cleared.body).toMatchObject({ couponCode: null, planIdentifiers: [s.plans.basic] });

    expect((await rules('DELETE', `${created.id}/`)).status).toBe(204);
    expect((await rules('DELETE', `${created.id}/`)).status).toBe(204);
    const archived = await rules('GET', `${created.id}/`);
    expect(archived.body.archivedOn).not.toBeNull();
    const refused = await rules('PATCH', `${created.id}/`, { name: 'Back' });
    expect(refused.status).toBe(409);
    expect(refused.body.code).toBe('promotion_archived');
    const live = await rules('GET', '?page_size=100');
    expect(live.body.results.map((p: { id: string }) => p.id)).not.toContain(created.id);
    const gone = await rules('GET', '?archived=true&page_size=100');
    expect(gone.body.results.map((p: { id: string }) => p.id)).toContain(created.id);
  });

  it('takes server keys only, and lists the purchasing-power groups', async () => {
    expect((await rules('GET', '', undefined, org.sandbox.clientKey)).status).toBe(403);
    expect((await rules('POST', '', { name: 'x', productId: s.product.id }, org.sandbox.clientKey)).status).toBe(403);
    expect((await rules('GET', '', undefined, '')).status).toBe(401);
    const groups = await rules('GET', 'ppp-groups/');
    expect(groups.status).toBe(200);
    expect(groups.body.groups.map((g: { group: number }) => g.group)).toEqual([1, 2, 3, 4, 5]);
    expect(groups.body.groups[4].countries).toContain('IN');
    expect(groups.body.source).toMatch(/ICP/);
  });
});

describe('GET /promotions (Edge)', () => {
  it("answers the reference's shape for the caller's country: the group's percentage, or the override", async () => {
    const promotion = await createPromotion({ message: '{discount}% off in {country} with {code}' });
    const germany = await visit(promotion.id, 'DE');
    expect(germany.status, germany.text).toBe(200);
    expect(germany.body).toEqual({
      country: 'Germany',
      countryCode: 'DE',
      percentage: 10,
      code: 'PPP-2026',
      message: '10% off in Germany with PPP-2026',
      widgets: [{ type: 'BANNER', ...promotion.banner }],
      security: { vpn: false, tor: false, proxy: false, relay: false, crawler: false },
    });
    const india = await visit(promotion.id, 'IN');
    expect(india.body).toMatchObject({ country: 'India', countryCode: 'IN', percentage: 55, code: 'PPP-2026', message: '55% off in India with PPP-2026' });
    expect((await visit(promotion.id, 'BR')).body).toMatchObject({ countryCode: 'BR', percentage: 30 });
    // Group 1 at 0%: no discount, no code, no message; the banner is still described.
    const us = await visit(promotion.id, 'US');
    expect(us.body).toMatchObject({ countryCode: 'US', percentage: 0, code: '', message: '', widgets: [{ type: 'BANNER' }] });
    // An address with no country: nothing to give.
    expect((await visit(promotion.id, 'none')).body).toMatchObject({ country: '', countryCode: '', percentage: 0, code: '' });
    // Served with a trailing slash too, and the same again from the cache.
    expect((await visit(promotion.id, 'IN', { path: 'promotions/' })).body).toEqual(india.body);
    expect((await visit(promotion.id, 'IN')).text).toBe(india.text);
    // The React provider's optional identifier, and camelCase, change nothing.
    const extra = await server.request('GET', `/sandbox/api/v1/promotions?promotionId=${promotion.id}&kqIdentifier=visitor-1`, {
      key: org.sandbox.clientKey,
      headers: { 'x-forwarded-for': IP.IN, 'user-agent': BROWSER },
    });
    expect(extra.body).toEqual(india.body);
  });

  it('flags a crawler and gives it nothing while the check is on', async () => {
    const promotion = await createPromotion();
    const bot = await visit(promotion.id, 'IN', { ua: 'Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)' });
    expect(bot.body).toMatchObject({ percentage: 0, code: '', security: { crawler: true, vpn: false, tor: false, proxy: false, relay: false } });
    await rules('PATCH', `${promotion.id}/`, { security: { crawler: false } });
    const allowed = await visit(promotion.id, 'IN', { ua: 'Googlebot/2.1' });
    expect(allowed.body).toMatchObject({ percentage: 55, code: 'PPP-2026', security: { crawler: false } });
  });

  it('sees every change at once: overrides, disabling, archiving (then 404)', async () => {
    const promotion = await createPromotion();
    expect((await visit(promotion.id, 'DE')).body.percentage).toBe(10);
    await rules('PATCH', `${promotion.id}/`, { countryOverrides: [{ countryCode: 'DE', percentage: 25 }] });
    expect((await visit(promotion.id, 'DE')).body.percentage).toBe(25);
    expect((await visit(promotion.id, 'IN')).body.percentage).toBe(40);
    await rules('PATCH', `${promotion.id}/`, { enabled: false });
    expect((await visit(promotion.id, 'IN')).body).toMatchObject({ percentage: 0, code: '' });
    await rules('DELETE', `${promotion.id}/`);
    const gone = await visit(promotion.id, 'IN');
    expect(gone.status).toBe(404);
    expect(gone.body).toMatchObject({ code: 'promotion_not_found' });
    expect(gone.body.detail).toContain(promotion.id);
  });

  it('checks keys and environments: 401 without a key, 404 for a promotion of another environment or organization', async () => {
    const promotion = await createPromotion();
    expect((await visit(promotion.id, 'IN', { key: null })).status).toBe(401);
    expect((await visit(promotion.id, 'IN', { key: 'client-not-a-key' })).status).toBe(401);
    // A server key is accepted too.
    expect((await visit(promotion.id, 'IN', { key: org.sandbox.serverKey })).body.percentage).toBe(55);
    expect((await visit(promotion.id, 'IN', { key: org.production.clientKey, prefix: '' })).status).toBe(404);
    expect((await visit(promotion.id, 'IN', { key: other.sandbox.clientKey })).status).toBe(404);
    // Each environment has its own promotions: production's answers in production only.
    const prod = await shop(server, org.production.serverKey, '');
    const res = await rules('POST', '', { name: 'Prod', productId: prod.product.id, pppDiscounts: [{ group: 4, percentage: 15 }] }, org.production.serverKey, '');
    expect(res.status).toBe(201);
    expect((await visit(res.body.id, 'ZA', { key: org.production.clientKey, prefix: '' })).body).toMatchObject({ countryCode: 'ZA', percentage: 15, code: '' });
    expect((await visit(res.body.id, 'ZA')).status).toBe(404);
  });

  it('answers 404 for an unknown or malformed promotion_id, 400 without one', async () => {
    for (const id of [randomUUID(), 'promo_abc123', "1' or '1'='1"]) {
      const res = await visit(id, 'IN');
      expect(res.status, id).toBe(404);
      expect(res.body.code).toBe('promotion_not_found');
    }
    const missing = await server.request('GET', '/sandbox/api/v1/promotions', { key: org.sandbox.clientKey });
    expect(missing.status).toBe(400);
    expect(missing.body.detail).toContain('promotion_id');
  });

  it('previews for the dashboard what a visitor of a country is answered, exactly as the Edge answers it; reads only', async () => {
    const promotion = await createPromotion({ message: '{country_flag} {discount}% off in {country} with {code}' });
    const preview = (country: string, id = promotion.id, key = org.sandbox.serverKey) =>
      server.request('GET', `/sandbox/api/v1/promotion-rules/${id}/preview/?country=${country}`, { key });
    for (const [country, from] of [['in', 'IN'], ['DE', 'DE'], ['US', 'US'], ['BR', 'BR']] as const) {
      const res = await preview(country);
      expect(res.status, res.text).toBe(200);
      expect(res.body, country).toEqual((await visit(promotion.id, from)).body);
    }
    expect((await preview('in')).body).toMatchObject({ country: 'India', percentage: 55, code: 'PPP-2026', message: '🇮🇳 55% off in India with PPP-2026' });
    // A country in no group and without an override gets nothing.
    expect((await preview('AQ')).body).toMatchObject({ countryCode: 'AQ', percentage: 0, code: '', message: '' });
    const bad = await preview('XX');
    expect([bad.status, bad.body.detail]).toEqual([400, 'query parameter country: "XX" is not an ISO 3166-1 alpha-2 country code']);
    expect((await preview('India')).status).toBe(400);
    expect((await preview('IN', randomUUID())).status).toBe(404);
    expect((await preview('IN', promotion.id, other.sandbox.serverKey)).status).toBe(404);
    expect((await preview('IN', promotion.id, org.sandbox.clientKey)).status).toBe(403);
    // A read: the promotion is not touched.
    const before = (await rules('GET', `${promotion.id}/`)).body.modifiedOn;
    await preview('IN');
    expect((await rules('GET', `${promotion.id}/`)).body.modifiedOn).toBe(before);
    expect((await rules('DELETE', `${promotion.id}/`)).status).toBe(204);
    expect((await preview('IN')).status).toBe(404);
  });

  it('is dropped from another process\'s cache when this one changes it (NOTIFY)', async () => {
    const edge = await startTestServer({ env: { BILLOW_TRUST_PROXY: 'true' }, database: server.database });
    try {
      const promotion = await createPromotion();
      const ask = () =>
        edge.request('GET', `/sandbox/api/v1/promotions?promotion_id=${promotion.id}`, {
          key: org.sandbox.clientKey,
          headers: { 'x-forwarded-for': IP.IN, 'user-agent': BROWSER },
        });
      expect((await ask()).body.percentage).toBe(55);
      await rules('PATCH', `${promotion.id}/`, { countryOverrides: [{ countryCode: 'IN', percentage: 60 }] });
      let seen = 0;
      for (let i = 0; i < 50 && seen !== 60; i++) {
        seen = (await ask()).body.percentage;
        if (seen !== 60) await new Promise((resolve) => setTimeout(resolve, 50));
      }
      expect(seen).toBe(60);
    } finally {
      await edge.close();
    }
  });
});
