/**
 * The reporting currency through the API (issue 30, decision 0102): MRR in dollars, euros and
 * pounds converted into dollars at the rate the seller sets (the example of docs/analytics.md),
 * or at one derived from the plans priced in both currencies (their median ratio), and pounds,
 * with neither, left out and said to be; the settings validated, kept exactly and audited.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { catalogClient, monthly } from './catalog-support.js';
import { CARDS } from './commerce-support.js';
import { startTestServer, uniqueId, type TestOrg, type TestServer } from './harness.js';
import { signedInMember } from './accounts-support.js';

let server: TestServer;
let org: TestOrg;
const call = (method: string, path: string, body?: unknown) =>
  server.request(method, `/sandbox/api/v1${path}`, { key: org.sandbox.serverKey, ...(body !== undefined ? { body } : {}) });

beforeAll(async () => {
  server = await startTestServer();
  org = await server.createOrg();
  const api = catalogClient(server, org.sandbox.serverKey, '/sandbox');
  const product = await api.product();
  const publish = async (prices: unknown[]) => {
    const plan = await api.plan(product.id, { name: uniqueId('Plan') });
    await api.prices(plan.identifier, prices);
    await api.publish(plan.identifier);
    return plan.identifier as string;
  };
  // Three plans priced in dollars and euros: 1 EUR is 1.00, 1.0869565… and 1.20 USD; the median is Pro's.
  await publish([monthly(10), monthly(10, 'EUR')]);
  await publish([monthly(100), monthly(92, 'EUR')]);
  await publish([monthly(120), monthly(100, 'EUR')]);
  const studio = await publish([monthly(1000)]);
  const atelier = await publish([monthly(500, 'EUR')]);
  const pounds = await publish([monthly(40, 'GBP')]);
  for (const [planIdentifier, currencyCode] of [[studio, 'USD'], [atelier, 'EUR'], [pounds, 'GBP']] as const) {
    const customerId = uniqueId('fx');
    expect((await call('POST', '/customers/', { customerId, email: `${customerId}@example.com` })).status).toBe(201);
    expect((await call('POST', '/payment-methods/', { customerId, cardNumber: CARDS.ok, expMonth: 12, expYear: 2035, cvc: '123' })).status).toBe(201);
    const sold = await call('POST', '/subscriptions/create/', { customerId, planIdentifier, chargePeriod: 'MONTHLY', currencyCode });
    expect(sold.status, sold.text).toBe(201);
  }
});
afterAll(() => server.close());

const inUsd = async (query = '') => {
  const res = await call('GET', `/analytics/mrr/?reportingCurrency=USD${query}`);
  expect(res.status, res.text).toBe(200);
  return res.body;
};

describe('the reporting currency', () => {
  it('has none until the seller chooses one, and a series is converted only when asked', async () => {
    const settings = await call('GET', '/analytics/settings/');
    expect(settings.status, settings.text).toBe(200);
    expect(settings.body).toEqual({ reportingCurrency: null, rates: [], conversion: null, updatedOn: null });
    const plain = await call('GET', '/analytics/mrr/');
    expect(plain.body.reporting).toBeUndefined();
    expect(plain.body.currencies.map((c: { currency: string }) => c.currency)).toEqual(['EUR', 'GBP', 'USD']);
  });

  it("derives a rate from the plans' prices when the seller set none, and leaves out a currency with neither", async () => {
    const { reporting } = await inUsd();
    expect(reporting.conversion).toEqual({
      currency: 'USD',
      rates: [
        { currency: 'EUR', rate: '1.08696', source: 'plans', setOn: null, setBy: null, plans: 3 },
        { currency: 'GBP', rate: null, source: 'none', setOn: null, setBy: null, plans: null },
        { currency: 'USD', rate: '1', source: 'reporting', setOn: null, setBy: null, plans: null },
      ],
      notConverted: ['GBP'],
      statement: "EUR at 1.08696 USD, derived from 3 plans' prices; GBP not converted: no rate set, and no plan priced in both GBP and USD; USD as it is",
    });
    // $1,000.00 + €500.00 × 1.08696 = $1,543.48; the £40.00 are in no converted figure.
    expect(reporting.periods.at(-1)).toMatchObject({ mrrEndUnits: 154_348, customers: { end: 2 } });
  });

  it('converts at the rate the seller sets: $1,000.00 and €500.00 at 1 EUR = 1.08 USD is $1,540.00', async () => {
    const put = await call('PUT', '/analytics/settings/', { reportingCurrency: 'USD', rates: [{ currency: 'EUR', rate: '1.080' }] });
    expect(put.status, put.text).toBe(200);
    const setBy = put.body.rates[0].setBy as string;
    expect(setBy).toMatch(/^server key sk_test_/);
    expect(put.body).toMatchObject({ reportingCurrency: 'USD', rates: [{ currency: 'EUR', rate: '1.08', setOn: expect.any(String) }] });
    expect(put.body.conversion.rates.map((r: { currency: string; source: string }) => [r.currency, r.source])).toEqual([['EUR', 'seller'], ['GBP', 'none'], ['USD', 'reporting']]);

    const { reporting, currencies } = await inUsd();
    const [eur, gbp, usd] = currencies.map((c: { periods: { mrrEndUnits: number }[] }) => c.periods.at(-1)!.mrrEndUnits);
    expect([eur, gbp, usd]).toEqual([50_000, 4000, 100_000]);
    expect(reporting.conversion.rates[0]).toEqual({ currency: 'EUR', rate: '1.08', source: 'seller', setOn: put.body.rates[0].setOn, setBy, plans: null });
    expect(reporting.conversion.statement).toContain(`EUR at 1.08 USD, set by ${setBy} on ${put.body.rates[0].setOn.slice(0, 10)}`);
    const now = reporting.periods.at(-1);
    expect(now).toMatchObject({ mrrStartUnits: 0, mrrEndUnits: 154_000, arrEndUnits: 1_848_000, movements: { newUnits: 154_000 }, customers: { start: 0, end: 2, new: 2 }, arpuUnits: 77_000 });
    expect(reporting.periods).toHaveLength(currencies[0].periods.length);
  });

  it('keeps when and by whom an unchanged rate was set, and dates a new one', async () => {
    const first = (await call('GET', '/analytics/settings/')).body.rates[0];
    await new Promise((resolve) => setTimeout(resolve, 5));
    const same = await call('PUT', '/analytics/settings/', { reportingCurrency: 'USD', rates: [{ currency: 'EUR', rate: '1.08' }, { currency: 'GBP', rate: '1.27' }] });
    expect(same.status, same.text).toBe(200);
    expect(same.body.rates[0]).toEqual(first);
    expect(same.body.rates[1]).toMatchObject({ currency: 'GBP', rate: '1.27' });
    expect((await inUsd()).reporting).toMatchObject({ conversion: { notConverted: [] } });
    expect((await inUsd()).reporting.periods.at(-1).mrrEndUnits).toBe(154_000 + 5080);
    expect((await call('PUT', '/analytics/settings/', { reportingCurrency: 'USD', rates: [{ currency: 'EUR', rate: '1.08' }] })).status).toBe(200);
  });

  it('records each change in the audit log, with before and after', async () => {
    const log = await call('GET', '/audit-log/?resource=analytics_settings');
    expect(log.status, log.text).toBe(200);
    const entries = log.body.results as { action: string; before: unknown; after: unknown }[];
    expect(entries.map((e) => e.action)).toEqual(['analytics_settings.updated', 'analytics_settings.updated', 'analytics_settings.updated']);
    expect(entries.at(-1)).toMatchObject({ before: { reportingCurrency: null, rates: {} }, after: { reportingCurrency: 'USD', rates: { EUR: '1.08' } } });
    expect(entries[0]).toMatchObject({ before: { rates: { EUR: '1.08', GBP: '1.27' } }, after: { rates: { EUR: '1.08' } } });
  });

  it('converts into another currency with rates derived the other way round', async () => {
    const res = await call('GET', '/analytics/mrr/?reportingCurrency=EUR');
    expect(res.status, res.text).toBe(200);
    // 1 USD = 1.00, 0.92 and 0.8333… EUR: the median is 0.92. €500.00 + $1,000.00 × 0.92.
    expect(res.body.reporting.conversion.rates.find((r: { currency: string }) => r.currency === 'USD')).toMatchObject({ rate: '0.92', source: 'plans', plans: 3 });
    expect(res.body.reporting.periods.at(-1).mrrEndUnits).toBe(142_000);
  });

  it('answers the converted figures as CSV rows that state their conversion', async () => {
    const res = await call('GET', '/analytics/mrr/?reportingCurrency=USD&format=csv');
    expect(res.status, res.text).toBe(200);
    const lines = res.text.trim().split('\r\n');
    expect(lines[0]).toMatch(/,lifetime_value_units,conversion$/);
    const converted = lines.filter((line) => line.startsWith('USD (converted),'));
    expect(converted).toHaveLength(lines.filter((line) => line.startsWith('EUR,')).length);
    expect(converted.at(-1)).toMatch(/^USD \(converted\),\d{4}-\d{2},[^,]+,[^,]+,0,154000,1848000,154000,/);
    expect(converted.at(-1)).toContain('"EUR at 1.08 USD, set by server key');
    expect(lines.find((line) => line.startsWith('GBP,'))).toMatch(/,$/);
  });

  it('refuses bad settings and a bad reporting currency with 400 and a detail', async () => {
    const bad: Array<[unknown, RegExp]> = [
      [{ reportingCurrency: 'XYZ', rates: [] }, /ISO 4217/],
      [{ reportingCurrency: 'USD', rates: [{ currency: 'EUR', rate: '0' }] }, /positive decimal/],
      [{ reportingCurrency: 'USD', rates: [{ currency: 'EUR', rate: '-1.08' }] }, /positive decimal/],
      [{ reportingCurrency: 'USD', rates: [{ currency: 'EUR', rate: '1.0000000000001' }] }, /12 after/],
      [{ reportingCurrency: 'USD', rates: [{ currency: 'EUR', rate: '1e3' }] }, /positive decimal/],
      [{ reportingCurrency: 'USD', rates: [{ currency: 'EUR', rate: 1.08 }] }, /.+/],
      [{ reportingCurrency: 'USD', rates: [{ currency: 'USD', rate: '1' }] }, /reporting currency/],
      [{ reportingCurrency: 'USD', rates: [{ currency: 'EUR', rate: '1.1' }, { currency: 'eur', rate: '1.2' }] }, /twice/],
      [{ reportingCurrency: 'USD', rates: [{ currency: 'EURO', rate: '1.1' }] }, /.+/],
      [{ reportingCurrency: null, rates: [{ currency: 'EUR', rate: '1.1' }] }, /reporting currency/],
      [{ reportingCurrency: 'USD', rates: null }, /.+/],
    ];
    for (const [body, detail] of bad) {
      const res = await call('PUT', '/analytics/settings/', body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.detail).toMatch(detail);
    }
    for (const query of ['usd', 'XYZ']) {
      const res = await call('GET', `/analytics/mrr/?reportingCurrency=${query}`);
      expect(res.status, query).toBe(400);
      expect(res.body.detail).toEqual(expect.any(String));
    }
    // Nothing refused was kept.
    expect((await call('GET', '/analytics/settings/')).body.rates.map((r: { currency: string; rate: string }) => [r.currency, r.rate])).toEqual([['EUR', '1.08']]);
  });

  it("lets a person with the settings permission change it, names them as its setter, and refuses the other roles", async () => {
    const developer = await signedInMember(server, org, 'developer');
    const refused = await developer.api('PUT', '/sandbox/api/v1/analytics/settings/', { reportingCurrency: 'EUR' });
    expect(refused.status, refused.text).toBe(403);
    expect(refused.body.detail).toContain('reporting currency');
    expect((await developer.api('GET', '/sandbox/api/v1/analytics/settings/')).status).toBe(200);
    const admin = await signedInMember(server, org, 'admin');
    const set = await admin.api('PUT', '/sandbox/api/v1/analytics/settings/', { reportingCurrency: 'USD', rates: [{ currency: 'EUR', rate: '1.08' }, { currency: 'GBP', rate: '1.25' }] });
    expect(set.status, set.text).toBe(200);
    expect(set.body.rates.map((r: { currency: string; setBy: string }) => [r.currency, r.setBy === admin.email])).toEqual([['EUR', false], ['GBP', true]]);
    expect((await call('PUT', '/analytics/settings/', { reportingCurrency: 'USD', rates: [{ currency: 'EUR', rate: '1.08' }] })).status).toBe(200);
  });

  it('forgets the reporting currency when set to none, and finds its rates again when chosen again', async () => {
    expect((await call('PUT', '/analytics/settings/', { reportingCurrency: null, rates: [] })).body).toMatchObject({ reportingCurrency: null, rates: [], conversion: null });
    expect((await call('PUT', '/analytics/settings/', { reportingCurrency: 'EUR', rates: [] })).body).toMatchObject({ reportingCurrency: 'EUR', rates: [] });
    const back = await call('GET', '/analytics/settings/');
    expect(back.body.rates).toEqual([]);
    const usd = await call('PUT', '/analytics/settings/', { reportingCurrency: 'USD' });
    expect(usd.status, usd.text).toBe(200);
    expect(usd.body.rates.map((r: { currency: string; rate: string }) => [r.currency, r.rate])).toEqual([['EUR', '1.08']]);
  });
});

describe('concurrent changes', () => {
  it('takes them one at a time, the first ones of an environment included', async () => {
    const other = await server.createOrg();
    const put = (rate: string) =>
      server.request('PUT', '/sandbox/api/v1/analytics/settings/', { key: other.sandbox.serverKey, body: { reportingCurrency: 'USD', rates: [{ currency: 'EUR', rate }] } });
    const answers = await Promise.all(['1.01', '1.02', '1.03', '1.04', '1.05'].map(put));
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200, 200]);
    const kept = await server.request('GET', '/sandbox/api/v1/analytics/settings/', { key: other.sandbox.serverKey });
    expect(kept.body.rates).toHaveLength(1);
    expect(answers.map((a) => a.body.rates[0].rate)).toContain(kept.body.rates[0].rate);
  });
});
