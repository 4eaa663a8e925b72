import { catalogClient } from './catalog-support.js';
import { CARDS } from './commerce-support.js';
import { uniqueId, type TestServer } from './harness.js';

/** A free monthly price. */
export const FREE_MONTHLY = {
  priceType: 'FREE',
  currency: 'USD',
  chargeCatalogPrice: [{ charges: [{ chargePeriod: 'MONTHLY', priceData: { amount: 0 } }] }],
};

/**
 * A seller's sandbox with a product, and the short calls the Edge tests make:
 * plans granting entitlements, customers (with a card if asked) and their
 * subscriptions.
 */
export async function sandboxSeller(server: TestServer, key: string) {
  const api = catalogClient(server, key, '/sandbox');
  const product = await api.product();
  const call = (method: string, path: string, body?: unknown, asKey = key) =>
    server.request(method, `/sandbox/api/v1${path}`, { key: asKey, ...(body !== undefined ? { body } : {}) });
  const expectOk = (res: { status: number; text: string }, status: number) => {
    if (res.status !== status) throw new Error(`${status} expected: ${res.status} ${res.text}`);
  };
  /** A published plan granting `entitlements` ({feature, details}). */
  const plan = async (entitlements: unknown[], prices: unknown[] = [FREE_MONTHLY]) => {
    const created = await api.plan(product.id);
    if (entitlements.length) expectOk(await call('POST', `/catalog/plans/${created.identifier}/features/`, { planEntitlements: entitlements }), 201);
    await api.prices(created.identifier, prices);
    await api.publish(created.identifier);
    return created.identifier as string;
  };
  const customer = async (card = false) => {
    const customerId = uniqueId('cust');
    expectOk(await call('POST', '/customers/', { customerId, name: 'Ada', email: `${customerId}@example.com` }), 201);
    if (card) {
      expectOk(await call('POST', '/payment-methods/', { customerId, cardNumber: CARDS.ok, expMonth: 12, expYear: 2035, cvc: '123' }), 201);
    }
    return customerId;
  };
  const subscribe = async (customerId: string, planIdentifier: string, extra: Record<string, unknown> = {}) => {
    const res = await call('POST', '/subscriptions/create/', { planIdentifier, chargePeriod: 'MONTHLY', customerId, ...extra });
    expectOk(res, 201);
    return res.body.id as string;
  };
  return { api, product, call, expectOk, plan, customer, subscribe };
}
