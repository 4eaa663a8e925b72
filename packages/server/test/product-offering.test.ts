import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { prefixOf, startTestServer, uniqueId, type TestOrg, type TestServer } from './harness.js';

type Env = 'sandbox' | 'production';

let server: TestServer;
let org: TestOrg;
let otherOrg: TestOrg;

beforeAll(async () => {
  server = await startTestServer();
  [org, otherOrg] = await Promise.all([server.createOrg(), server.createOrg()]);
});
afterAll(() => server.close());

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** Catalog writes through the API, failing the test at once when one is refused. */
function catalog(env: Env = 'sandbox', owner: () => TestOrg = () => org) {
  const api = `${prefixOf(env)}/api/v1`;
  const call = async (method: string, path: string, body?: unknown, expected = [200, 201, 204]) => {
    const res = await server.request(method, `${api}${path}`, { key: owner()[env].serverKey, body });
    if (!expected.includes(res.status)) throw new Error(`${method} ${path}: ${res.status} ${res.text}`);
    return res.body;
  };
  return {
    call,
    async product(settings?: { currency: string }): Promise<{ id: string; identifier: string }> {
      const product = await call('POST', '/catalog/products/', { name: 'Offering test', identifier: uniqueId('prod'), taxCode: 'saas' });
      if (settings) await call('PATCH', `/catalog/products/${product.id}/settings/`, settings);
      return product;
    },
    async feature(featureType: 'BOOLEAN' | 'METER', extra: Record<string, unknown> = {}) {
      return call('POST', '/catalog/features/', {
        name: `${featureType} feature`,
        identifier: uniqueId(featureType.toLowerCase()),
        featureType,
        ...(featureType === 'METER'
          ? { featureDetails: { featureSubType: 'PRE_AGGREGATED_USAGE', units: { singular: 'call', plural: 'calls' } } }
          : {}),
        ...extra,
      });
    },
    /** A plan with prices (and entitlements); published unless told otherwise. Returns its identifier and price ids. */
    async plan(
      productId: string,
      options: {
        name?: string;
        prices: unknown[];
        entitlements?: Array<{ feature: string; details: Record<string, unknown> }>;
        publish?: boolean;
        extra?: Record<string, unknown>;
      },
    ): Promise<{ identifier: string; priceIds: string[] }> {
      const identifier = uniqueId('plan');
      await call('POST', '/catalog/plans/', { name: options.name ?? identifier, product: productId, identifier, ...options.extra });
      const { prices } = await call('POST', `/catalog/plans/${identifier}/prices/bulk/`, { prices: options.prices });
      if (options.entitlements) {
        await call('POST', `/catalog/plans/${identifier}/features/`, { planEntitlements: options.entitlements });
      }
      if (options.publish !== false) await call('POST', `/catalog/plans/${identifier}/publish/`, {});
      return { identifier, priceIds: prices.map((p: { id: string }) => p.id) };
    },
  };
}

/** A PAID price with one base charge per period given. */
const paid = (currency: string, amounts: Record<string, number>, extra: Record<string, unknown> = {}) => ({
  priceType: 'PAID',
  currency,
  ...extra,
  chargeCatalogPrice: [
    { charges: Object.entries(amounts).map(([chargePeriod, amount]) => ({ chargePeriod, priceData: { amount } })) },
  ],
});

function offering(productRef: string, query = '', options: { env?: Env; key?: string } = {}) {
  const env = options.env ?? 'sandbox';
  const key = options.key ?? org[env].serverKey;
  return server.request('GET', `${prefixOf(env)}/api/v1/monetization/product-offering/${productRef}/${query}`, { key });
}

const identifiersOf = (body: { plans: Array<{ identifier: string }> }) => body.plans.map((p) => p.identifier);
const planOf = (body: { plans: Array<{ identifier: string }> }, identifier: string): any =>
  body.plans.find((p) => p.identifier === identifier);

