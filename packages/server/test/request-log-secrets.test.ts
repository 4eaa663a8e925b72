import pino from 'pino';
import type { FastifyBaseLogger } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openShop, type Shop } from './commerce-support.js';
import type { TestOrg, TestServer } from './harness.js';

// The request log writes no credential of a hosted page (decision 0054): checkout session
// ids, portal tokens, the development inbox's key and invoice payment tokens.

const lines: Record<string, unknown>[] = [];
let server: TestServer;
let org: TestOrg;
let s: Shop;

beforeAll(async () => {
  const logger = pino({ level: 'info' }, { write: (line: string) => void lines.push(JSON.parse(line) as Record<string, unknown>) });
  ({ server, org, s } = await openShop({ logger: logger as unknown as FastifyBaseLogger }));
});
afterAll(() => server?.close());

describe('the request log', () => {
  it('shows hosted pages by their path with the credentials cut out', async () => {
    const created = await s.call('POST', '/checkout/', { planIdentifier: s.plans.basic, chargePeriod: 'MONTHLY', successUrl: 'https://shop.example/ok' });
    const sessionId = created.body.checkoutSessionId as string;
    expect((await fetch(created.body.checkoutUrl)).status).toBe(200);
    expect((await s.call('GET', `/checkout/sessions/${sessionId}/`)).status).toBe(200);

    const portal = await s.call('POST', '/portal/session/', { customerId: await s.customer() });
    const { token, customerPortalUrl } = portal.body as { token: string; customerPortalUrl: string };
    expect((await fetch(`${customerPortalUrl}?token=${token}`, { redirect: 'manual' })).status).toBe(303);
    expect((await fetch(`${customerPortalUrl}invoices/INV-1.pdf?token=${encodeURIComponent(token)}`)).status).toBe(404);

    const inboxUrl = (await server.request('GET', '/sandbox/api/v1/mail/inbox/', { key: org.sandbox.serverKey })).body.inboxUrl as string;
    expect((await fetch(inboxUrl)).status).toBe(200);
    const payToken = `pl_${'Q'.repeat(40)}`;
    expect((await fetch(`${server.url}/sandbox/pay/${payToken}/`)).status).toBe(404);

    const logged = lines.map((line) => JSON.stringify(line)).join('\n');
    const inboxKey = new URL(inboxUrl).pathname.split('/')[4]!;
    for (const secret of [sessionId.slice(7), token.split(':')[1]!, inboxKey, payToken.slice(7)]) expect(logged).not.toContain(secret);
    const urls = lines.filter((line) => line.msg === 'request').map((line) => String(line.url));
    expect(urls).toContain(`/sandbox/checkout/${sessionId.slice(0, 7)}[redacted]/`);
    expect(urls).toContain(`/sandbox/api/v1/checkout/sessions/${sessionId.slice(0, 7)}[redacted]/`);
    expect(urls).toContain(`${new URL(customerPortalUrl).pathname}?token=[redacted]`);
    expect(urls).toContain('/sandbox/mail/inbox/[redacted]/');
  });
});
