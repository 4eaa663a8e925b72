import { catalogClient } from './catalog-support.js';
import { startTestServer, uniqueId, type TestOrg, type TestServer, type TestServerOptions } from './harness.js';

export const CARDS = {
  ok: '4242 4242 4242 4242',
  declined: '4000 0000 0000 0002',
  authentication: '4000 0025 0000 3155',
  insufficient: '4000 0000 0000 9995',
} as const;

const paid = (currency: string, charges: Array<[string, number]>, extra: Record<string, unknown> = {}) => ({
  priceType: 'PAID',
  currency,
  ...extra,
  chargeCatalogPrice: [{ charges: charges.map(([chargePeriod, amount]) => ({ chargePeriod, priceData: { amount } })) }],
});

/** A seller's sandbox (or production) with a product and published plans to sell. */
export async function shop(server: TestServer, key: string, prefix = '/sandbox') {
  const api = catalogClient(server, key, prefix);
  const product = await api.product();
  const seats = await api.feature({
    name: uniqueId('Seats'),
    featureType: 'METER',
    featureDetails: { featureSubType: 'PRE_AGGREGATED_USAGE', units: { singular: 'seat', plural: 'seats' } },
  });
  const publish = async (name: string, prices: unknown[], extra: Record<string, unknown> = {}) => {
    const plan = await api.plan(product.id, { name: uniqueId(name), ...extra });
    await api.prices(plan.identifier, prices);
    await api.publish(plan.identifier);
    return plan.identifier as string;
  };
  const plans = {
    lifetime: await publish('Lifetime', [paid('USD', [['ONE_TIME', 49]]), paid('EUR', [['ONE_TIME', 45]])], {
      license: { enabled: true, activationLimit: 3, activationLimitEnabled: true },
    }),
    basic: await publish('Basic', [paid('USD', [['MONTHLY', 10], ['YEARLY', 100]])]),
    pro: await publish('Pro', [paid('USD', [['MONTHLY', 20], ['YEARLY', 200]])]),
    trial: await publish('Trial', [paid('USD', [['MONTHLY', 30]], { freeTrial: true, trialPeriod: 14 })]),
    free: await publish('Free', [{ priceType: 'FREE', currency: 'USD', chargeCatalogPrice: [{ charges: [{ chargePeriod: 'MONTHLY', priceData: { amount: 0 } }] }] }]),
    seats: await publish('Team', [
      {
        priceType: 'PAID',
        currency: 'USD',
        chargeCatalogPrice: [
          { charges: [{ chargePeriod: 'MONTHLY', priceData: { amount: 5 } }] },
          { feature: seats.id, priceModel: 'FLAT', charges: [{ chargePeriod: 'MONTHLY', priceData: { amount: 3 } }] },
        ],
      },
    ]),
  };
  const call = (method: string, path: string, body?: unknown, headers?: Record<string, string>) =>
    server.request(method, `${prefix}/api/v1${path}`, { key, ...(body !== undefined ? { body } : {}), ...(headers ? { headers } : {}) });
  const customer = async (extra: Record<string, unknown> = {}) => {
    const customerId = uniqueId('buyer');
    const res = await call('POST', '/customers/', { customerId, email: `${customerId}@example.com`, name: 'Buyer', ...extra });
    if (res.status !== 201) throw new Error(`customer: ${res.status} ${res.text}`);
    return customerId;
  };
  const card = async (customerId: string, number: string = CARDS.ok) => {
    const res = await call('POST', '/payment-methods/', { customerId, cardNumber: number, expMonth: 12, expYear: 2035, cvc: '123' });
    if (res.status !== 201) throw new Error(`card: ${res.status} ${res.text}`);
    return res.body;
  };
  return { api, call, product, seats, plans, customer, card };
}

export type Shop = Awaited<ReturnType<typeof shop>>;

/** A test server with a new organization whose sandbox has a shop: the usual start of a commerce test. */
export async function openShop(options: TestServerOptions = {}): Promise<{ server: TestServer; org: TestOrg; s: Shop }> {
  const server = await startTestServer(options);
  const org = await server.createOrg();
  return { server, org, s: await shop(server, org.sandbox.serverKey) };
}

/** Runs a test clock's advance as a worker would, and waits until it is over; answers the clock. */
export async function untilClockReady(server: TestServer, s: Shop, clockId: string) {
  let clock = await s.call('GET', `/test-clocks/${clockId}/`);
  // On a shared PostgreSQL database another test's worker may have taken the job: then wait for it to finish.
  for (let tries = 0; clock.body.status === 'advancing' && tries < 300; tries++) {
    if ((await server.runJobs()) === 0) await new Promise((resolve) => setTimeout(resolve, 100));
    clock = await s.call('GET', `/test-clocks/${clockId}/`);
  }
  return clock.body;
}
