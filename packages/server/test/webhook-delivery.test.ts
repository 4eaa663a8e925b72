import { validateEvent } from '@kelviq/node-sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../src/lib/clock.js';
import { startTestServer, type TestServer } from './harness.js';
import { apiOf, createCustomer, createEndpoint, logsOf, MINUTE, renameCustomer, verifiesTheStandardWay, verifiesWithPlainNode, type Api } from './webhook-fixtures.js';
import { Receiver } from './webhook-support.js';

const TIMEOUT_MS = 3000;
const clock = new ManualClock(new Date());
let server: TestServer;
const receivers: Receiver[] = [];

beforeAll(async () => {
  server = await startTestServer({
    clock,
    env: {
      BILLOW_WEBHOOK_TIMEOUT_MS: String(TIMEOUT_MS),
      // ±10% jitter: each retry is due within 1.1× its delay.
      BILLOW_WEBHOOK_RETRY_SCHEDULE: '1m,2m,3m,4m,5m',
      BILLOW_WEBHOOK_DISABLE_AFTER_MS: String(30 * MINUTE),
      BILLOW_WEBHOOK_DISABLE_MIN_FAILURES: '3',
    },
  });
});
afterAll(async () => {
  await Promise.all(receivers.map((r) => r.close()));
  await server?.close();
});

/** A fresh organization's sandbox and a receiver: tests share the server and its clock, nothing else. */
async function tenant(): Promise<{ api: Api; receiver: Receiver }> {
  const org = await server.createOrg();
  const receiver = await Receiver.start();
  receivers.push(receiver);
  return { api: apiOf(server, org, 'sandbox'), receiver };
}

/** Moves the clock on and makes every delivery that is due by then. */
async function after(ms: number): Promise<void> {
  clock.advance(ms);
  await server.deliverWebhooks();
}

const statuses = (logs: any[]) => [...logs].reverse().map((l) => l.statusCode);

describe('a delivery', () => {
  it('is signed as the reference signs: validateEvent, plain node:crypto and compact JSON agree', async () => {
    const { api, receiver } = await tenant();
    const endpoint = await createEndpoint(api, { url: receiver.url });
    const customerId = await createCustomer(api);
    await server.deliverWebhooks();
    const [delivery] = receiver.received;
    expect(delivery).toBeDefined();
    const { headers, body } = delivery!;
    expect(headers['content-type']).toBe('application/json');
    expect(headers['webhook-timestamp']).toBe(String(Math.floor(clock.now().getTime() / 1000)));
    expect(headers['webhook-signature']).toMatch(/^v1,[0-9a-f]{64}$/);
    const event = validateEvent(body, headers as Record<string, string>, endpoint.secret) as any;
    expect(headers['webhook-id']).toBe(event.id);
    expect(event).toMatchObject({ type: 'customer.created', data: { object: { customer_id: customerId, object: 'customer' } } });
    expect(JSON.stringify(JSON.parse(body))).toBe(body);
    expect(verifiesWithPlainNode(delivery!, endpoint.secret)).toBe(true);
    expect(verifiesWithPlainNode(delivery!, 'kq_whsec_someoneelse')).toBe(false);
    expect(() => validateEvent(body + ' ', headers as Record<string, string>, endpoint.secret)).toThrow();
    // What the log says was sent is what arrived.
    const [log] = await logsOf(api);
    const detail = (await api('GET', `/webhook/logs/${log.id}/`)).body;
    expect(detail.requestBody).toBe(body);
    expect(detail.requestHeaders['webhook-signature']).toBe(headers['webhook-signature']);
  });

  it('also carries the Standard Webhooks signature when the endpoint asks for it', async () => {
    const { api, receiver } = await tenant();
    const endpoint = await createEndpoint(api, { url: receiver.url, standardSignature: true });
    await createCustomer(api);
    await server.deliverWebhooks();
    const [delivery] = receiver.received;
    const signatures = String(delivery!.headers['webhook-signature']).split(' ');
    expect(signatures).toHaveLength(2);
    expect(signatures[0]).toMatch(/^v1,[0-9a-f]{64}$/);
    expect(signatures[1]).toMatch(/^v1,[A-Za-z0-9+/]{43}=$/);
    expect(() => validateEvent(delivery!.body, delivery!.headers as Record<string, string>, endpoint.secret)).not.toThrow();
    expect(verifiesTheStandardWay(delivery!, endpoint.secret)).toBe(true);
    expect(verifiesWithPlainNode(delivery!, endpoint.secret)).toBe(true);
  });
});

