import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openShop, type Shop } from './commerce-support.js';
import type { TestOrg, TestServer } from './harness.js';

/** PUT and DELETE /catalog/plans/{identifier}/prices/{currency}/ (decision 0086): one currency's price, the others kept. */
let server: TestServer;
let org: TestOrg;
let s: Shop;
let plan: string;
const monthly = (amount: unknown) => ({ priceType: 'PAID', chargeCatalogPrice: [{ charges: [{ chargePeriod: 'MONTHLY', priceData: { amount } }] }] });
const put = (currency: string, body: unknown) => s.call('PUT', `/catalog/plans/${plan}/prices/${currency}/`, body);
const amounts = (prices: Array<{ currency: string; chargeCatalogPrice: Array<{ charges: Array<{ priceData: { amount: number } }> }> }>) =>
  Object.fromEntries(prices.map((p) => [p.currency, p.chargeCatalogPrice[0]!.charges[0]!.priceData.amount]));

beforeAll(async () => {
  ({ server, org, s } = await openShop());
  plan = (await s.api.plan(s.product.id, { name: 'Currencies' })).identifier;
  await s.api.prices(plan, [{ ...monthly(10), currency: 'USD' }]);
  await s.api.publish(plan);
});
afterAll(() => server.close());

describe("a plan's price in one currency", () => {
  it('adds, changes and removes one currency, keeping the others, on a new draft', async () => {
    const eur = await put('eur', monthly(9));
    expect(eur.status).toBe(200);
    expect(amounts(eur.body.prices)).toEqual({ USD: 10, EUR: 9 });
    expect(eur.body.prices[0].version).toBe(2);
    const usd = await put('USD', monthly(12.5));
    expect(amounts(usd.body.prices)).toEqual({ USD: 12.5, EUR: 9 });
    const removed = await s.call('DELETE', `/catalog/plans/${plan}/prices/EUR/`);
    expect(removed.status).toBe(200);
    expect(amounts(removed.body.prices)).toEqual({ USD: 12.5 });
    const listed = await s.call('GET', `/catalog/plans/${plan}/prices/`);
    expect(amounts(listed.body.results)).toEqual({ USD: 12.5 });
    const published = await s.call('GET', `/catalog/plans/${plan}/prices/?version=1`);
    expect(amounts(published.body.results)).toEqual({ USD: 10 });
    const audit = await s.call('GET', '/audit-log/?resource=catalog');
    expect(audit.body.results.map((e: { action: string }) => e.action)).toEqual(
      expect.arrayContaining(['PUT /api/v1/catalog/plans/:identifier/prices/:currency/', 'DELETE /api/v1/catalog/plans/:identifier/prices/:currency/']),
    );
  });

  it('refuses bad input in words, and changes nothing', async () => {
    const before = amounts((await s.call('GET', `/catalog/plans/${plan}/prices/`)).body.results);
    const code = await put('XYZ', monthly(5));
    expect(code.status).toBe(400);
    expect(code.body.detail).toMatch(/XYZ/);
    const negative = await put('GBP', monthly(-1));
    expect(negative.status).toBe(400);
    expect(negative.body.detail).toBeTruthy();
    const decimals = await put('JPY', monthly(10.5));
    expect(decimals.status).toBe(400);
    const withCurrency = await put('GBP', { ...monthly(5), currency: 'GBP' });
    expect(withCurrency.status).toBe(400);
    const missing = await s.call('DELETE', `/catalog/plans/${plan}/prices/CHF/`);
    expect(missing.status).toBe(404);
    expect(missing.body.code).toBe('price_not_found');
    expect((await s.call('PUT', `/catalog/plans/no-such-plan/prices/USD/`, monthly(5))).status).toBe(404);
    expect(amounts((await s.call('GET', `/catalog/plans/${plan}/prices/`)).body.results)).toEqual(before);
  });

  it('takes a server key only', async () => {
    const client = await server.request('PUT', `/sandbox/api/v1/catalog/plans/${plan}/prices/USD/`, { key: org.sandbox.clientKey, body: monthly(5) });
    expect([401, 403]).toContain(client.status);
  });
});
