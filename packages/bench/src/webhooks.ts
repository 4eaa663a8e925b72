/**
 * The webhook scenario: 3 receivers (real HTTP servers in this process) registered
 * as endpoints of the sandbox through the API of a `billow start --role core` child;
 * customers created through that API, each writing a `customer.created` event that
 * fans out to the 3 endpoints; and Billow's dispatcher in a `billow start --role
 * worker` child with its default settings delivering them. Two phases:
 *
 * - backlog: the events are written while no worker runs, then the worker starts;
 *   the wall time from its start to the last delivery, and deliveries per second.
 * - live: the worker runs while the events are written; each delivery's delay from
 *   its event's commit (the event's created_at, the app's clock at write time) to
 *   its receipt.
 *
 * Then every delivery is checked: received (none lost), duplicates counted, each
 * delivery succeeded with a log row per attempt.
 */
import http from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { withClient } from './database.js';
import { billowApi, eachLimited } from './edge-seed.js';
import type { WebhookReceivers } from './webhook-receivers.js';

/** Requests in flight while the customers are created: as the other seeds. */
const PRODUCE_CONCURRENCY = 8;
const GIVE_UP_MS = 5 * 60 * 1000;

export interface RunningWorker {
  /** CPU seconds the worker process has used so far. */
  cpuSeconds(): number | null;
  stop(): Promise<void>;
}

export interface WebhookInput {
  baseUrl: string;
  sandboxKey: string;
  databaseUrl: string;
  receivers: WebhookReceivers;
  events: number;
  /** Starts the worker process and resolves once it serves /healthz. */
  startWorker(): Promise<RunningWorker>;
}

export interface Latency {
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
}

export interface WebhookPhase {
  events: number;
  expected: number;
  /** (endpoint, event) pairs received at least once. */
  delivered: number;
  duplicates: number;
  /** Backlog: from the worker's start to the last delivery; live: from the first event's commit to the last delivery. */
  wallSeconds: number;
  /** From event commit to receipt, over every first receipt. */
  latency: Latency;
  /** Live: from the first event's commit to the last one's. */
  producedSeconds: number;
  /** Backlog: spawning the worker until it served /healthz. */
  workerStartSeconds: number | null;
}

export interface DeliveryCheck {
  deliveries: number;
  succeeded: number;
  attempts: number;
  successfulAttempts: number;
  /** Deliveries with more than one attempt. */
  retried: number;
}

export interface WebhookResults {
  receivers: number;
  backlog: WebhookPhase;
  live: WebhookPhase;
  check: DeliveryCheck;
  receipts: number;
  /** The worker's CPU over both phases, its start included. */
  workerCpuSeconds: number | null;
}

interface EventRow {
  id: string;
  created_at: Date;
}

type Say = (line: string) => void;

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1)]!;
}

async function lastSeq(databaseUrl: string): Promise<number> {
  return withClient(databaseUrl, async (client) => {
    const result = await client.query<{ seq: string }>('SELECT coalesce(max(seq), 0)::text AS seq FROM events');
    return Number(result.rows[0]!.seq);
  });
}

/** The customer.created events written after `seq`, and the deliveries they fanned out to. */
async function eventsSince(databaseUrl: string, seq: number): Promise<{ events: EventRow[]; deliveries: number }> {
  return withClient(databaseUrl, async (client) => {
    const events = await client.query<EventRow>(`SELECT id, created_at FROM events WHERE seq > $1 AND type = 'customer.created' ORDER BY seq`, [seq]);
    const ids = events.rows.map((e) => e.id);
    const deliveries = await client.query<{ n: number }>('SELECT count(*)::int AS n FROM webhook_deliveries WHERE event_id = ANY($1::uuid[])', [ids]);
    return { events: events.rows, deliveries: deliveries.rows[0]!.n };
  });
}

/** POSTs JSON with node:http on kept-alive connections: lighter than fetch in the process that also receives the webhooks. */
function post(agent: http.Agent, url: URL, key: string, body: unknown): Promise<void> {
  const payload = JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method: 'POST', agent, headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) } });
    req.on('error', reject);
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        if (res.statusCode === 201) resolve();
        else reject(new Error(`POST ${url.pathname} answered ${res.statusCode}: ${Buffer.concat(chunks).toString('utf8')}`));
      });
    });
    req.end(payload);
  });
}

/** `count` customers through the sandbox API: one customer.created event each. */
async function produce(input: WebhookInput, prefix: string, count: number): Promise<void> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: PRODUCE_CONCURRENCY });
  const url = new URL(`${input.baseUrl}/sandbox/api/v1/customers/`);
  const numbers = Array.from({ length: count }, (_, i) => i + 1);
  try {
    await eachLimited(numbers, PRODUCE_CONCURRENCY, (n) =>
      post(agent, url, input.sandboxKey, { customerId: `${prefix}-${n}`, name: `Webhook customer ${n}`, email: `${prefix}${n}@bench.example` }),
    );
  } finally {
    agent.destroy();
  }
}

/**
 * Waits until `expected` more (receiver, event) pairs than `before` have arrived (the
 * phases' events are disjoint, and each phase ends with all of its own); fails after GIVE_UP_MS.
 */