describe('retries', () => {
  it('follow the schedule through 500, a closed connection, a hang and a redirect, then succeed', async () => {
    const { api, receiver } = await tenant();
    const elsewhere = await Receiver.start();
    receivers.push(elsewhere);
    await createEndpoint(api, { url: receiver.url });
    receiver.next({ status: 500, body: 'boom' }, 'close', 'hang', { status: 302, headers: { location: elsewhere.url } });
    await createCustomer(api);
    await server.deliverWebhooks();
    expect(statuses(await logsOf(api))).toEqual([500]);
    // Not before it is due.
    await after(50_000);
    expect((await logsOf(api)).length).toBe(1);
    await after(20_000);
    await after(2.2 * MINUTE);
    await after(3.3 * MINUTE);
    expect(statuses(await logsOf(api))).toEqual([500, null, null, 302]);
    await after(4.4 * MINUTE);
    const logs = [...(await logsOf(api))].reverse();
    expect(logs.map((l) => [l.retryCount, l.statusCode, l.isSuccess])).toEqual([
      [0, 500, false],
      [1, null, false],
      [2, null, false],
      [3, 302, false],
      [4, 200, true],
    ]);
    expect(new Set(logs.map((l) => l.eventId)).size).toBe(1);
    const errors = await Promise.all(logs.map(async (l) => (await api('GET', `/webhook/logs/${l.id}/`)).body));
    expect(errors.map((e) => e.error)).toEqual([expect.stringMatching(/500/), expect.any(String), expect.stringMatching(new RegExp(`no answer within ${TIMEOUT_MS} ms`)), expect.stringMatching(/redirect/), null]);
    expect(errors[0].responseExcerpt).toBe('boom');
    expect(errors[2].durationMs).toBeGreaterThanOrEqual(TIMEOUT_MS - 5);
    // The redirect was not followed; every request that arrived carried the same webhook-id.
    expect(elsewhere.received).toEqual([]);
    expect(new Set(receiver.received.map((r) => r.headers['webhook-id']))).toEqual(new Set([logs[0].eventId]));
    await after(10 * MINUTE);
    expect((await logsOf(api)).length).toBe(5);
  });

  it('honour Retry-After (seconds or a date) when it asks for longer than the schedule', async () => {
    const { api, receiver } = await tenant();
    await createEndpoint(api, { url: receiver.url });
    receiver.next({ status: 503, headers: { 'retry-after': '600' } });
    await createCustomer(api);
    await server.deliverWebhooks();
    await after(2 * MINUTE);
    await after(7 * MINUTE);
    expect(receiver.received).toHaveLength(1);
    await after(1.1 * MINUTE);
    expect(receiver.received).toHaveLength(2);

    clock.advance(1000);
    receiver.next({ status: 429, headers: { 'retry-after': new Date(clock.now().getTime() + 20 * MINUTE).toUTCString() } });
    await createCustomer(api);
    await server.deliverWebhooks();
    expect(receiver.received).toHaveLength(3);
    await after(19 * MINUTE);
    expect(receiver.received).toHaveLength(3);
    await after(1.1 * MINUTE);
    expect(receiver.received).toHaveLength(4);
    expect(statuses(await logsOf(api))).toEqual([503, 200, 429, 200]);
  });

  it('end when the schedule is spent: the delivery has failed, and the log shows every attempt', async () => {
    const { api, receiver } = await tenant();
    receiver.fallback = { status: 500 };
    const endpoint = await createEndpoint(api, { url: receiver.url });
    await createCustomer(api);
    await server.deliverWebhooks();
    for (const delay of [1, 2, 3, 4, 5]) await after(delay * 1.1 * MINUTE);
    await after(60 * MINUTE);
    const logs = [...(await logsOf(api))].reverse();
    expect(logs.map((l) => l.retryCount)).toEqual([0, 1, 2, 3, 4, 5]);
    expect(logs.every((l) => !l.isSuccess && l.statusCode === 500)).toBe(true);
    expect((await logsOf(api, 'status=failed')).length).toBe(6);
    const delivery = await server.database.db.selectFrom('webhook_deliveries').select(['status', 'attempt_count']).where('endpoint_id', '=', endpoint.id).executeTakeFirstOrThrow();
    expect(delivery).toEqual({ status: 'failed', attempt_count: 6 });
    // Some 15 minutes of failures: not long enough to disable the endpoint.
    expect((await api('GET', `/webhook/endpoints/${endpoint.id}/`)).body.enabled).toBe(true);
    await api('DELETE', `/webhook/endpoints/${endpoint.id}/`);
  });
});

