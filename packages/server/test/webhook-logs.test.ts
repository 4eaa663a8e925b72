import pino from 'pino';
import { sql } from 'kysely';
import type { FastifyBaseLogger } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../src/lib/clock.js';
import { insertJob } from '../src/modules/jobs/repo.js';
import { environmentIdOf, startTestServer, uniqueId, type TestOrg, type TestServer } from './harness.js';
import { apiOf, createCustomer, createEndpoint, logsOf, MINUTE, renameCustomer, type Api } from './webhook-fixtures.js';
import { Receiver } from './webhook-support.js';

const DAY = 24 * 60 * MINUTE;
const clock = new ManualClock(new Date());
const logLines: string[] = [];
let server: TestServer;
const receivers: Receiver[] = [];
/** Every secret Billow showed in this file: none may appear anywhere else. */
const secrets: string[] = [];

beforeAll(async () => {
  const logger = pino({ level: 'trace' }, { write: (line: string) => void logLines.push(line) }) as unknown as FastifyBaseLogger;
  server = await startTestServer({ clock, logger, env: { BILLOW_WEBHOOK_TIMEOUT_MS: '5000', BILLOW_WEBHOOK_RETRY_SCHEDULE: '1m,1m,1m' } });
});
afterAll(async () => {
  await Promise.all(receivers.map((r) => r.close()));
  await server?.close();
});

async function tenant(): Promise<{ org: TestOrg; api: Api; receiver: Receiver }> {
  const org = await server.createOrg();
  const receiver = await Receiver.start();
  receivers.push(receiver);
  return { org, api: apiOf(server, org, 'sandbox'), receiver };
}

async function endpoint(api: Api, body: Record<string, unknown>) {
  const created = await createEndpoint(api, body);
  secrets.push(created.secret);
  return created;
}

const day = (at: Date) => at.toISOString().slice(0, 10);

describe('the delivery log', () => {
  it('lists each attempt with the reference fields; one attempt shows its request and answer', async () => {
    const { api, receiver } = await tenant();
    const hook = await endpoint(api, { url: receiver.url });
    receiver.next({ status: 500, body: 'not now' }, { status: 202, body: 'thanks' });
    await createCustomer(api);
    const eventAt = clock.now();
    await server.deliverWebhooks();
    clock.advance(1.1 * MINUTE);
    const retriedAt = clock.now();
    await server.deliverWebhooks();
    const logs = await logsOf(api);
    expect(logs).toHaveLength(2);
    const [second, first] = logs;
    expect(Object.keys(first).sort()).toEqual(['createdOn', 'endpoint', 'eventId', 'eventType', 'id', 'isSuccess', 'lastAttempt', 'payload', 'retryCount', 'statusCode']);
    expect(first).toMatchObject({ endpoint: hook.id, eventType: 'customer.created', statusCode: 500, isSuccess: false, retryCount: 0, lastAttempt: eventAt.toISOString() });
    expect(second).toMatchObject({ eventId: first.eventId, statusCode: 202, isSuccess: true, retryCount: 1, lastAttempt: retriedAt.toISOString() });
    expect(first.createdOn).toBe(eventAt.toISOString());
    expect(first.payload).toEqual(receiver.received[0]!.json);
    expect(first.payload.id).toBe(first.eventId);

    const failed = await api('GET', `/webhook/logs/${first.id}/`);
    expect(failed.status).toBe(200);
    expect(failed.body).toMatchObject({ ...first, url: receiver.url, error: expect.stringMatching(/500/), responseExcerpt: 'not now' });
    expect(failed.body.requestBody).toBe(receiver.received[0]!.body);
    expect(failed.body.requestHeaders).toMatchObject({
      'webhook-id': first.eventId,
      'webhook-timestamp': String(Math.floor(eventAt.getTime() / 1000)),
      'webhook-signature': receiver.received[0]!.headers['webhook-signature'],
      'content-type': 'application/json',
    });
    expect(Number.isInteger(failed.body.durationMs)).toBe(true);
    const succeeded = (await api('GET', `/webhook/logs/${second.id}/`)).body;
    expect(succeeded).toMatchObject({ error: null, responseExcerpt: 'thanks', statusCode: 202 });
  });

  it('filters by status, event type, endpoint, event and date (clamped to 30 days), and pages', async () => {
    const { api, receiver } = await tenant();
    const other = await Receiver.start();
    receivers.push(other);
    const a = await endpoint(api, { url: receiver.url });
    const b = await endpoint(api, { url: other.url, eventTypes: ['customer.updated'] });
    receiver.next({ status: 500 });
    const customerId = await createCustomer(api);
    await renameCustomer(api, customerId, 'Renamed');
    await server.deliverWebhooks();
    clock.advance(1.1 * MINUTE);
    await server.deliverWebhooks();
    // First a: created (500) and b: updated; then, in order, a: created and updated.
    const all = await logsOf(api);
    expect(all).toHaveLength(4);
    expect((await logsOf(api, 'status=failed')).map((l) => l.statusCode)).toEqual([500]);
    expect(await logsOf(api, 'status=success')).toHaveLength(3);
    expect(await logsOf(api, 'event_type=customer.updated')).toHaveLength(2);
    expect(await logsOf(api, 'event_type=order.created')).toHaveLength(0);
    expect((await logsOf(api, `endpoint=${b.id}`)).map((l) => l.eventType)).toEqual(['customer.updated']);
    expect(await logsOf(api, `endpoint=${a.id}&status=success`)).toHaveLength(2);
    const createdEvent = all.find((l) => l.eventType === 'customer.created')!.eventId;
    expect((await logsOf(api, `event_id=${createdEvent}`)).map((l) => l.retryCount).sort()).toEqual([0, 1]);

    const today = day(clock.now());
    expect(await logsOf(api, `start_date=${today}&end_date=${today}`)).toHaveLength(4);
    expect(await logsOf(api, `start_date=${day(new Date(clock.now().getTime() + DAY))}`)).toHaveLength(0);
    expect(await logsOf(api, `end_date=${day(new Date(clock.now().getTime() - DAY))}`)).toHaveLength(0);
    expect(await logsOf(api, `start_date=${encodeURIComponent(new Date(clock.now().getTime() - MINUTE).toISOString())}`)).toHaveLength(2);
    // An attempt made 40 days ago is not listed, even when asked for.
    const oldest = all[all.length - 1];
    await server.database.db.updateTable('webhook_attempts').set({ attempted_at: new Date(clock.now().getTime() - 40 * DAY) }).where('id', '=', oldest.id).execute();
    expect(await logsOf(api, `start_date=${day(new Date(clock.now().getTime() - 60 * DAY))}`)).toHaveLength(3);
    expect(await logsOf(api)).toHaveLength(3);

    const page1 = await api('GET', '/webhook/logs/?page_size=2');
    const page2 = await api('GET', '/webhook/logs/?page_size=2&page=2');
    expect(page1.body).toMatchObject({ count: 3, previous: null, next: expect.stringContaining('page=2') });
    expect(page2.body).toMatchObject({ count: 3, next: null, previous: expect.any(String) });
    expect(page2.body.results).toHaveLength(1);
    expect(new Set([...page1.body.results, ...page2.body.results].map((l: any) => l.id)).size).toBe(3);

    for (const bad of ['status=bogus', 'start_date=yesterday', 'end_date=2026-13-45', 'page=0']) {
      const res = await api('GET', `/webhook/logs/?${bad}`);
      expect(res.status, bad).toBe(400);
      expect(typeof res.body.detail).toBe('string');
    }
  });
});