async function untilDelivered(receivers: WebhookReceivers, before: number, expected: number, say: Say): Promise<void> {
  const started = Date.now();
  let reported = started;
  for (;;) {
    const arrived = receivers.pairs - before;
    if (arrived >= expected) return;
    if (Date.now() - reported >= 5000) {
      reported = Date.now();
      say(`  ${Math.round((reported - started) / 1000)} s: ${arrived.toLocaleString('en-US')} of ${expected.toLocaleString('en-US')} delivered`);
    }
    if (Date.now() - started > GIVE_UP_MS) throw new Error(`only ${arrived} of ${expected} deliveries arrived within ${GIVE_UP_MS / 60000} minutes`);
    await sleep(50);
  }
}

/** The figures of a phase from the first receipt of each pair. */
function phaseOf(receivers: WebhookReceivers, events: EventRow[], startedAt: number | null, workerStartSeconds: number | null): WebhookPhase {
  const ids = new Set(events.map((e) => e.id));
  const createdAt = new Map(events.map((e) => [e.id, e.created_at.getTime()]));
  const firsts = receivers.firstReceipts(ids);
  const delays = firsts.map((r) => r.at - createdAt.get(r.eventId)!).sort((a, b) => a - b);
  const last = Math.max(...firsts.map((r) => r.at));
  const firstCommit = Math.min(...createdAt.values());
  const lastCommit = Math.max(...createdAt.values());
  // The worker may deliver before /healthz is seen to answer (it is polled every 100 ms).
  const from = startedAt === null ? firstCommit : Math.min(startedAt, ...firsts.map((r) => r.at));
  return {
    events: events.length,
    expected: events.length * receivers.urls.length,
    delivered: firsts.length,
    duplicates: receivers.duplicates(ids),
    wallSeconds: (last - from) / 1000,
    latency: { p50Ms: percentile(delays, 0.5), p99Ms: percentile(delays, 0.99), maxMs: delays.at(-1) ?? 0 },
    producedSeconds: (lastCommit - firstCommit) / 1000,
    workerStartSeconds,
  };
}

/** Every delivery of these events: succeeded, with its attempts in the log. */
async function checkDeliveries(databaseUrl: string, eventIds: string[]): Promise<DeliveryCheck> {
  return withClient(databaseUrl, async (client) => {
    const result = await client.query<DeliveryCheck>(
      `SELECT count(*)::int AS deliveries,
              count(*) FILTER (WHERE d.status = 'succeeded')::int AS succeeded,
              count(*) FILTER (WHERE d.attempt_count > 1)::int AS retried,
              (SELECT count(*)::int FROM webhook_attempts a WHERE a.event_id = ANY($1::uuid[])) AS attempts,
              (SELECT count(*)::int FROM webhook_attempts a WHERE a.event_id = ANY($1::uuid[]) AND a.is_success) AS "successfulAttempts"
         FROM webhook_deliveries d WHERE d.event_id = ANY($1::uuid[])`,
      [eventIds],
    );
    return result.rows[0]!;
  });
}

/** Registers the receivers, runs both phases and checks every delivery. */
export async function measureWebhooks(input: WebhookInput, say: Say): Promise<WebhookResults> {
  const { receivers, databaseUrl, events: count } = input;
  const api = billowApi(`${input.baseUrl}/sandbox`, input.sandboxKey);
  for (const [i, url] of receivers.urls.entries()) await api('POST', '/webhook/endpoints/', { url, description: `Bench receiver ${i + 1}` });
  const runId = Date.now().toString(36);

  say(`  backlog: creating ${count.toLocaleString('en-US')} customers through the sandbox API, no worker running`);
  const backlogSeq = await lastSeq(databaseUrl);
  const pairsBefore = receivers.pairs;
  await produce(input, `webhook-backlog-${runId}`, count);
  const backlog = await eventsSince(databaseUrl, backlogSeq);
  say(`  ${backlog.events.length} customer.created events, ${backlog.deliveries} deliveries pending; starting billow start --role worker`);
  const spawned = Date.now();
  const worker = await input.startWorker();
  const ready = Date.now();
  try {
    const backlogIds = backlog.events.map((e) => e.id);
    await untilDelivered(receivers, pairsBefore, backlog.deliveries, say);
    const backlogPhase = phaseOf(receivers, backlog.events, ready, (ready - spawned) / 1000);
    say(`  backlog delivered in ${backlogPhase.wallSeconds.toFixed(2)} s`);

    say(`  live: creating ${count.toLocaleString('en-US')} customers through the sandbox API while the worker runs`);
    const liveSeq = await lastSeq(databaseUrl);
    const pairsBeforeLive = receivers.pairs;
    await produce(input, `webhook-live-${runId}`, count);
    const live = await eventsSince(databaseUrl, liveSeq);
    const liveIds = live.events.map((e) => e.id);
    await untilDelivered(receivers, pairsBeforeLive, live.deliveries, say);
    const livePhase = phaseOf(receivers, live.events, null, null);
    // Late duplicates (a lease that ran out) would arrive after this pause.
    await sleep(1000);
    const workerCpuSeconds = worker.cpuSeconds();
    await worker.stop();
    const all = [...backlogIds, ...liveIds];
    return {
      receivers: receivers.urls.length,
      backlog: { ...backlogPhase, duplicates: receivers.duplicates(new Set(backlogIds)) },
      live: { ...livePhase, duplicates: receivers.duplicates(new Set(liveIds)) },
      check: await checkDeliveries(databaseUrl, all),
      receipts: receivers.receipts.length,
      workerCpuSeconds,
    };
  } finally {
    await worker.stop();
  }
}