describe('disabling', () => {
  it('410 Gone disables the endpoint and records webhook_endpoint.disabled; enabling it again resumes', async () => {
    const { api, receiver } = await tenant();
    const watcher = await Receiver.start();
    receivers.push(watcher);
    const endpoint = await createEndpoint(api, { url: receiver.url });
    await createEndpoint(api, { url: watcher.url, eventTypes: ['webhook_endpoint.disabled'] });
    receiver.next({ status: 410 });
    const customerId = await createCustomer(api);
    await server.deliverWebhooks();
    const disabled = (await api('GET', `/webhook/endpoints/${endpoint.id}/`)).body;
    expect(disabled).toMatchObject({ enabled: false, disabledReason: expect.stringMatching(/410/) });
    expect(watcher.received.map((r) => r.json.type)).toEqual(['webhook_endpoint.disabled']);
    expect(watcher.received[0]!.json.data.object).toMatchObject({ id: endpoint.id, object: 'webhook_endpoint', enabled: false, disabled_reason: expect.stringMatching(/410/) });
    // While disabled: neither the retry nor new events go out.
    await renameCustomer(api, customerId, 'While disabled');
    await after(10 * MINUTE);
    expect(receiver.received).toHaveLength(1);

    const enabled = await api('PATCH', `/webhook/endpoints/${endpoint.id}/`, { enabled: true });
    expect(enabled.body).toMatchObject({ enabled: true, disabledReason: null });
    await server.deliverWebhooks();
    expect(receiver.received.map((r) => r.json.type)).toEqual(['customer.created', 'customer.created']);
    await renameCustomer(api, customerId, 'After');
    await server.deliverWebhooks();
    expect(receiver.received.map((r) => r.json.type)).toEqual(['customer.created', 'customer.created', 'customer.updated']);
    expect(receiver.received[2]!.json.data.object.name).toBe('After');
  });

  it('a run of failures over the configured time, at least the configured count, disables the endpoint', async () => {
    const { api, receiver } = await tenant();
    const watcher = await Receiver.start();
    receivers.push(watcher);
    receiver.fallback = { status: 500 };
    const endpoint = await createEndpoint(api, { url: receiver.url });
    await createEndpoint(api, { url: watcher.url, eventTypes: ['webhook_endpoint.disabled'] });
    await createCustomer(api);
    await server.deliverWebhooks();
    await after(1.1 * MINUTE);
    await after(2.2 * MINUTE);
    // Three failures in six minutes: not yet.
    expect((await api('GET', `/webhook/endpoints/${endpoint.id}/`)).body.enabled).toBe(true);
    clock.advance(30 * MINUTE);
    await createCustomer(api);
    await server.deliverWebhooks();
    const disabled = (await api('GET', `/webhook/endpoints/${endpoint.id}/`)).body;
    expect(disabled).toMatchObject({ enabled: false, disabledReason: expect.stringMatching(/failed/) });
    expect(watcher.received.map((r) => r.json.data.object.id)).toEqual([endpoint.id]);
    const attempts = receiver.received.length;
    await after(30 * MINUTE);
    expect(receiver.received).toHaveLength(attempts);

    receiver.fallback = { status: 204 };
    await api('PATCH', `/webhook/endpoints/${endpoint.id}/`, { enabled: true });
    await server.deliverWebhooks();
    const succeeded = await logsOf(api, `status=success&endpoint=${endpoint.id}`);
    expect(succeeded.length).toBe(2);
    // Enabled again, its count starts over: one more failure does not disable it.
    receiver.next({ status: 500 });
    await createCustomer(api);
    await server.deliverWebhooks();
    expect((await api('GET', `/webhook/endpoints/${endpoint.id}/`)).body.enabled).toBe(true);
  });
});

describe('ordering', () => {
  it('keeps the events of one object in order under retries; other objects do not wait', async () => {
    const { api, receiver } = await tenant();
    await createEndpoint(api, { url: receiver.url });
    receiver.next({ status: 500 });
    const first = await createCustomer(api, 'ordered');
    await renameCustomer(api, first, 'Second name');
    await renameCustomer(api, first, 'Third name');
    const unrelated = await createCustomer(api, 'unrelated');
    await server.deliverWebhooks();
    const seen = () => receiver.received.map((r) => `${r.json.type}:${r.json.data.object.customer_id === first ? 'first' : 'other'}:${r.json.data.object.name}`);
    expect(seen()).toEqual(['customer.created:first:ordered', 'customer.created:other:unrelated']);
    expect(receiver.received[1]!.json.data.object.customer_id).toBe(unrelated);
    await after(1.1 * MINUTE);
    expect(seen()).toEqual([
      'customer.created:first:ordered',
      'customer.created:other:unrelated',
      'customer.created:first:ordered',
      'customer.updated:first:Second name',
      'customer.updated:first:Third name',
    ]);
  });
});

