import { validateEvent } from '@kelviq/node-sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, uniqueId, type TestOrg, type TestServer } from './harness.js';
import { Receiver } from './webhook-support.js';

let server: TestServer;
let org: TestOrg;
let receiver: Receiver;

beforeAll(async () => {
  server = await startTestServer({ env: { BILLOW_WEBHOOK_TIMEOUT_MS: '1000', BILLOW_WEBHOOK_RETRY_SCHEDULE: '1ms,1ms,1ms' } });
  org = await server.createOrg();
  receiver = await Receiver.start();
});
afterAll(async () => {
  await receiver?.close();
  await server?.close();
});

const sandbox = (method: string, path: string, body?: unknown) =>
  server.request(method, `/sandbox/api/v1${path}`, { key: org.sandbox.serverKey, ...(body !== undefined ? { body } : {}) });

describe('a sandbox endpoint', () => {
  it('receives customer.created, signed so that the official client accepts it', async () => {
    const created = await sandbox('POST', '/webhook/endpoints/', { url: receiver.url, description: 'local' });
    expect(created.status, created.text).toBe(201);
    expect(created.body.secret).toMatch(/^kq_whsec_/);
    const customerId = uniqueId('hooked');
    expect((await sandbox('POST', '/customers/', { customerId, email: `${customerId}@example.com`, name: 'Hooked' })).status).toBe(201);
    await server.deliverWebhooks();
    const [delivery] = receiver.ofType('customer.created');
    expect(delivery).toBeDefined();
    const event = validateEvent(delivery!.body, delivery!.headers as Record<string, string>, created.body.secret);
    expect(event).toMatchObject({ type: 'customer.created', data: { object: { object: 'customer', customer_id: customerId } } });
    expect(delivery!.headers['webhook-id']).toBe(event.id);
    const logs = await sandbox('GET', '/webhook/logs/');
    expect(logs.status, logs.text).toBe(200);
    expect(logs.body.results[0]).toMatchObject({ eventId: event.id, isSuccess: true, statusCode: 200, retryCount: 0, eventType: 'customer.created' });
  });
});
