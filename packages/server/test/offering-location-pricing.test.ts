/**
 * The product offering at the promoted prices of the caller's location (decision 0036):
 * a server key's ip_address, else the caller's address (X-Forwarded-For here, with
 * BILLOW_TRUST_PROXY); `originalPrice` keeps the list price; plan scope, strict
 * billing-country match and crawlers, as the checkout decides them.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { shop, type Shop } from './commerce-support.js';
import { startTestServer, type TestOrg, type TestServer } from './harness.js';

const IP = { IN: '49.44.0.1', US: '8.8.8.8' } as const;
let server: TestServer;
let org: TestOrg;
let s: Shop;

beforeAll(async () => {
  server = await startTestServer({ env: { BILLOW_TRUST_PROXY: 'true' } });
  org = await server.createOrg();
  s = await shop(server, org.sandbox.serverKey);
  const made = await s.call('POST', '/promotion-rules/', {
    name: 'PPP',
    productId: s.product.id,
    planIdentifiers: [s.plans.basic],
    countryOverrides: [{ countryCode: 'IN', percentage: 40 }],
  });
  expect(made.status, made.text).toBe(201);
});
afterAll(() => server.close());

const offering = (query: string, options: { key?: string; from?: keyof typeof IP; ua?: string } = {}) =>
  server.request('GET', `/sandbox/api/v1/monetization/product-offering/${s.product.id}/${query}`, {
    key: options.key ?? org.sandbox.serverKey,
    headers: { ...(options.from ? { 'x-forwarded-for': IP[options.from] } : {}), 'user-agent': options.ua ?? 'Mozilla/5.0 Chrome/120.0' },
  });

/** Each plan's monthly amount as shown, and its list price. */
async function monthly(query: string, options: Parameters<typeof offering>[1] = {}) {
  const res = await offering(query, options);
  expect(res.status, res.text).toBe(200);
  const plans = res.body.plans as Array<{ identifier: string; price: { charges: Array<{ chargePeriod: string; priceData: { amount: number } }> }; originalPrice: Record<string, number> }>;
  const of = (identifier: string) => {
    const plan = plans.find((p) => p.identifier === identifier)!;
    return [plan.price.charges.find((c) => c.chargePeriod === 'MONTHLY')!.priceData.amount, plan.originalPrice.MONTHLY];
  };
  return { basic: of(s.plans.basic), pro: of(s.plans.pro), countryCode: res.body.countryCode };
}

describe('the product offering with location pricing', () => {
  it("shows a server key's ip_address its promoted prices, with the list price in originalPrice, for the plans in scope", async () => {
    expect(await monthly(`?ip_address=${IP.IN}`)).toEqual({ basic: [6, 10], pro: [20, 20], countryCode: 'IN' });
    expect(await monthly(`?ip_address=${IP.US}`)).toEqual({ basic: [10, 10], pro: [20, 20], countryCode: 'US' });
  });

  it('prices for a country named outright (the dashboard\'s preview): a server key\'s, alone, and a real country', async () => {
    expect(await monthly('?country=in', { from: 'US' })).toEqual({ basic: [6, 10], pro: [20, 20], countryCode: 'IN' });
    expect(await monthly('?country=US')).toEqual({ basic: [10, 10], pro: [20, 20], countryCode: 'US' });
    const refusals = [
      [await offering('?country=XX'), 400, /country: "XX" is not an ISO 3166-1/],
      [await offering(`?country=IN&ip_address=${IP.US}`), 400, /not both/],
      [await offering('?country=IN', { key: org.sandbox.clientKey, from: 'US' }), 403, /needs a server key/],
    ] as const;
    for (const [res, status, detail] of refusals) {
      expect(res.status, res.text).toBe(status);
      expect(res.body.detail).toMatch(detail);
    }
  });

  it("locates a client key's caller by its address, whatever ip_address claims; a crawler gets the list price", async () => {
    const client = org.sandbox.clientKey;
    expect((await monthly(`?ip_address=${IP.IN}`, { key: client, from: 'US' })).basic).toEqual([10, 10]);
    expect((await monthly('', { key: client, from: 'IN' })).basic).toEqual([6, 10]);
    expect((await monthly('', { key: client, from: 'IN', ua: 'Googlebot/2.1 (+http://www.google.com/bot.html)' })).basic).toEqual([10, 10]);
  });

  it('gives a customer billed in another country the list price (strict billing-country match)', async () => {
    const customerId = await s.customer({ billingAddress: { country: 'DE' } });
    const shown = await monthly(`?ip_address=${IP.IN}&customer_id=${customerId}`);
    expect(shown).toEqual({ basic: [10, 10], pro: [20, 20], countryCode: 'DE' });
  });

  it("shows the located country's currency when a plan sells in it; other plans fall back to the product's", async () => {
    const res = await offering('?ip_address=85.214.0.1');
    expect(res.body.currencyCode).toBe('EUR');
    const currencyOf = (identifier: string) => (res.body.plans as Array<{ identifier: string; price: { currency: string } }>).find((p) => p.identifier === identifier)?.price.currency;
    expect([currencyOf(s.plans.lifetime), currencyOf(s.plans.basic)]).toEqual(['EUR', 'USD']);
    expect((await offering('?ip_address=85.214.0.1&currency_code=USD')).body.currencyCode).toBe('USD');
    expect((await offering('', { key: org.sandbox.clientKey, from: 'US' })).body.currencyCode).toBe('USD');
  });
});
