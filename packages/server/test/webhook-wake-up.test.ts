/**
 * Deliveries go out as their events commit (decision 0119): a `billow start` whose poll
 * comes only once a minute still delivers an event at once, because the commit that
 * queued it wakes the dispatcher; a burst of events is delivered exactly once each, and
 * the successes recorded together keep one log row per attempt.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { DATABASE_KIND } from '../../cli/test/support.js';
import { crashWorkspaces, list, okWith, startWithFailpoints, type Call } from './crash-workspaces.js';
import { Receiver } from './webhook-support.js';

/** The poll is a backstop here: a delivery must not wait for it. */
const POLL_MS = 60_000;
/** Well under the poll: a delivery that arrives within this was woken by its commit. */
const BEFORE_THE_POLL_MS = 30_000;

const workspace = crashWorkspaces();
const receivers: Receiver[] = [];
afterEach(async () => void (await Promise.all(receivers.splice(0).map((r) => r.close()))));

/** A server that polls for deliveries once a minute, its sandbox API and a receiver registered as an endpoint. */
async function started() {
  const receiver = await Receiver.start();
  receivers.push(receiver);
  const w = await workspace();
  const { call: raw } = await startWithFailpoints(w, null, { BILLOW_WEBHOOK_POLL_INTERVAL_MS: String(POLL_MS) });
  const call = okWith(raw);
  const endpoint = await call('POST', '/webhook/endpoints/', { url: receiver.url, eventTypes: ['customer.created'] });
  return { receiver, call, raw, endpoint };
}

/** Every log row of the environment (the receiver's count of deliveries is far below a page). */
const logs = (call: Call) => list(call, '/webhook/logs/?page_size=100');

describe(`deliveries woken by their commit on ${DATABASE_KIND}`, () => {
  it('reach the receiver, and the log, before the poll comes round', async () => {
    const { receiver, call, raw, endpoint } = await started();
    // The dispatcher's first claim (at start) found nothing; the next poll is a minute away.
    await call('POST', '/customers/', { customerId: 'woken', email: 'woken@example.com' });

    await receiver.waitFor(1, BEFORE_THE_POLL_MS);
    const [delivery] = receiver.received;
    expect(delivery!.json).toMatchObject({ type: 'customer.created', data: { object: { customer_id: 'woken' } } });
    await expect
      .poll(() => logs(raw), { timeout: BEFORE_THE_POLL_MS, interval: 100 })
      .toEqual([expect.objectContaining({ eventId: delivery!.headers['webhook-id'], endpoint: endpoint.id, isSuccess: true, statusCode: 200 })]);
  }, 120_000);

  it('deliver a burst of events exactly once each, with one log row per attempt', async () => {
    const { receiver, call, raw } = await started();
    const customers = Array.from({ length: 40 }, (_, i) => `burst-${i}`);
    // Eight requests at a time: commits arrive while claims and records are under way.
    for (let i = 0; i < customers.length; i += 8) {
      await Promise.all(customers.slice(i, i + 8).map((customerId) => call('POST', '/customers/', { customerId, email: `${customerId}@example.com` })));
    }

    await receiver.waitFor(customers.length, BEFORE_THE_POLL_MS);
    await expect.poll(async () => (await logs(raw)).length, { timeout: BEFORE_THE_POLL_MS, interval: 100 }).toBe(customers.length);
    const received = receiver.received.map((r) => r.json.data.object.customer_id as string);
    expect([...received].sort()).toEqual([...customers].sort());
    const ids = receiver.received.map((r) => r.headers['webhook-id'] as string);
    expect(new Set(ids).size).toBe(customers.length);

    const rows = await logs(raw);
    expect(rows).toHaveLength(customers.length);
    expect(rows.every((row) => row.isSuccess === true && row.statusCode === 200 && row.retryCount === 0)).toBe(true);
    expect(new Set(rows.map((row) => row.eventId)).size).toBe(customers.length);
    expect([...rows.map((row) => row.eventId as string)].sort()).toEqual([...ids].sort());
  }, 180_000);

  it('sends a resent event at once too', async () => {
    const { receiver, call, raw } = await started();
    await call('POST', '/customers/', { customerId: 'again', email: 'again@example.com' });
    await receiver.waitFor(1, BEFORE_THE_POLL_MS);
    await expect.poll(async () => (await logs(raw)).length, { timeout: BEFORE_THE_POLL_MS, interval: 100 }).toBe(1);
    const [log] = await logs(raw);

    expect(await call('POST', `/webhook/logs/${log!.id}/resend/`)).toEqual({ queued: 1 });
    await receiver.waitFor(2, BEFORE_THE_POLL_MS);
    expect(receiver.received.map((r) => r.headers['webhook-id'])).toEqual([log!.eventId, log!.eventId]);
  }, 120_000);
});