describe('secret rotation', () => {
  const HOUR = 60 * MINUTE;
  const signaturesOf = (r: { headers: Record<string, unknown> }) => String(r.headers['webhook-signature']).split(' ');
  const validates = (r: { headers: Record<string, unknown>; body: string }, secret: string) => {
    try {
      validateEvent(r.body, r.headers as Record<string, string>, secret);
      return true;
    } catch {
      return false;
    }
  };

  it('signs with the new secret first and the previous one too for the grace period, then with the new one only', async () => {
    const { api, receiver } = await tenant();
    const endpoint = await createEndpoint(api, { url: receiver.url });
    const old = endpoint.secret;
    const rotated = await api('POST', `/webhook/endpoints/${endpoint.id}/rotate-secret/`, { gracePeriodHours: 2 });
    expect(rotated.status, rotated.text).toBe(200);
    const fresh: string = rotated.body.secret;
    expect(fresh).toMatch(/^kq_whsec_/);
    expect(fresh).not.toBe(old);
    expect(rotated.body.previousSecretExpiresAt).toBe(new Date(clock.now().getTime() + 2 * HOUR).toISOString());
    const shown = await api('GET', `/webhook/endpoints/${endpoint.id}/`);
    expect(shown.body).not.toHaveProperty('secret');
    expect(shown.text).not.toContain(fresh.slice('kq_whsec_'.length));

    await createCustomer(api);
    await server.deliverWebhooks();
    const during = receiver.received[0]!;
    expect(signaturesOf(during)).toHaveLength(2);
    expect(validates(during, fresh)).toBe(true);
    // The official client compares the first signature only; a verifier that tries each accepts the old secret too.
    expect(validates(during, old)).toBe(false);
    expect(verifiesWithPlainNode(during, old)).toBe(true);
    expect(verifiesWithPlainNode(during, fresh)).toBe(true);

    clock.advance(2 * HOUR + 1000);
    await createCustomer(api);
    await server.deliverWebhooks();
    const afterGrace = receiver.received[1]!;
    expect(signaturesOf(afterGrace)).toHaveLength(1);
    expect(validates(afterGrace, fresh)).toBe(true);
    expect(verifiesWithPlainNode(afterGrace, old)).toBe(false);
    expect((await api('GET', `/webhook/endpoints/${endpoint.id}/`)).body.previousSecretExpiresAt).not.toBeNull();
  });

  it('keeps the previous secret 24 hours by default, none with a grace period of 0, and signs both the standard way too', async () => {
    const { api, receiver } = await tenant();
    const endpoint = await createEndpoint(api, { url: receiver.url, standardSignature: true });
    const byDefault = await api('POST', `/webhook/endpoints/${endpoint.id}/rotate-secret/`);
    expect(byDefault.status, byDefault.text).toBe(200);
    expect(byDefault.body.previousSecretExpiresAt).toBe(new Date(clock.now().getTime() + 24 * HOUR).toISOString());
    await createCustomer(api);
    await server.deliverWebhooks();
    const both = receiver.received[0]!;
    expect(signaturesOf(both)).toHaveLength(4);
    expect(validates(both, byDefault.body.secret)).toBe(true);
    expect(verifiesTheStandardWay(both, byDefault.body.secret)).toBe(true);
    expect(verifiesTheStandardWay(both, endpoint.secret)).toBe(true);

    const now = await api('POST', `/webhook/endpoints/${endpoint.id}/rotate-secret/`, { gracePeriodHours: 0 });
    expect(now.body.previousSecretExpiresAt).toBeNull();
    await createCustomer(api);
    await server.deliverWebhooks();
    const only = receiver.received[1]!;
    expect(signaturesOf(only)).toHaveLength(2);
    expect(validates(only, now.body.secret)).toBe(true);
    expect(verifiesWithPlainNode(only, byDefault.body.secret)).toBe(false);
    expect(verifiesTheStandardWay(only, byDefault.body.secret)).toBe(false);
  });
});
