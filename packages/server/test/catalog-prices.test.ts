import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { catalogClient, monthly } from './catalog-support.js';
import { startTestServer, uniqueId, type TestOrg, type TestServer } from './harness.js';

let server: TestServer;
let org: TestOrg;
let api: ReturnType<typeof catalogClient>;
let productId: string;
let meter: { id: string; identifier: string };
let seats: { id: string; identifier: string };

beforeAll(async () => {
  server = await startTestServer();
  org = await server.createOrg();
  api = catalogClient(server, org.production.serverKey);
  productId = (await api.product()).id;
  const units = { singular: 'call', plural: 'calls' };
  meter = await api.feature({ name: 'API calls', featureType: 'METER', featureDetails: { featureSubType: 'PRE_AGGREGATED_USAGE', units } });
  seats = await api.feature({ name: 'Seats', featureType: 'METER', featureDetails: { featureSubType: 'PRE_AGGREGATED_USAGE', units: { singular: 'seat', plural: 'seats' } } });
  await api.feature({ name: 'SSO', featureType: 'BOOLEAN' });
});
afterAll(() => server.close());

const newPlan = async () => (await api.plan(productId)).identifier as string;
const bulk = (identifier: string, prices: unknown[]) =>
  api.call('POST', `/catalog/plans/${identifier}/prices/bulk/`, { prices });
const charge = (body: Record<string, unknown>, priceExtra: Record<string, unknown> = {}) => ({
  priceType: 'PAID',
  currency: 'USD',
  ...priceExtra,
  chargeCatalogPrice: [body],
});

