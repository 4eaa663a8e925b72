import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../src/lib/clock.js';
import { startTestServer, type TestServer } from './harness.js';
import { apiOf, createCustomer, createEndpoint, logsOf, MINUTE } from './webhook-fixtures.js';
import { Receiver } from './webhook-support.js';

const clock = new ManualClock(new Date());
let server: TestServer;
const receivers: Receiver[] = [];

beforeAll(async () => {
  // A long timeout: the hanging receiver hangs for the whole test however slow the machine (it is closed at the end).
  // 16 slots, so an endpoint's share is 4, fewer than the hanging endpoint's backlog of 20.
  server = await startTestServer({
    clock,
    env: { BILLOW_WEBHOOK_TIMEOUT_MS: '20000', BILLOW_WEBHOOK_RETRY_SCHEDULE: '1h', BILLOW_WEBHOOK_CONCURRENCY: '16' },
  });
});
afterAll(async () => {
  await Promise.all(receivers.map((r) => r.close()));
  await server?.close();
});

describe('isolation', () => {
  it('a hanging receiver does not hold up another endpoint, even with a backlog older than its deliveries', async () => {
    const org = await server.createOrg();
    const api = apiOf(server, org, 'sandbox');
    const hanging = await Receiver.start();
    receivers.push(hanging);
    const prompt = await Receiver.start();
    receivers.push(prompt);
    hanging.fallback = 'hang';
    const stuck = await createEndpoint(api, { url: hanging.url });
    const customers: string[] = [];
    // The hanging endpoint's backlog: older events than any of the prompt endpoint's, more than the dispatcher's 16 slots.
    for (let i = 0; i < 20; i++) customers.push(await createCustomer(api, `backlog${i}`));
    const promptEndpoint = await createEndpoint(api, { url: prompt.url });
    const replayed = await api('POST', `/webhook/endpoints/${promptEndpoint.id}/replay/`, {
      since: new Date(clock.now().getTime() - MINUTE).toISOString(),
      until: new Date(clock.now().getTime() + 1000).toISOString(),
    });
    expect(replayed.body.queued).toBe(20);
    const run = server.deliverWebhooks();
    await prompt.waitFor(20);
    // Every delivery to the prompt endpoint was made while the first few to the hanging one were still waiting for an answer.
    expect(await logsOf(api, `endpoint=${stuck.id}`)).toEqual([]);
    expect(hanging.received.length).toBeGreaterThan(0);
    expect(hanging.received.length).toBeLessThanOrEqual(4);
    // The API answers meanwhile.
    expect((await api('GET', '/webhook/endpoints/')).status).toBe(200);
    expect((await api('DELETE', `/webhook/endpoints/${stuck.id}/`)).status).toBe(204);
    // Its receiver gives up: the attempts in flight end now rather than at the timeout.
    await hanging.close();
    await run;
    expect(new Set(prompt.received.map((r) => r.json.data.object.customer_id))).toEqual(new Set(customers));
    const failed = await logsOf(api, `endpoint=${stuck.id}`);
    expect(failed.length).toBe(hanging.received.length);
    expect(failed.every((l) => l.statusCode === null && !l.isSuccess)).toBe(true);
  });
});
