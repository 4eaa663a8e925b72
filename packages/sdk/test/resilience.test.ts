import { describe, expect, it } from 'vitest';
import { Billow, BillowConnectionError, BillowInvalidRequestError, BillowRateLimitError, BillowServerError, type Fetch } from '../src/index.js';

/** A fetch that answers from a script, one entry per attempt, and records what it was sent. */
function scripted(...answers: (Response | Error)[]) {
  const sent: { url: string; method: string; key: string | null }[] = [];
  const fetch: Fetch = async (input, init) => {
    sent.push({ url: String(input), method: init?.method ?? 'GET', key: new Headers(init?.headers).get('idempotency-key') });
    const next = answers.shift() ?? new Error('no more answers scripted');
    if (next instanceof Error) throw next;
    return next;
  };
  return { fetch, sent };
}

const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } });
const customer = { customerId: 'c1' };
const clientOf = (fetch: Fetch, maxRetries?: number) =>
  new Billow({ apiKey: 'sk_test_x', baseUrl: 'http://billow.invalid', fetch, ...(maxRetries === undefined ? {} : { maxRetries }) });

describe('@billow/sdk retries', () => {
  it('retries a POST after a 503 and a dropped connection with the same Idempotency-Key', async () => {
    const { fetch, sent } = scripted(json(503, { code: 'unavailable', detail: 'draining' }), new TypeError('socket hang up'), json(201, customer));
    expect(await clientOf(fetch).customers.create({ customerId: 'c1' })).toEqual(customer);
    expect(sent).toHaveLength(3);
    expect(sent[0]!.key).toMatch(/^[0-9a-f-]{36}$/);
    expect(new Set(sent.map((s) => s.key)).size).toBe(1);
  });

  it('makes a new key per call, and keeps the one it is given', async () => {
    const { fetch, sent } = scripted(json(201, customer), json(201, customer), json(201, customer));
    const billow = clientOf(fetch);
    await billow.customers.create({ customerId: 'c1' });
    await billow.customers.create({ customerId: 'c1' });
    await billow.customers.create({ customerId: 'c1' }, { idempotencyKey: 'mine' });
    expect(sent[0]!.key).not.toBe(sent[1]!.key);
    expect(sent[2]!.key).toBe('mine');
  });

  it('waits as a 429 says, then succeeds', async () => {
    const { fetch, sent } = scripted(json(429, { code: 'rate_limited', detail: 'slow down' }, { 'retry-after': '0' }), json(200, customer));
    expect(await clientOf(fetch).customers.retrieve('c1')).toEqual(customer);
    expect(sent).toHaveLength(2);
  });

  it('gives up after maxRetries with the last error, typed', async () => {
    const { fetch, sent } = scripted(...Array.from({ length: 3 }, () => json(429, { code: 'rate_limited', detail: 'slow down' }, { 'retry-after': '0' })));
    const error = await clientOf(fetch, 2).customers.retrieve('c1').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BillowRateLimitError);
    expect(error).toMatchObject({ status: 429, code: 'rate_limited', retryAfterMs: 0 });
    expect(sent).toHaveLength(3);
  });

  it('never retries a 500 or a 4xx: the request may have acted, or will fail the same', async () => {
    for (const [answer, type] of [
      [json(500, { code: 'internal', detail: 'boom' }), BillowServerError],
      [json(400, { code: 'validation_error', detail: 'email is invalid' }), BillowInvalidRequestError],
    ] as const) {
      const { fetch, sent } = scripted(answer, json(201, customer));
      await expect(clientOf(fetch).customers.create({ customerId: 'c1' })).rejects.toBeInstanceOf(type);
      expect(sent).toHaveLength(1);
    }
  });

  it('retries a connection that fails, then reports it', async () => {
    const { fetch, sent } = scripted(new TypeError('ECONNREFUSED'), new TypeError('ECONNREFUSED'));
    const error = await clientOf(fetch, 1).customers.list().then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(BillowConnectionError);
    expect(error).toMatchObject({ timedOut: false });
    expect(sent).toHaveLength(2);
  });

  it('sends the partner key on partner calls and refuses a call without its key', async () => {
    const { fetch, sent } = scripted(json(200, { count: 0, next: null, previous: null, results: [] }));
    const partner = new Billow({ partnerKey: 'pk_partner', baseUrl: 'http://billow.invalid', fetch });
    expect((await partner.partner.organizations.list()).count).toBe(0);
    expect(sent[0]!.url).toBe('http://billow.invalid/api/v1/partner/organizations/');
    await expect(partner.customers.list()).rejects.toThrow(/apiKey/);
  });

  it('takes the options of a call without body or query right after its path parameters', async () => {
    const seen: { url: string; probe: string | null }[] = [];
    const fetch: Fetch = async (input, init) => {
      seen.push({ url: String(input), probe: new Headers(init?.headers).get('x-probe') });
      return json(200, customer);
    };
    const billow = clientOf(fetch);
    await billow.sellerProfile.retrieve({ headers: { 'x-probe': 'profile' } });
    await billow.customers.retrieve('c1', { headers: { 'x-probe': 'customer' } });
    expect(seen).toEqual([
      { url: 'http://billow.invalid/api/v1/seller-profile/', probe: 'profile' },
      { url: 'http://billow.invalid/api/v1/customers/c1/', probe: 'customer' },
    ]);
  });

  it('sends checks and promotions to the edgeUrl, the rest to the baseUrl', async () => {
    const { fetch, sent } = scripted(json(200, { customerId: 'c1', entitlements: [] }), json(200, customer));
    const billow = new Billow({ apiKey: 'sk_test_x', baseUrl: 'http://core.invalid', edgeUrl: 'http://edge.invalid/', fetch });
    await billow.entitlements.check({ customer_id: 'c1' });
    await billow.customers.retrieve('c1');
    expect(sent.map((s) => s.url)).toEqual(['http://edge.invalid/api/v1/entitlements/?customer_id=c1', 'http://core.invalid/api/v1/customers/c1/']);
  });
});
