/**
 * A server process is killed (SIGKILL) while a webhook is in flight: its receiver
 * hangs on the first request. Started again on the same database, the delivery is
 * made again once its lease runs out (same webhook-id), and logged. A duplicate is
 * allowed; a loss is not (issue 12, decision 0031).
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  DATABASE_KIND,
  api,
  assertBuilt,
  killServers,
  makeWorkspace,
  migratedTemplate,
  printedCredentials,
  startServer,
  type Workspace,
} from '../../cli/test/support.js';
import { connectDatabase } from '../src/db/connect.js';
import { Receiver } from './webhook-support.js';

let template: Workspace | null;
const workspaces: Workspace[] = [];
const receivers: Receiver[] = [];
beforeAll(async () => {
  assertBuilt();
  template = await migratedTemplate();
});
afterAll(() => template?.cleanup());
afterEach(async () => {
  await killServers();
  await Promise.all(receivers.splice(0).map((r) => r.close()));
  await Promise.all(workspaces.splice(0).map((w) => w.cleanup()));
});

/**
 * The dispatcher on (the test support turns it off), polling often. The lease of a
 * claimed delivery is derived from the timeout (twice it, plus 30 s): a short timeout
 * keeps the wait for the dead process's lease near 30 s, and 2 s leaves the kill
 * ample time to land while the receiver hangs.
 */
const DISPATCHER = { BILLOW_WEBHOOK_POLL_INTERVAL_MS: '50', BILLOW_WEBHOOK_TIMEOUT_MS: '2000' };

async function start(w: Workspace) {
  const server = await startServer({ ...w, env: { ...w.env, ...DISPATCHER } });
  const key = printedCredentials(server.stdout()).sandbox.serverKey;
  const call = async (method: string, path: string, body?: unknown) => {
    const res = await api(`${server.sandboxUrl}/api/v1${path}`, method, { key, body });
    if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body;
  };
  return { server, call };
}

/** The delivery rows of an event and their log rows, read while no server runs. */
async function deliveryState(w: Workspace, eventId: string) {
  const database = await connectDatabase({ databaseUrl: w.env.DATABASE_URL ?? null, dataDir: w.env.DATABASE_URL ? null : w.dataDir, poolSize: 1 });
  try {
    const deliveries = await database.db.selectFrom('webhook_deliveries').select(['status', 'attempt_count']).where('event_id', '=', eventId).execute();
    const attempts = await database.db.selectFrom('webhook_attempts').select('is_success').where('event_id', '=', eventId).execute();
    return { deliveries, attempts };
  } finally {
    await database.close();
  }
}

describe(`a server killed mid-delivery on ${DATABASE_KIND}`, () => {
  it('delivers the event again after a restart, once the lease runs out, with the same webhook-id and a log row', async () => {
    const receiver = await Receiver.start();
    receivers.push(receiver);
    receiver.next('hang');
    const w = await makeWorkspace({ emptyDatabase: true, copyOf: template });
    workspaces.push(w);

    const first = await start(w);
    const endpoint = await first.call('POST', '/webhook/endpoints/', { url: receiver.url, eventTypes: ['customer.created'] });
    await first.call('POST', '/customers/', { customerId: 'kill-9', email: 'kill-9@example.com' });
    // The request has arrived and hangs: the attempt is in flight, unrecorded, when the process dies.
    await receiver.waitFor(1, 30_000);
    expect(await first.server.stop('SIGKILL')).toEqual({ code: null, signal: 'SIGKILL' });
    const eventId = receiver.received[0]!.headers['webhook-id'] as string;
    expect(receiver.received[0]!.json).toMatchObject({ id: eventId, type: 'customer.created' });
    expect(await deliveryState(w, eventId)).toEqual({ deliveries: [{ status: 'delivering', attempt_count: 0 }], attempts: [] });

    // Restarted on the same database: the dead process's lease runs out, the delivery is made again.
    const second = await start(w);
    await receiver.waitFor(2, 120_000);
    const again = receiver.received[1]!;
    expect(again.headers['webhook-id']).toBe(eventId);
    expect(again.body).toBe(receiver.received[0]!.body);
    await expect
      .poll(async () => (await second.call('GET', `/webhook/logs/?event_id=${eventId}`)).results, { timeout: 15_000, interval: 100 })
      .toEqual([expect.objectContaining({ eventId, endpoint: endpoint.id, eventType: 'customer.created', isSuccess: true, statusCode: 200, retryCount: 0 })]);
    expect(receiver.received.filter((r) => r.headers['webhook-id'] === eventId)).toHaveLength(2);
    expect(await second.server.stop()).toEqual({ code: 0, signal: null });
    expect(await deliveryState(w, eventId)).toEqual({ deliveries: [{ status: 'succeeded', attempt_count: 1 }], attempts: [{ is_success: true }] });
    // About 35 s of it is the lease running out; the rest is two server starts, which on a loaded CI machine take minutes.
  }, 300_000);
});