describe('resend and replay', () => {
  it('resends the event of a log row: same event id, a new attempt in the log', async () => {
    const { api, receiver } = await tenant();
    await endpoint(api, { url: receiver.url });
    await createCustomer(api);
    await server.deliverWebhooks();
    const [log] = await logsOf(api);
    const resent = await api('POST', `/webhook/logs/${log.id}/resend/`);
    expect(resent.status, resent.text).toBe(202);
    expect(resent.body).toEqual({ queued: 1 });
    await server.deliverWebhooks();
    expect(receiver.received.map((r) => r.headers['webhook-id'])).toEqual([log.eventId, log.eventId]);
    expect(receiver.received[1]!.body).toBe(receiver.received[0]!.body);
    expect((await logsOf(api, `event_id=${log.eventId}`)).map((l) => [l.retryCount, l.isSuccess])).toEqual([[0, true], [0, true]]);
  });

  it('resending to a deleted endpoint is refused with 409', async () => {
    const { api, receiver } = await tenant();
    const hook = await endpoint(api, { url: receiver.url });
    await createCustomer(api);
    await server.deliverWebhooks();
    const [log] = await logsOf(api);
    await api('DELETE', `/webhook/endpoints/${hook.id}/`);
    expect((await api('GET', `/webhook/logs/${log.id}/`)).status).toBe(200);
    expect((await api('POST', `/webhook/logs/${log.id}/resend/`)).status).toBe(409);
  });

  it('replays every event since a time, of the types the endpoint takes, with their ids; not older than 30 days', async () => {
    const { api, receiver } = await tenant();
    const before = clock.now();
    const created = [await createCustomer(api, 'r1'), await createCustomer(api, 'r2')];
    await renameCustomer(api, created[0]!, 'r1 renamed');
    clock.advance(1000);
    const late = await endpoint(api, { url: receiver.url });
    const picky = await endpoint(api, { url: receiver.url, eventTypes: ['customer.updated'] });
    expect((await api('POST', `/webhook/endpoints/${picky.id}/replay/`, { since: before.toISOString() })).body).toEqual({ queued: 1 });
    const replayed = await api('POST', `/webhook/endpoints/${late.id}/replay/`, { since: before.toISOString() });
    expect(replayed.status, replayed.text).toBe(202);
    expect(replayed.body).toEqual({ queued: 3 });
    await server.deliverWebhooks();
    const toLate = receiver.received.filter((r) => r.json.type === 'customer.created' || r.json.data.object.name === 'r1 renamed');
    expect(toLate).toHaveLength(4);
    const eventIds = new Set((await logsOf(api)).map((l) => l.eventId));
    expect(eventIds.size).toBe(3);
    for (const r of receiver.received) expect(eventIds.has(r.headers['webhook-id'] as string)).toBe(true);
    // Nothing since then.
    expect((await api('POST', `/webhook/endpoints/${late.id}/replay/`, { since: clock.now().toISOString(), until: new Date(clock.now().getTime() + 1000).toISOString() })).body).toEqual({ queued: 0 });

    for (const body of [
      { since: new Date(clock.now().getTime() - 31 * DAY).toISOString() },
      { since: clock.now().toISOString(), until: before.toISOString() },
      { since: 'last week' },
      {},
      { since: before.toISOString(), extra: true },
    ]) {
      const res = await api('POST', `/webhook/endpoints/${late.id}/replay/`, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(typeof res.body.detail).toBe('string');
    }
  });
});

describe('pruning', () => {
  it("the prune-webhook-logs job deletes log rows older than the retention, and only those", async () => {
    const { org, api, receiver } = await tenant();
    await endpoint(api, { url: receiver.url });
    await createCustomer(api);
    await createCustomer(api);
    await server.deliverWebhooks();
    const [recent, old] = await logsOf(api);
    await server.database.db.updateTable('webhook_attempts').set({ attempted_at: new Date(clock.now().getTime() - 31 * DAY) }).where('id', '=', old.id).execute();
    await insertJob(server.database.db, { name: 'prune-webhook-logs', payload: {}, uniqueKey: null, runAt: null });
    expect(await server.runJobs(['prune-webhook-logs'])).toBeGreaterThanOrEqual(1);
    const environmentId = await environmentIdOf(server, org.organizationId, 'sandbox');
    const left = await server.database.db.selectFrom('webhook_attempts').select('id').where('environment_id', '=', environmentId).execute();
    expect(left.map((r) => r.id)).toEqual([recent.id]);
    expect((await api('GET', `/webhook/logs/${old.id}/`)).status).toBe(404);
  });
});

describe('secrets', () => {
  it('appear nowhere but the answers that show them: not in logs, stored answers, events or attempts', async () => {
    const { org, api, receiver } = await tenant();
    receiver.next({ status: 500 }, 'close');
    const key = { 'idempotency-key': uniqueId('secret') };
    const created = await api('POST', '/webhook/endpoints/', { url: receiver.url, standardSignature: true }, key);
    secrets.push(created.body.secret);
    await api('POST', '/webhook/endpoints/', { url: receiver.url, standardSignature: true }, key);
    const rotateKey = { 'idempotency-key': uniqueId('rotate') };
    const rotated = await api('POST', `/webhook/endpoints/${created.body.id}/rotate-secret/`, {}, rotateKey);
    secrets.push(rotated.body.secret);
    await api('POST', '/webhook/endpoints/', { url: 'ftp://nowhere', description: created.body.secret });
    await createCustomer(api);
    await server.deliverWebhooks();
    for (let i = 0; i < 3; i++) {
      clock.advance(1.1 * MINUTE);
      await server.deliverWebhooks();
    }
    expect(receiver.received.length).toBeGreaterThanOrEqual(2);
    expect(logLines.length).toBeGreaterThan(10);
    expect(secrets.length).toBeGreaterThan(3);
    const environmentId = await environmentIdOf(server, org.organizationId, 'sandbox');
    const keys = [key['idempotency-key'], rotateKey['idempotency-key']];
    const texts = await server.database.db
      .selectFrom(
        sql<{ text: string }>`(
          SELECT coalesce(response_body, '') AS text FROM idempotency_keys WHERE key = ANY (${keys}::text[])
          UNION ALL SELECT payload::text FROM events WHERE environment_id = ${environmentId}
          UNION ALL SELECT request_headers::text || coalesce(error, '') || response_excerpt FROM webhook_attempts WHERE environment_id = ${environmentId}
          UNION ALL SELECT secret_sealed || coalesce(previous_secret_sealed, '') || url || description FROM webhook_endpoints WHERE environment_id = ${environmentId}
        )`.as('t'),
      )
      .select('t.text')
      .execute();
    // The rows are there: two stored answers, the event, the attempts, the endpoint.
    expect(texts.length).toBeGreaterThanOrEqual(5);
    expect(texts.some((row) => row.text.includes(created.body.id))).toBe(true);
    for (const secret of secrets) {
      const bare = secret.slice('kq_whsec_'.length);
      expect(logLines.filter((line) => line.includes(bare))).toEqual([]);
      expect(texts.filter((row) => row.text.includes(bare))).toEqual([]);
    }
  });
});
