import type { TestOrg, TestServer } from './harness.js';
import { prefixOf, uniqueId } from './harness.js';

export type Env = 'sandbox' | 'production';

/** What the catalog makes of a name when no identifier is given. */
export const SLUG = /^[a-z0-9][a-z0-9-_]*$/;

/** Short calls against one environment of an org with its server key (or another key, per call). */
export function environmentApi(server: TestServer, who: TestOrg, env: Env = 'sandbox') {
  const key = who[env].serverKey;
  return {
    call: (method: string, path: string, body?: unknown, asKey = key) =>
      server.request(method, `${prefixOf(env)}/api/v1${path}`, { key: asKey, ...(body !== undefined ? { body } : {}) }),
    clientKey: who[env].clientKey,
  };
}

/** A small helper for catalog tests: one key, one environment, short calls. */
export function catalogClient(server: TestServer, key: string, prefix = '') {
  const call = (method: string, path: string, body?: unknown) =>
    server.request(method, `${prefix}/api/v1${path}`, { key, ...(body !== undefined ? { body } : {}) });
  return {
    call,
    async product(name = uniqueId('Product')) {
      const res = await call('POST', '/catalog/products/', { name, taxCode: 'saas' });
      if (res.status !== 201) throw new Error(`product: ${res.status} ${res.text}`);
      return res.body;
    },
    async feature(body: Record<string, unknown>) {
      const res = await call('POST', '/catalog/features/', body);
      if (res.status !== 201) throw new Error(`feature: ${res.status} ${res.text}`);
      return res.body;
    },
    async plan(productId: string, extra: Record<string, unknown> = {}) {
      const res = await call('POST', '/catalog/plans/', { name: uniqueId('Plan'), product: productId, ...extra });
      if (res.status !== 201) throw new Error(`plan: ${res.status} ${res.text}`);
      return res.body;
    },
    async prices(identifier: string, prices: unknown[]) {
      const res = await call('POST', `/catalog/plans/${identifier}/prices/bulk/`, { prices });
      if (res.status !== 200) throw new Error(`prices: ${res.status} ${res.text}`);
      return res.body;
    },
    async publish(identifier: string) {
      const res = await call('POST', `/catalog/plans/${identifier}/publish/`, {});
      if (res.status !== 200) throw new Error(`publish: ${res.status} ${res.text}`);
      return res.body;
    },
  };
}

export const monthly = (amount: number, currency = 'USD') => ({
  priceType: 'PAID',
  currency,
  chargeCatalogPrice: [{ charges: [{ chargePeriod: 'MONTHLY', priceData: { amount } }] }],
});
