import { catalogClient } from '../catalog-support.js';
import { startIsolatedServer } from '../isolated-server.js';
import { shop, type Shop } from '../commerce-support.js';
import { environmentIdOf, uniqueId, type TestOrg, type TestServer, type TestServerOptions } from '../harness.js';

export interface CheckoutWorld {
  server: TestServer;
  org: TestOrg;
  s: Shop;
  /** POST /checkout/ in the sandbox with the server key (or another key). */
  create(body: Record<string, unknown>, key?: string): ReturnType<TestServer['request']>;
  /** A session that must be created: its id and page URL. */
  session(body?: Record<string, unknown>): Promise<{ id: string; url: string }>;
  /** A published $10 monthly plan of `productId` (the shop's by default) granting a BOOLEAN feature, named as given. */
  entitledPlan(options?: { productId?: string; name?: string }): Promise<{ plan: string; feature: string }>;
}

export async function openCheckoutWorld(options: TestServerOptions = {}): Promise<CheckoutWorld> {
  // CHECKOUT_TEST_LOG=error shows the server's log while debugging these tests.
  // A database of its own on PostgreSQL: these files run the session-expiry job on clocks of their own.
  const server = await startIsolatedServer('checkout', { ...options, env: { ...(process.env.CHECKOUT_TEST_LOG ? { LOG_LEVEL: process.env.CHECKOUT_TEST_LOG } : {}), ...options.env } });
  const org = await server.createOrg();
  const s = await shop(server, org.sandbox.serverKey);
  const create = (body: Record<string, unknown>, key = org.sandbox.serverKey) => server.request('POST', '/sandbox/api/v1/checkout/', { key, body });
  const session = async (body: Record<string, unknown> = {}) => {
    const res = await create({ planIdentifier: s.plans.basic, chargePeriod: 'MONTHLY', successUrl: 'https://shop.example/thanks?from=billow', ...body });
    if (res.status !== 201) throw new Error(`session: ${res.status} ${res.text}`);
    return { id: res.body.checkoutSessionId as string, url: res.body.checkoutUrl as string };
  };
  const catalog = catalogClient(server, org.sandbox.serverKey, '/sandbox');
  const entitledPlan = async (options: { productId?: string; name?: string } = {}) => {
    const feature = await catalog.feature({ name: uniqueId('Export'), featureType: 'BOOLEAN' });
    const plan = await catalog.plan(options.productId ?? s.product.id, options.name ? { name: options.name } : {});
    const granted = await catalog.call('POST', `/catalog/plans/${plan.identifier}/features/`, { planEntitlements: [{ feature: feature.id, details: { value: true } }] });
    if (granted.status !== 201) throw new Error(`entitlements: ${granted.status} ${granted.text}`);
    await catalog.prices(plan.identifier, [{ priceType: 'PAID', currency: 'USD', chargeCatalogPrice: [{ charges: [{ chargePeriod: 'MONTHLY', priceData: { amount: 10 } }] }] }]);
    await catalog.publish(plan.identifier);
    return { plan: plan.identifier as string, feature: feature.identifier as string };
  };
  return { server, org, s, create, session, entitledPlan };
}

/** The form fields of a page: its CSRF token, and the defaults a buyer would submit. */
export function csrfOf(page: string): string {
  const match = /name="csrf_token" value="([^"]+)"/.exec(page);
  if (!match) throw new Error('no CSRF token in the page');
  return match[1]!;
}

export interface PageResponse {
  status: number;
  text: string;
  headers: Headers;
}

export async function getPage(url: string): Promise<PageResponse> {
  const res = await fetch(url, { redirect: 'manual' });
  return { status: res.status, text: await res.text(), headers: res.headers };
}

/** Submits the page's form as a browser without JavaScript would (url-encoded, no redirect followed). */
export async function postForm(url: string, fields: Record<string, string>): Promise<PageResponse> {
  const res = await fetch(url, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(fields).toString(),
  });
  return { status: res.status, text: await res.text(), headers: res.headers };
}

export const payWith = (csrf: string, card: string, extra: Record<string, string> = {}) => ({
  csrf_token: csrf,
  action: 'pay',
  email: 'buyer@example.com',
  name: 'Ada Buyer',
  country: 'US',
  card_number: card,
  expiry: '12 / 35',
  cvc: '123',
  ...extra,
});

/** The types of the environment's recorded events, in order. */
export async function eventTypes(server: TestServer, organizationId: string): Promise<string[]> {
  const environmentId = await environmentIdOf(server, organizationId, 'sandbox');
  const rows = await server.database.db.selectFrom('events').select('type').where('environment_id', '=', environmentId).orderBy('seq').execute();
  return rows.map((r) => r.type);
}
