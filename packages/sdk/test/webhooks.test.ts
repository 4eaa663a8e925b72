import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { prefixOf, startTestServer, uniqueId, type TestOrg, type TestServer } from '../../server/test/harness.js';
import { Receiver } from '../../server/test/webhook-support.js';
import { Billow, verifyWebhook, WebhookVerificationError } from '../src/index.js';

let server: TestServer;
let org: TestOrg;
let billow: Billow;
const receivers: Receiver[] = [];

beforeAll(async () => {
  server = await startTestServer({ env: { BILLOW_WEBHOOK_RETRY_SCHEDULE: '1h' } });
  org = await server.createOrg();
  billow = new Billow({ apiKey: org.sandbox.serverKey, baseUrl: `${server.url}${prefixOf('sandbox')}` });
});
afterAll(async () => {
  await Promise.all(receivers.map((receiver) => receiver.close()));
  await server.close();
});

/** An endpoint on a local receiver, and the delivery of one customer.created to it. */
async function delivered(settings: { standardSignature?: boolean } = {}) {
  const receiver = await Receiver.start();
  receivers.push(receiver);
  const endpoint = await billow.webhooks.endpoints.create({ url: receiver.url, eventTypes: ['customer.created'], ...settings });
  const customerId = uniqueId('hooked');
  await billow.customers.create({ customerId });
  await server.deliverWebhooks();
  const delivery = receiver.ofType('customer.created').find((received) => received.json.data.object.customer_id === customerId);
  if (!delivery) throw new Error('no delivery arrived');
  return { endpoint, delivery, customerId, headers: delivery.headers as Record<string, string> };
}

describe('verifyWebhook', () => {
  it("accepts Billow's delivery and answers its event", async () => {
    const { endpoint, delivery, customerId, headers } = await delivered();
    const event = verifyWebhook(delivery.body, headers, endpoint.secret);
    expect(event).toMatchObject({ type: 'customer.created', data: { object: { customer_id: customerId } } });
    expect(event.id).toBe(headers['webhook-id']);
    // The raw body as bytes, and fetch's Headers, work the same.
    expect(verifyWebhook(new TextEncoder().encode(delivery.body), new Headers(headers), endpoint.secret).id).toBe(event.id);
  });

  it('refuses a changed body, another secret, a stale timestamp and missing headers', async () => {
    const { endpoint, delivery, headers } = await delivered();
    const refusal = (body: string, given: Record<string, string>, secret: string, now?: number) => {
      try {
        verifyWebhook(body, given, secret, now === undefined ? {} : { now: () => now });
      } catch (error) {
        expect(error).toBeInstanceOf(WebhookVerificationError);
        return (error as Error).message;
      }
      throw new Error('expected a refusal');
    };
    expect(refusal(delivery.body.replace('customer.created', 'customer.updated'), headers, endpoint.secret)).toMatch(/No signature/);
    expect(refusal(delivery.body, headers, 'kq_whsec_c29tZXRoaW5nIGVsc2U=')).toMatch(/No signature/);
    expect(refusal(delivery.body, headers, endpoint.secret, (Number(headers['webhook-timestamp']) + 301) * 1000)).toMatch(/too far/);
    expect(refusal(delivery.body, { ...headers, 'webhook-signature': '' }, endpoint.secret)).toMatch(/missing/);
  });

  it('accepts the Standard Webhooks signature alone, and either secret of a rotation', async () => {
    const { endpoint, delivery, headers } = await delivered({ standardSignature: true });
    const signatures = headers['webhook-signature']!.split(' ');
    expect(signatures).toHaveLength(2);
    const standardOnly = { ...headers, 'webhook-signature': signatures[1]! };
    expect(verifyWebhook(delivery.body, standardOnly, endpoint.secret).type).toBe('customer.created');
    const rotated = await billow.webhooks.endpoints.rotateSecret(endpoint.id, {});
    expect(verifyWebhook(delivery.body, headers, [rotated.secret, endpoint.secret]).type).toBe('customer.created');
  });
});