describe('GET /monetization/product-offering/{product_id}/', () => {
  it('shows only published, visible, live plans, each at its published version', async () => {
    const c = catalog();
    const product = await c.product();
    const boolean = await c.feature('BOOLEAN');
    const meter = await c.feature('METER');
    const basic = await c.plan(product.id, {
      name: 'Basic',
      prices: [paid('USD', { MONTHLY: 9.99, YEARLY: 99 })],
      entitlements: [{ feature: boolean.id, details: { value: true } }],
      extra: { description: 'For a start', metadata: { tier: 1 } },
    });
    const pro = await c.plan(product.id, {
      name: 'Pro',
      prices: [paid('USD', { MONTHLY: 19.99 })],
      entitlements: [
        { feature: meter.id, details: { value: 1000 } },
        { feature: boolean.id, details: { value: true } },
      ],
    });
    // A newer draft of pro: a new name, a new price and one entitlement fewer.
    await c.call('PATCH', `/catalog/plans/${pro.identifier}/`, { name: 'Pro v2' });
    await c.call('POST', `/catalog/plans/${pro.identifier}/prices/bulk/`, { prices: [paid('USD', { MONTHLY: 29.99 })] });
    await c.call('DELETE', `/catalog/plans/${pro.identifier}/features/${boolean.identifier}/`);
    const draftOnly = await c.plan(product.id, { prices: [paid('USD', { MONTHLY: 5 })], publish: false });
    const archived = await c.plan(product.id, { prices: [paid('USD', { MONTHLY: 6 })] });
    await c.call('DELETE', `/catalog/plans/${archived.identifier}/`);
    const hidden = await c.plan(product.id, { prices: [paid('USD', { MONTHLY: 7 })], extra: { isVisible: false } });

    const res = await offering(product.id);
    expect(res.status).toBe(200);
    expect(identifiersOf(res.body)).toEqual([basic.identifier, pro.identifier]);
    for (const gone of [draftOnly, archived, hidden]) expect(identifiersOf(res.body)).not.toContain(gone.identifier);

    expect(res.body).toMatchObject({
      organizationId: org.organizationId,
      countryCode: null,
      pricingLocale: 'en-US',
      currencyCode: 'USD',
      currencySymbol: '$',
      currencyConversionRate: 1,
      baseCurrencyCode: 'USD',
      baseCurrencySymbol: '$',
      subscription: { hasPreviousSubscription: false },
      isCustomerExists: false,
    });
    expect(planOf(res.body, basic.identifier)).toMatchObject({
      name: 'Basic',
      description: 'For a start',
      displayName: 'Basic',
      displayDescription: 'For a start',
      version: 1,
      isVisible: true,
      metadata: { tier: 1 },
      basePlan: null,
      details: {},
      shouldHighlight: false,
      enabled: true,
      includes: '',
      price: { id: basic.priceIds[0], priceType: 'PAID', currency: 'USD', enabled: true, freeTrial: false, trialPeriod: 0 },
      originalPrice: { MONTHLY: 9.99, YEARLY: 99 },
    });

    const shownPro = planOf(res.body, pro.identifier);
    expect(shownPro).toMatchObject({ name: 'Pro', version: 1, originalPrice: { MONTHLY: 19.99 } });
    expect(shownPro.price.id).toBe(pro.priceIds[0]);
    expect(shownPro.price.charges).toEqual([
      {
        id: expect.stringMatching(UUID),
        chargePeriod: 'MONTHLY',
        tiers: [],
        priceData: { amount: 19.99, currency: 'USD' },
        details: {},
        advanced: {},
        featureQuantityPrice: 19.99,
      },
    ]);
    expect(shownPro.features.map((f: { identifier: string }) => f.identifier)).toEqual([meter.identifier, boolean.identifier]);
    expect(shownPro.features[0]).toMatchObject({
      id: meter.id,
      name: 'METER feature',
      featureType: 'METER',
      featureDetails: { units: { singular: 'call', plural: 'calls' } },
      value: 1000,
      details: { value: 1000, hasUnlimitedUsage: false },
      charges: null,
      priceModel: null,
    });

    // Charge ids are stable from one call to the next.
    const again = await offering(product.id);
    expect(planOf(again.body, pro.identifier).price.charges[0].id).toBe(shownPro.price.charges[0].id);

    // Once the draft is published, it is what the offering shows.
    await c.call('POST', `/catalog/plans/${pro.identifier}/publish/`, {});
    const after = await offering(product.id);
    const proV2 = planOf(after.body, pro.identifier);
    expect(proV2).toMatchObject({ name: 'Pro v2', version: 2, originalPrice: { MONTHLY: 29.99 } });
    expect(proV2.features.map((f: { identifier: string }) => f.identifier)).toEqual([meter.identifier]);
    expect(proV2.price.id).not.toBe(pro.priceIds[0]);
  });

  it('lists a feature that is priced but not granted, with its usage charges', async () => {
    const c = catalog();
    const product = await c.product();
    const seats = await c.feature('METER');
    const plan = await c.plan(product.id, {
      prices: [
        {
          priceType: 'PAID',
          currency: 'USD',
          freeTrial: true,
          trialPeriod: 14,
          chargeCatalogPrice: [
            { charges: [{ chargePeriod: 'MONTHLY', priceData: { amount: 10 } }] },
            { feature: seats.id, priceModel: 'FLAT', charges: [{ chargePeriod: 'MONTHLY', priceData: { amount: 2.5 } }] },
          ],
        },
      ],
    });
    const res = await offering(product.id);
    const shown = planOf(res.body, plan.identifier);
    expect(shown.price).toMatchObject({ freeTrial: true, trialPeriod: 14 });
    expect(shown.price.charges.map((ch: { priceData: { amount: number } }) => ch.priceData.amount)).toEqual([10]);
    expect(shown.features).toHaveLength(1);
    expect(shown.features[0]).toMatchObject({
      identifier: seats.identifier,
      details: null,
      value: null,
      priceModel: 'FLAT',
      paymentType: 'ADVANCE_COMMITMENT',
      charges: [{ chargePeriod: 'MONTHLY', priceData: { amount: 2.5, currency: 'USD' }, featureQuantityPrice: 2.5 }],
    });
    expect(shown.features[0].charges[0].id).not.toBe(shown.price.charges[0].id);
  });

  it('shows prices in the requested currency, else the product currency, else the first enabled price', async () => {
    const c = catalog();
    const product = await c.product();
    const both = await c.plan(product.id, {
      prices: [paid('USD', { MONTHLY: 10 }), paid('EUR', { MONTHLY: 9 }), paid('JPY', { MONTHLY: 1500 })],
    });
    const usdOnly = await c.plan(product.id, { prices: [paid('USD', { MONTHLY: 20 })] });
    const disabledFirst = await c.plan(product.id, {
      prices: [paid('GBP', { MONTHLY: 5 }, { enabled: false }), paid('CHF', { MONTHLY: 8 })],
    });
    const shown = (body: any, identifier: string) => {
      const plan = planOf(body, identifier);
      return `${plan.price.currency} ${plan.originalPrice.MONTHLY}`;
    };

    // No currency asked for and none set on the product: the first plan's first enabled price decides.
    const plain = await offering(product.id);
    expect(plain.body).toMatchObject({ currencyCode: 'USD', baseCurrencyCode: 'USD', currencySymbol: '$' });
    expect(shown(plain.body, both.identifier)).toBe('USD 10');
    expect(shown(plain.body, usdOnly.identifier)).toBe('USD 20');
    expect(shown(plain.body, disabledFirst.identifier)).toBe('CHF 8');

    for (const query of ['?currency_code=eur', '?currencyCode=EUR']) {
      const eur = await offering(product.id, query);
      expect(eur.status).toBe(200);
      expect(eur.body).toMatchObject({ currencyCode: 'EUR', currencySymbol: '€', baseCurrencyCode: 'EUR' });
      expect(shown(eur.body, both.identifier)).toBe('EUR 9');
      expect(shown(eur.body, usdOnly.identifier)).toBe('USD 20');
    }

    const yen = await offering(product.id, '?currency_code=JPY');
    expect(yen.body).toMatchObject({ currencyCode: 'JPY', currencySymbol: '¥' });
    expect(planOf(yen.body, both.identifier).price.charges[0].priceData).toEqual({ amount: 1500, currency: 'JPY' });

    // A disabled price is never shown, even when asked for by its currency.
    const pounds = await offering(product.id, '?currency_code=GBP');
    expect(shown(pounds.body, disabledFirst.identifier)).toBe('CHF 8');

    // With a product currency, it is the default and the fallback.
    await c.call('PATCH', `/catalog/products/${product.id}/settings/`, { currency: 'EUR' });
    const byProduct = await offering(product.id);
    expect(byProduct.body).toMatchObject({ currencyCode: 'EUR', baseCurrencyCode: 'EUR', baseCurrencySymbol: '€' });
    expect(shown(byProduct.body, both.identifier)).toBe('EUR 9');
    const asked = await offering(product.id, '?currency_code=JPY');
    expect(asked.body).toMatchObject({ currencyCode: 'JPY', baseCurrencyCode: 'EUR' });
    expect(shown(asked.body, both.identifier)).toBe('JPY 1500');
    expect(shown(asked.body, usdOnly.identifier)).toBe('USD 20');

    const bad = await offering(product.id, '?currency_code=XYZ');
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ code: 'validation_error' });
    expect(bad.body.detail).toContain('currency_code');
  });

  it('lists the billing periods the shown prices use, monthly preselected', async () => {
    const c = catalog();
    const product = await c.product();
    const recurring = await c.plan(product.id, { prices: [paid('USD', { YEARLY: 100, MONTHLY: 10 })] });
    const free = await c.plan(product.id, {
      prices: [{ priceType: 'FREE', currency: 'USD', chargeCatalogPrice: [{ charges: [{ chargePeriod: 'ONE_TIME', priceData: { amount: 0 } }] }] }],
    });
    const all = await offering(product.id);
    expect(all.body.billingPeriods).toEqual([
      { chargePeriod: 'ONE_TIME', enabled: true, displayName: 'One Time', promoCaption: '', defaultSelected: false },
      { chargePeriod: 'MONTHLY', enabled: true, displayName: 'Monthly', promoCaption: '', defaultSelected: true },
      { chargePeriod: 'YEARLY', enabled: true, displayName: 'Yearly', promoCaption: '', defaultSelected: false },
    ]);
    expect(planOf(all.body, free.identifier)).toMatchObject({ price: { priceType: 'FREE' }, originalPrice: { ONE_TIME: 0 } });

    const onlyFree = await offering(product.id, `?plans_enabled=${free.identifier}`);
    expect(onlyFree.body.billingPeriods).toEqual([
      { chargePeriod: 'ONE_TIME', enabled: true, displayName: 'One Time', promoCaption: '', defaultSelected: true },
    ]);
    const onlyRecurring = await offering(product.id, `?plans_enabled=${recurring.identifier}`);
    expect(onlyRecurring.body.billingPeriods.map((p: { chargePeriod: string }) => p.chargePeriod)).toEqual(['MONTHLY', 'YEARLY']);
  });

  it('limits the plans to plans_enabled', async () => {
    const c = catalog();
    const product = await c.product();
    const [a, b, d] = [
      await c.plan(product.id, { prices: [paid('USD', { MONTHLY: 1 })] }),
      await c.plan(product.id, { prices: [paid('USD', { MONTHLY: 2 })] }),
      await c.plan(product.id, { prices: [paid('USD', { MONTHLY: 3 })] }),
    ];
    const draft = await c.plan(product.id, { prices: [paid('USD', { MONTHLY: 4 })], publish: false });

    const two = await offering(product.id, `?plans_enabled=${d.identifier},%20${a.identifier},unknown-plan,${draft.identifier}`);
    expect(two.status).toBe(200);
    expect(identifiersOf(two.body)).toEqual([a.identifier, d.identifier]);
    const camel = await offering(product.id, `?plansEnabled=${b.identifier}`);
    expect(identifiersOf(camel.body)).toEqual([b.identifier]);
    const none = await offering(product.id, '?plans_enabled=nothing-here');
    expect(none.body.plans).toEqual([]);
    expect(none.body.billingPeriods).toEqual([]);
    const empty = await offering(product.id, '?plans_enabled=');
    expect(identifiersOf(empty.body)).toEqual([a.identifier, b.identifier, d.identifier]);
  });

  it('locates the buyer by ip_address for a server key, and by the caller for a client key', async () => {
    const c = catalog();
    const product = await c.product();
    await c.plan(product.id, { prices: [paid('USD', { MONTHLY: 12 })] });
    const located = await offering(product.id, '?ip_address=85.214.0.1');
    expect(located.body.countryCode).toBe('DE');
    const claimed = await offering(product.id, '?ip_address=85.214.0.1', { key: org.sandbox.clientKey });
    expect(claimed.body.countryCode).toBeNull();
  });

  it('answers a client key like a server key, and honours ip_address only for a server key', async () => {
    const c = catalog();
    const product = await c.product();
    await c.plan(product.id, { prices: [paid('USD', { MONTHLY: 12 })] });
    const byServer = await offering(product.id);
    const byClient = await offering(product.id, '', { key: org.sandbox.clientKey });
    expect(byClient.status).toBe(200);
    expect(byClient.body).toEqual(byServer.body);

    const clientWithIp = await offering(product.id, '?ip_address=not-an-ip', { key: org.sandbox.clientKey });
    expect(clientWithIp.status).toBe(200);
    expect(clientWithIp.body).toEqual(byServer.body);

    const serverWithBadIp = await offering(product.id, '?ip_address=not-an-ip');
    expect(serverWithBadIp.status).toBe(400);
    expect(serverWithBadIp.body).toMatchObject({ code: 'validation_error' });
    expect(serverWithBadIp.body.detail).toContain('ip_address');
    const serverWithIp = await offering(product.id, '?ipAddress=203.0.113.42');
    expect(serverWithIp.status).toBe(200);
    expect(serverWithIp.body).toEqual(byServer.body);

    // Writes stay server-only.
    const write = await server.request('POST', '/sandbox/api/v1/catalog/products/', {
      key: org.sandbox.clientKey,
      body: { name: 'Nope', taxCode: 'saas' },
    });
    expect(write.status).toBe(403);
  });

  it('tells whether the customer exists, and takes its country from the billing address', async () => {
    const c = catalog();
    const product = await c.product();
    await c.plan(product.id, { prices: [paid('USD', { MONTHLY: 12 })] });
    const german = uniqueId('cust');
    const plain = uniqueId('cust');
    const gone = uniqueId('cust');
    await c.call('POST', '/customers/', { customerId: german, billingAddress: { country: 'de' } });
    await c.call('POST', '/customers/', { customerId: plain });
    await c.call('POST', '/customers/', { customerId: gone });
    await c.call('DELETE', `/customers/${gone}/`);
    const elsewhere = uniqueId('cust');
    await catalog('production').call('POST', '/customers/', { customerId: elsewhere });

    const known = await offering(product.id, `?customer_id=${german}`, { key: org.sandbox.clientKey });
    expect(known.body).toMatchObject({
      isCustomerExists: true,
      countryCode: 'DE',
      pricingLocale: 'en-DE',
      currencyCode: 'USD',
      subscription: { hasPreviousSubscription: false },
    });
    const camel = await offering(product.id, `?customerId=${plain}`);
    expect(camel.body).toMatchObject({ isCustomerExists: true, countryCode: null, pricingLocale: 'en-US' });
    for (const customerId of ['nobody-at-all', gone, elsewhere]) {
      const res = await offering(product.id, `?customer_id=${customerId}`);
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ isCustomerExists: false, countryCode: null, subscription: { hasPreviousSubscription: false } });
    }
  });

  it("reports the customer's subscription of this product: the one that grants it now, or only that there was one", async () => {
    const c = catalog();
    const product = await c.product();
    const other = await c.product();
    const basic = await c.plan(product.id, { prices: [paid('USD', { MONTHLY: 12, YEARLY: 120 })] });
    const pro = await c.plan(product.id, { prices: [paid('USD', { MONTHLY: 24 })] });
    await c.plan(other.id, { prices: [paid('USD', { MONTHLY: 5 })] });
    const buyer = async () => {
      const customerId = uniqueId('cust');
      await c.call('POST', '/customers/', { customerId });
      await c.call('POST', '/payment-methods/', { customerId, cardNumber: '4242424242424242', expMonth: 12, expYear: 2035, cvc: '123' });
      return customerId;
    };
    const subscribe = async (customerId: string, planIdentifier: string, chargePeriod = 'MONTHLY') =>
      (await c.call('POST', '/subscriptions/create/', { customerId, planIdentifier, chargePeriod })).id as string;
    const stateOf = async (customerId: string, productId = product.id, options: { key?: string } = {}) => {
      const res = await offering(productId, `?customer_id=${customerId}`, options);
      expect(res.status).toBe(200);
      return res.body.subscription;
    };

    const yearly = await buyer();
    const yearlyId = await subscribe(yearly, basic.identifier, 'YEARLY');
    const current = { hasPreviousSubscription: true, planIdentifier: basic.identifier, subscriptionId: yearlyId, chargePeriod: 'YEARLY' };
    expect(await stateOf(yearly)).toEqual(current);
    expect(await stateOf(yearly, product.id, { key: org.sandbox.clientKey })).toEqual(current);
    expect(await stateOf(yearly, other.id)).toEqual({ hasPreviousSubscription: false });

    // Until a cancellation at the period's end takes effect, the subscription still grants.
    await c.call('POST', `/subscriptions/${yearlyId}/cancel/`, { cancellationType: 'CURRENT_PERIOD_ENDS' });
    expect(await stateOf(yearly)).toEqual(current);

    const gone = await buyer();
    const goneId = await subscribe(gone, basic.identifier);
    await c.call('POST', `/subscriptions/${goneId}/cancel/`, { cancellationType: 'IMMEDIATE' });
    expect(await stateOf(gone)).toEqual({ hasPreviousSubscription: true, planIdentifier: null, subscriptionId: null, chargePeriod: null });

    const upgraded = await buyer();
    const firstId = await subscribe(upgraded, basic.identifier);
    const { subscriptionId: nextId } = await c.call('POST', `/subscriptions/${firstId}/update/`, {
      planIdentifier: pro.identifier,
      chargePeriod: 'MONTHLY',
    });
    expect(nextId).not.toBe(firstId);
    expect(await stateOf(upgraded)).toEqual({
      hasPreviousSubscription: true,
      planIdentifier: pro.identifier,
      subscriptionId: nextId,
      chargePeriod: 'MONTHLY',
    });
  });

  it('finds a product by identifier too, and answers 404 for unknown and archived products', async () => {
    const c = catalog();
    const product = await c.product();
    await c.plan(product.id, { prices: [paid('USD', { MONTHLY: 12 })] });
    const byId = await offering(product.id);
    const byIdentifier = await offering(product.identifier, '', { key: org.sandbox.clientKey });
    expect(byIdentifier.status).toBe(200);
    expect(byIdentifier.body).toEqual(byId.body);

    for (const ref of ['00000000-0000-4000-8000-000000000000', 'no-such-product']) {
      const res = await offering(ref);
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ detail: expect.stringContaining(ref), code: 'product_not_found' });
    }
    await c.call('DELETE', `/catalog/products/${product.id}/`);
    for (const ref of [product.id, product.identifier]) {
      const res = await offering(ref, '', { key: org.sandbox.clientKey });
      expect(res.status).toBe(404);
      expect(res.body.code).toBe('product_not_found');
    }
  });

  it("keeps environments and organizations apart", async () => {
    const sandbox = catalog('sandbox');
    const production = catalog('production');
    const sandboxProduct = await sandbox.product();
    const sandboxPlan = await sandbox.plan(sandboxProduct.id, { prices: [paid('USD', { MONTHLY: 1 })] });
    // The same identifier in production is another product, with its own plans.
    const productionProduct = await production.call('POST', '/catalog/products/', {
      name: 'Twin',
      identifier: sandboxProduct.identifier,
      taxCode: 'saas',
    });
    const productionPlan = await production.plan(productionProduct.id, { prices: [paid('USD', { MONTHLY: 2 })] });

    const inSandbox = await offering(sandboxProduct.identifier, '', { env: 'sandbox', key: org.sandbox.clientKey });
    expect(identifiersOf(inSandbox.body)).toEqual([sandboxPlan.identifier]);
    const inProduction = await offering(sandboxProduct.identifier, '', { env: 'production', key: org.production.clientKey });
    expect(identifiersOf(inProduction.body)).toEqual([productionPlan.identifier]);

    // A product id of the other environment is unknown here.
    expect((await offering(sandboxProduct.id, '', { env: 'production' })).status).toBe(404);
    expect((await offering(productionProduct.id, '', { env: 'sandbox' })).status).toBe(404);
    // And another organization's product is unknown to this one.
    const theirs = catalog('sandbox', () => otherOrg);
    const theirProduct = await theirs.product();
    await theirs.plan(theirProduct.id, { prices: [paid('USD', { MONTHLY: 3 })] });
    expect((await offering(theirProduct.id)).status).toBe(404);
    const own = await offering(theirProduct.id, '', { key: otherOrg.sandbox.clientKey });
    expect(own.status).toBe(200);
    expect(own.body.organizationId).toBe(otherOrg.organizationId);
  });

  it('is documented in the OpenAPI document with its query parameters', async () => {
    const { body: doc } = await server.request('GET', '/api/v1/openapi.json');
    const operation = doc.paths['/api/v1/monetization/product-offering/{product_id}/']?.get;
    expect(operation).toBeDefined();
    expect(operation.parameters.map((p: { name: string; in: string }) => `${p.in}:${p.name}`)).toEqual(
      expect.arrayContaining(['path:product_id', 'query:customer_id', 'query:plans_enabled', 'query:ip_address', 'query:currency_code']),
    );
    expect(Object.keys(operation.responses)).toEqual(expect.arrayContaining(['200', '400', '401', '404']));
  });
});
