import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { catalogClient } from './catalog-support.js';
import { startTestServer, type TestOrg, type TestServer } from './harness.js';

let server: TestServer;
let org: TestOrg;

beforeAll(async () => {
  server = await startTestServer();
  org = await server.createOrg('Acme Analytics');
});
afterAll(() => server.close());

const tiers = [
  { name: 'Starter', monthly: { USD: 9, EUR: 8.5 }, yearly: { USD: 90, EUR: 85 }, events: 10_000, sso: false },
  { name: 'Growth', monthly: { USD: 49, EUR: 45.99 }, yearly: { USD: 490, EUR: 459.9 }, events: 250_000, sso: false },
  { name: 'Scale', monthly: { USD: 199.99, EUR: 185 }, yearly: { USD: 1999.9, EUR: 1850 }, events: null, sso: true },
] as const;

describe('a realistic catalog', () => {
  it('is built through the API and read back whole', async () => {
    const api = catalogClient(server, org.sandbox.serverKey, '/sandbox');
    const product = (await api.call('POST', '/catalog/products/', { name: 'Acme Analytics', taxCode: 'saas', description: 'Product analytics' })).body;
    const sso = await api.feature({ name: 'Single sign-on', identifier: 'sso', featureType: 'BOOLEAN' });
    const events = await api.feature({
      name: 'Tracked events',
      identifier: 'events',
      featureType: 'METER',
      featureDetails: { featureSubType: 'PRE_AGGREGATED_USAGE', units: { singular: 'event', plural: 'events' } },
    });
    const projects = await api.feature({ name: 'Projects', identifier: 'projects', featureType: 'CUSTOMIZABLE' });

    for (const [ordering, tier] of tiers.entries()) {
      const identifier = tier.name.toLowerCase();
      await api.plan(product.id, { name: tier.name, identifier, ordering, links: [{ name: 'Docs', url: 'https://docs.acme.test' }] });
      await api.prices(
        identifier,
        (['USD', 'EUR'] as const).map((currency) => ({
          priceType: 'PAID',
          currency,
          freeTrial: tier.name === 'Growth',
          trialPeriod: tier.name === 'Growth' ? 14 : 0,
          chargeCatalogPrice: [
            {
              charges: [
                { chargePeriod: 'MONTHLY', priceData: { amount: tier.monthly[currency] } },
                { chargePeriod: 'YEARLY', priceData: { amount: tier.yearly[currency] } },
              ],
            },
          ],
        })),
      );
      const added = await api.call('POST', `/catalog/plans/${identifier}/features/`, {
        planEntitlements: [
          { feature: sso.id, details: { value: tier.sso } },
          { feature: events.identifier, details: tier.events === null ? { hasUnlimitedUsage: true } : { value: tier.events, hardLimit: true } },
          { feature: projects.id, details: { value: (ordering + 1) * 5 } },
        ],
      });
      expect(added.status).toBe(201);
      await api.publish(identifier);
    }

    const readProduct = await api.call('GET', `/catalog/products/${product.id}/`);
    expect(readProduct.body.plans).toEqual(['starter', 'growth', 'scale']);

    const plans = await api.call('GET', '/catalog/plans/');
    expect(plans.body.count).toBe(3);
    expect(plans.body.results.map((p: any) => [p.identifier, p.version, p.isLatest, p.ordering]).sort()).toEqual([
      ['growth', 1, true, 1],
      ['scale', 1, true, 2],
      ['starter', 1, true, 0],
    ]);

    for (const tier of tiers) {
      const identifier = tier.name.toLowerCase();
      const prices = (await api.call('GET', `/catalog/plans/${identifier}/prices/`)).body.results;
      expect(prices.map((p: any) => p.currency)).toEqual(['USD', 'EUR']);
      for (const price of prices) {
        const currency = price.currency as 'USD' | 'EUR';
        expect(price.chargeCatalogPrice[0].charges.map((c: any) => [c.chargePeriod, c.priceData.amount])).toEqual([
          ['MONTHLY', tier.monthly[currency]],
          ['YEARLY', tier.yearly[currency]],
        ]);
        expect(price.trialPeriod).toBe(tier.name === 'Growth' ? 14 : 0);
      }
      const grants = (await api.call('GET', `/catalog/plans/${identifier}/features/`)).body.results;
      const byFeature = Object.fromEntries(grants.map((g: any) => [g.feature.identifier, g.details]));
      expect(byFeature.sso.value).toBe(tier.sso);
      expect(byFeature.events).toMatchObject(
        tier.events === null
          ? { hasUnlimitedUsage: true, value: null, reset: 'EVERY_MONTH' }
          : { value: tier.events, hasUnlimitedUsage: false, hardLimit: true, reset: 'EVERY_MONTH' },
      );
      expect(grants.find((g: any) => g.feature.identifier === 'events').feature.featureDetails.units).toEqual({ singular: 'event', plural: 'events' });
      const plan = (await api.call('GET', `/catalog/plans/${identifier}/`)).body;
      expect(plan).toMatchObject({ name: tier.name, status: 'published', links: [{ name: 'Docs', url: 'https://docs.acme.test' }] });
    }

    const features = await api.call('GET', '/catalog/features/');
    expect(features.body.results.map((f: any) => f.identifier).sort()).toEqual(['events', 'projects', 'sso']);

    const production = catalogClient(server, org.production.serverKey);
    expect((await production.call('GET', '/catalog/plans/')).body.count).toBe(0);
    expect((await production.call('GET', `/catalog/products/${product.id}/`)).status).toBe(404);
  });
});