describe('plan prices', () => {
  it('store amounts exactly and answer them as sent, with new ids each time', async () => {
    const identifier = await newPlan();
    const first = await bulk(identifier, [
      {
        priceType: 'PAID',
        currency: 'usd',
        freeTrial: true,
        taxBehavior: 'INCLUSIVE',
        chargeCatalogPrice: [
          {
            charges: [
              { chargePeriod: 'MONTHLY', priceData: { amount: 19.99 } },
              { chargePeriod: 'YEARLY', priceData: { amount: 199.9 } },
            ],
          },
          {
            feature: meter.identifier,
            priceModel: 'TIERED',
            charges: [
              {
                chargePeriod: 'MONTHLY',
                tiers: [
                  { upTo: 1000, unitAmount: 0, flatAmount: 0 },
                  { upTo: 10000, unitAmount: 0.01 },
                  { upTo: 'inf', unitAmount: 0.07, flatAmount: 4.35 },
                ],
              },
            ],
          },
        ],
      },
      charge({ charges: [{ chargePeriod: 'MONTHLY', priceData: { amount: 2500 } }] }, { currency: 'JPY' }),
      charge({ charges: [{ chargePeriod: 'MONTHLY', priceData: { amount: 1.005 } }] }, { currency: 'BHD' }),
    ]);
    expect(first.status).toBe(200);
    const [usd, jpy, bhd] = first.body.prices;
    expect(usd).toMatchObject({ currency: 'USD', freeTrial: true, trialPeriod: 7, taxBehavior: 'INCLUSIVE', enabled: true, version: 1 });
    expect(usd.chargeCatalogPrice[0].charges.map((c: any) => c.priceData.amount)).toEqual([19.99, 199.9]);
    expect(usd.chargeCatalogPrice[1].feature).toBe(meter.id);
    expect(usd.chargeCatalogPrice[1].charges[0].tiers).toEqual([
      { upTo: 1000, unitAmount: 0, flatAmount: 0 },
      { upTo: 10000, unitAmount: 0.01, flatAmount: null },
      { upTo: 'inf', unitAmount: 0.07, flatAmount: 4.35 },
    ]);
    expect(jpy.chargeCatalogPrice[0].charges[0].priceData.amount).toBe(2500);
    expect(bhd.chargeCatalogPrice[0].charges[0].priceData.amount).toBe(1.005);

    const stored = await server.database.db
      .selectFrom('plan_prices')
      .select(['charge_catalog_price', 'currency'])
      .where('id', '=', usd.id)
      .executeTakeFirstOrThrow();
    expect((stored.charge_catalog_price as any)[0].charges[0].amount).toBe(1999);

    const listed = await api.call('GET', `/catalog/plans/${identifier}/prices/`);
    expect(listed.body.count).toBe(3);
    expect(listed.body.results).toEqual(first.body.prices);

    const second = await bulk(identifier, [monthly(5)]);
    expect(second.body.prices[0].id).not.toBe(usd.id);
    expect((await api.call('GET', `/catalog/plans/${identifier}/prices/`)).body.count).toBe(1);
  });

  it('replace atomically: an invalid third price leaves the old prices intact', async () => {
    const identifier = await newPlan();
    const before = (await bulk(identifier, [monthly(10), monthly(9, 'EUR')])).body.prices;
    const res = await bulk(identifier, [
      monthly(11),
      monthly(10, 'EUR'),
      charge({ charges: [{ chargePeriod: 'MONTHLY', priceData: { amount: 1.234 } }] }, { currency: 'GBP' }),
    ]);
    expect(res.status).toBe(400);
    expect(res.body.detail).toBe('prices[2].chargeCatalogPrice[0].charges[0].priceData.amount: 1.234 has more than 2 decimal places');
    const after = await api.call('GET', `/catalog/plans/${identifier}/prices/`);
    expect(after.body.results).toEqual(before);
  });

  it.each([
    ['two PAID prices in one currency', [monthly(1), monthly(2)], /prices\[1\]\.currency: two PAID prices in USD/],
    ['an unknown currency', [monthly(1, 'ABC')], /prices\[0\]\.currency/],
    ['a negative amount', [monthly(-1)], /priceData\.amount/],
    ['a fraction of a yen', [monthly(0.5, 'JPY')], /whole number/],
    ['no amount on FLAT', [charge({ charges: [{ chargePeriod: 'MONTHLY' }] })], /priceData\.amount: is required/],
    ['a PAID price with no charge', [{ priceType: 'PAID', currency: 'USD' }], /at least one charge/],
    ['a FREE price with an amount', [{ ...monthly(3), priceType: 'FREE' }], /FREE price charges nothing/],
    ['a tiered model without a feature', [charge({ priceModel: 'TIERED', charges: [{ chargePeriod: 'MONTHLY', tiers: [{ upTo: 'inf', unitAmount: 1 }] }] })], /must name the feature/],
    ['an unknown feature', [charge({ feature: 'no-such-feature', charges: [{ chargePeriod: 'MONTHLY', priceData: { amount: 1 } }] })], /feature: no feature "no-such-feature"/],
    ['a BOOLEAN feature', [charge({ feature: 'sso', charges: [{ chargePeriod: 'MONTHLY', priceData: { amount: 1 } }] })], /BOOLEAN/],
    ['tiers out of order', [charge({ feature: 'api-calls', priceModel: 'VOLUME', charges: [{ chargePeriod: 'MONTHLY', tiers: [{ upTo: 100, unitAmount: 1 }, { upTo: 50, unitAmount: 1 }, { upTo: 'inf', unitAmount: 1 }] }] })], /tiers\[1\]\.upTo: tiers must be in ascending order/],
    ['a last tier that is not "inf"', [charge({ feature: 'api-calls', priceModel: 'TIERED', charges: [{ chargePeriod: 'MONTHLY', tiers: [{ upTo: 100, unitAmount: 1 }] }] })], /the last tier must be "inf"/],
    ['a STAIRSTEP tier with a unit amount', [charge({ feature: 'api-calls', priceModel: 'STAIRSTEP', charges: [{ chargePeriod: 'MONTHLY', tiers: [{ upTo: 'inf', flatAmount: 5, unitAmount: 1 }] }] })], /STAIRSTEP tier has no per-unit amount/],
    ['PACKAGE without a block size', [charge({ feature: 'api-calls', priceModel: 'PACKAGE', charges: [{ chargePeriod: 'MONTHLY', priceData: { amount: 5 } }] })], /blockSize: is required/],
    ['PAY_AS_YOU_GO with STAIRSTEP', [charge({ feature: 'api-calls', priceModel: 'STAIRSTEP', paymentType: 'PAY_AS_YOU_GO', charges: [{ chargePeriod: 'MONTHLY', tiers: [{ upTo: 'inf', flatAmount: 5 }] }] })], /STAIRSTEP/],
    ['PAY_AS_YOU_GO billed yearly', [charge({ feature: 'api-calls', paymentType: 'PAY_AS_YOU_GO', charges: [{ chargePeriod: 'YEARLY', priceData: { amount: 0.01 } }] })], /MONTHLY only/],
    ['PAY_AS_YOU_GO with a yearly base fee', [{ priceType: 'PAID', currency: 'USD', chargeCatalogPrice: [{ charges: [{ chargePeriod: 'YEARLY', priceData: { amount: 100 } }] }, { feature: 'api-calls', paymentType: 'PAY_AS_YOU_GO', charges: [{ chargePeriod: 'MONTHLY', priceData: { amount: 0.01 } }] }] }], /billed MONTHLY only/],
    ['PAY_AS_YOU_GO with rollover', [charge({ feature: 'api-calls', paymentType: 'PAY_AS_YOU_GO', rollover: { enabled: true, percentage: 50 }, charges: [{ chargePeriod: 'MONTHLY', priceData: { amount: 0.01 } }] })], /roll over/],
    ['PAY_AS_YOU_GO with a reset', [charge({ feature: 'api-calls', paymentType: 'PAY_AS_YOU_GO', reset: 'EVERY_DAY', charges: [{ chargePeriod: 'MONTHLY', priceData: { amount: 0.01 } }] })], /reset/],
    ['a one-time base fee with a tiered feature', [{ priceType: 'PAID', currency: 'USD', chargeCatalogPrice: [{ charges: [{ chargePeriod: 'ONE_TIME', priceData: { amount: 100 } }] }, { feature: 'api-calls', priceModel: 'TIERED', charges: [{ chargePeriod: 'MONTHLY', tiers: [{ upTo: 'inf', unitAmount: 1 }] }] }] }], /one-time base fee/],
    ['an unknown price model', [charge({ priceModel: 'CUBIC', charges: [{ chargePeriod: 'MONTHLY', priceData: { amount: 1 } }] })], /priceModel/],
    ['an unknown field', [{ ...monthly(1), discount: 5 }], /prices\[0\]\.discount is not a known field/],
  ])('refuse %s with 400 naming the field', async (_name, prices, detail) => {
    const identifier = await newPlan();
    const res = await bulk(identifier, prices);
    expect(res.status).toBe(400);
    expect(res.body.detail).toMatch(detail);
    expect((await api.call('GET', `/catalog/plans/${identifier}/prices/`)).body.count).toBe(0);
  });

  it('accept every model and payment type within the rules, and snake_case fields', async () => {
    const identifier = await newPlan();
    const res = await api.call('POST', `/catalog/plans/${identifier}/prices/bulk/`, {
      prices: [
        {
          price_type: 'PAID',
          currency: 'EUR',
          charge_catalog_price: [
            { charges: [{ charge_period: 'MONTHLY', price_data: { amount: 49 } }] },
            { feature: seats.id, price_model: 'FLAT', charges: [{ charge_period: 'MONTHLY', price_data: { amount: 8 }, advanced: { min_quantity: 1, max_quantity: 50 } }] },
            { feature: meter.id, price_model: 'PACKAGE', payment_type: 'PAY_AS_YOU_GO', charges: [{ charge_period: 'MONTHLY', price_data: { amount: 2.5, block_size: 1000 } }] },
          ],
        },
        {
          priceType: 'PAID',
          currency: 'GBP',
          chargeCatalogPrice: [
            { feature: meter.identifier, priceModel: 'STAIRSTEP', reset: 'EVERY_MONTH', usageAlerts: { enabled: true, thresholds: [75, 90] }, charges: [{ chargePeriod: 'YEARLY', tiers: [{ upTo: 10, flatAmount: 10 }, { upTo: 'inf', flatAmount: 80 }] }] },
          ],
        },
        { priceType: 'CUSTOM', currency: 'CHF' },
        { priceType: 'FREE', currency: 'SEK', chargeCatalogPrice: [{ charges: [{ chargePeriod: 'MONTHLY', priceData: { amount: 0 } }] }] },
      ],
    });
    expect(res.status).toBe(200);
    const [eur, gbp] = res.body.prices;
    expect(eur.chargeCatalogPrice[1].charges[0].advanced).toEqual({ minQuantity: 1, maxQuantity: 50 });
    expect(eur.chargeCatalogPrice[2]).toMatchObject({ priceModel: 'PACKAGE', paymentType: 'PAY_AS_YOU_GO' });
    expect(eur.chargeCatalogPrice[2].charges[0].priceData).toEqual({ amount: 2.5, blockSize: 1000, currency: 'EUR' });
    expect(gbp.chargeCatalogPrice[0]).toMatchObject({ reset: 'EVERY_MONTH', resetTime: 'BEGINNING_OF_PERIOD', usageAlerts: { thresholds: [75, 90] } });
  });

  it("take the product's currency when a price names none", async () => {
    const product = await api.product();
    await api.call('PATCH', `/catalog/products/${product.id}/settings/`, { currency: 'eur' });
    const plan = await api.plan(product.id);
    const res = await bulk(plan.identifier, [{ priceType: 'PAID', chargeCatalogPrice: [{ charges: [{ chargePeriod: 'MONTHLY', priceData: { amount: 3 } }] }] }]);
    expect(res.body.prices[0].currency).toBe('EUR');
  });

  it("refuse another environment's feature", async () => {
    const sandbox = catalogClient(server, org.sandbox.serverKey, '/sandbox');
    const theirs = await sandbox.feature({ name: uniqueId('Storage'), featureType: 'CUSTOMIZABLE' });
    const identifier = await newPlan();
    const res = await bulk(identifier, [charge({ feature: theirs.id, charges: [{ chargePeriod: 'MONTHLY', priceData: { amount: 1 } }] })]);
    expect(res.status).toBe(400);
    expect(res.body.detail).toMatch(/no feature/);
  });
});
