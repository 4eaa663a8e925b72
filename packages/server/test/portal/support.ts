import { openShop, CARDS, type Shop } from '../commerce-support.js';
import type { TestOrg, TestServer, TestServerOptions } from '../harness.js';
import { uniqueId } from '../harness.js';
import { officialClient } from '../official-client-support.js';

export interface PortalWorld {
  server: TestServer;
  org: TestOrg;
  s: Shop;
  /** A sandbox test clock at `frozenTime`. */
  testClock(frozenTime: string): Promise<string>;
  /** Advances a test clock and runs its jobs until it is ready again. */
  advance(clockId: string, frozenTime: string): Promise<void>;
  /** A customer with an email and (unless null) a saved card, living by the test clock when given. */
  customer(options?: { clockId?: string; card?: string | null }): Promise<string>;
  subscribe(customerId: string, planIdentifier: string, chargePeriod?: string): Promise<string>;
  /** Saves a card and makes it the default, through the API. */
  makeDefault(customerId: string, number: string): Promise<void>;
  /** The portal link of a customer, made through the official client's portal.createSession. */
  portalLink(customerId: string): Promise<string>;
  subscription(id: string): Promise<Record<string, any>>;
}

function expectStatus(res: { status: number; text: string }, status: number) {
  if (res.status !== status) throw new Error(`${status} expected: ${res.status} ${res.text}`);
}

export async function openPortalWorld(options: TestServerOptions = {}): Promise<PortalWorld> {
  const { server, org, s } = await openShop({ ...options, env: { ...(process.env.PORTAL_TEST_LOG ? { LOG_LEVEL: process.env.PORTAL_TEST_LOG } : {}), ...options.env } });
  const testClock = async (frozenTime: string) => {
    const res = await s.call('POST', '/test-clocks/', { name: uniqueId('clock'), frozenTime });
    expectStatus(res, 201);
    return res.body.id as string;
  };
  const advance = async (clockId: string, frozenTime: string) => {
    expectStatus(await s.call('POST', `/test-clocks/${clockId}/advance/`, { frozenTime }), 200);
    let clock = await s.call('GET', `/test-clocks/${clockId}/`);
    for (let tries = 0; clock.body.status === 'advancing' && tries < 300; tries++) {
      if ((await server.runJobs()) === 0) await new Promise((resolve) => setTimeout(resolve, 100));
      clock = await s.call('GET', `/test-clocks/${clockId}/`);
    }
    if (clock.body.status !== 'ready') throw new Error(`test clock not ready: ${JSON.stringify(clock.body)}`);
  };
  const customer = async (o: { clockId?: string; card?: string | null } = {}) => {
    const customerId = await s.customer(o.clockId ? { testClockId: o.clockId } : {});
    const card = o.card === undefined ? CARDS.ok : o.card;
    if (card) await s.card(customerId, card);
    return customerId;
  };
  const subscribe = async (customerId: string, planIdentifier: string, chargePeriod = 'MONTHLY') => {
    const res = await s.call('POST', '/subscriptions/create/', { planIdentifier, chargePeriod, customerId });
    expectStatus(res, 201);
    return res.body.id as string;
  };
  const makeDefault = async (customerId: string, number: string) => {
    const method = await s.card(customerId, number);
    expectStatus(await s.call('POST', `/payment-methods/${method.id}/default/`), 200);
  };
  const portalLink = async (customerId: string) => {
    const session = await officialClient(server, org.sandbox.serverKey).portal.createSession({ customerId });
    return `${session.customerPortalUrl}?token=${session.token}`;
  };
  const subscription = async (id: string) => (await s.call('GET', `/subscriptions/${id}/`)).body;
  return { server, org, s, testClock, advance, customer, subscribe, makeDefault, portalLink, subscription };
}

/** The hidden fields of the first form on a portal page that posts `action` (its CSRF token and submission id included). */
export function formFields(page: string, action: string): Record<string, string> {
  const forms = page.split('<form ').slice(1).map((f) => f.slice(0, f.indexOf('</form>')));
  const form = forms.find((f) => f.includes(`name="action" value="${action}"`));
  if (!form) throw new Error(`no ${action} form on the page`);
  const fields: Record<string, string> = {};
  for (const m of form.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)) fields[m[1]!] = m[2]!.replace(/&amp;/g, '&').replace(/&quot;/g, '"').replace(/&#39;/g, "'");
  return fields;
}

/**
 * A portal URL as a browser that opened the portal link requests it: the link's token
 * travels in the cookie that first visit set (decision 0054), no longer in the URL.
 */
export function asVisited(url: string): { url: string; headers: Record<string, string> } {
  const parsed = new URL(url);
  const token = parsed.searchParams.get('token');
  if (token === null) return { url, headers: {} };
  parsed.searchParams.delete('token');
  return { url: parsed.toString(), headers: { cookie: `billow_portal=${encodeURIComponent(token)}` } };
}

/** A GET of a portal page by a browser that opened `link` before. */
export async function portalGet(link: string): Promise<{ status: number; text: string; headers: Headers }> {
  const { url, headers } = asVisited(link);
  const res = await fetch(url, { redirect: 'manual', headers });
  return { status: res.status, text: await res.text(), headers: res.headers };
}

/** A portal form posted (url-encoded, no redirect followed) by a browser that opened `link` before. */
export async function portalPost(link: string, fields: Record<string, string>): Promise<{ status: number; text: string; headers: Headers }> {
  const { url, headers } = asVisited(link);
  const res = await fetch(url.split('?')[0]!, {
    method: 'POST',
    redirect: 'manual',
    headers: { ...headers, 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(fields).toString(),
  });
  return { status: res.status, text: await res.text(), headers: res.headers };
}

/** Opens a portal link as a browser does: its 303 to the token-free page is followed with the cookie it set. */
export async function openLink(link: string): Promise<{ status: number; text: string; headers: Headers; url: string }> {
  const first = await fetch(link, { redirect: 'manual' });
  const cookie = first.headers.get('set-cookie');
  if (first.status !== 303 || !cookie) return { status: first.status, text: await first.text(), headers: first.headers, url: link };
  const url = new URL(first.headers.get('location')!, link).toString();
  const res = await fetch(url, { redirect: 'manual', headers: { cookie: cookie.split(';')[0]! } });
  return { status: res.status, text: await res.text(), headers: res.headers, url };
}

export { CARDS };
