/**
 * The webhook scenario: 3 receivers (real HTTP servers in this process) registered
 * as endpoints of the sandbox through the API of a `billow start --role core` child;
 * `customer.created` events written with the API's own statement (webhook-producer.ts),
 * each fanning out to the 3 endpoints and notifying; and Billow's dispatcher in a
 * `billow start --role worker` child with its default settings delivering them. Two phases:
 *
 * - backlog: the events are written while no worker runs, then the worker starts;
 *   deliveries per second from its start to the last delivery.
 * - live: the worker runs while events are written at a steady rate; each delivery's
 *   delay from its event's commit (the event's created_at, the clock just before its
 *   statement, so a little earlier than the commit) to its receipt.
 *
 * Then every delivery is checked: received (none lost), duplicates counted, each
 * delivery succeeded with a log row per attempt.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { withClient } from './database.js';
import { billowApi } from './edge-seed.js';
import { produceAtRate, produceBacklog, type EventTarget } from './webhook-producer.js';
import type { WebhookReceivers } from './webhook-receivers.js';

const GIVE_UP_MS = 5 * 60 * 1000;

export interface RunningWorker {
  /** CPU seconds the worker process has used so far. */
  cpuSeconds(): number | null;
  stop(): Promise<void>;
}

export interface WebhookInput {
  baseUrl: string;
  sandboxKey: string;
  organizationId: string;
  databaseUrl: string;
  receivers: WebhookReceivers;
  /** Events written before the worker starts. */
  backlogEvents: number;
  /** Events a second while the worker runs, and for how long. */
  liveRate: number;
  liveSeconds: number;
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
  /** The worker's CPU over the phase (its start not included). */
  workerCpuSeconds: number | null;
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

/** The sandbox environment of the organization: where the receivers' endpoints are. */
async function eventTarget(input: WebhookInput): Promise<EventTarget> {
  const environmentId = await withClient(input.databaseUrl, async (client) => {
    const result = await client.query<{ id: string }>(`SELECT id FROM environments WHERE organization_id = $1 AND kind = 'sandbox'`, [input.organizationId]);
    return result.rows[0]!.id;
  });
  return { databaseUrl: input.databaseUrl, organizationId: input.organizationId, environmentId };
}

const cpuBetween = (from: number | null, to: number | null) => (from === null || to === null ? null : to - from);

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
function phaseOf(receivers: WebhookReceivers, events: EventRow[], startedAt: number | null, workerStartSeconds: number | null, workerCpuSeconds: number | null): WebhookPhase {
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
    workerCpuSeconds,
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
  const { receivers, databaseUrl } = input;
  const api = billowApi(`${input.baseUrl}/sandbox`, input.sandboxKey);
  for (const [i, url] of receivers.urls.entries()) await api('POST', '/webhook/endpoints/', { url, description: `Bench receiver ${i + 1}` });
  const target = await eventTarget(input);
  const runId = Date.now().toString(36);

  say(`  backlog: writing ${input.backlogEvents.toLocaleString('en-US')} customer.created events, no worker running`);
  const backlogSeq = await lastSeq(databaseUrl);
  const pairsBefore = receivers.pairs;
  await produceBacklog(target, `webhook-backlog-${runId}`, input.backlogEvents);
  const backlog = await eventsSince(databaseUrl, backlogSeq);
  say(`  ${backlog.events.length} customer.created events, ${backlog.deliveries} deliveries pending; starting billow start --role worker`);
  const spawned = Date.now();
  const worker = await input.startWorker();
  const ready = Date.now();
  const cpuAtReady = worker.cpuSeconds();
  try {
    const backlogIds = backlog.events.map((e) => e.id);
    await untilDelivered(receivers, pairsBefore, backlog.deliveries, say);
    const cpuAfterBacklog = worker.cpuSeconds();
    const backlogPhase = phaseOf(receivers, backlog.events, ready, (ready - spawned) / 1000, cpuBetween(cpuAtReady, cpuAfterBacklog));
    say(`  backlog delivered in ${backlogPhase.wallSeconds.toFixed(2)} s`);
    // The worker sits idle a moment: the live phase starts from a quiet dispatcher, woken by commits.
    await sleep(1000);

    say(`  live: ${input.liveRate.toLocaleString('en-US')} events/s for ${input.liveSeconds} s while the worker runs`);
    const liveSeq = await lastSeq(databaseUrl);
    const pairsBeforeLive = receivers.pairs;
    const cpuBeforeLive = worker.cpuSeconds();
    await produceAtRate(target, `webhook-live-${runId}`, input.liveRate, input.liveSeconds);
    const live = await eventsSince(databaseUrl, liveSeq);
    const liveIds = live.events.map((e) => e.id);
    await untilDelivered(receivers, pairsBeforeLive, live.deliveries, say);
    const livePhase = phaseOf(receivers, live.events, null, null, cpuBetween(cpuBeforeLive, worker.cpuSeconds()));
    // Late duplicates (a lease that ran out) would arrive after this pause.
    await sleep(1000);
    await worker.stop();
    const all = [...backlogIds, ...liveIds];
    return {
      receivers: receivers.urls.length,
      backlog: { ...backlogPhase, duplicates: receivers.duplicates(new Set(backlogIds)) },
      live: { ...livePhase, duplicates: receivers.duplicates(new Set(liveIds)) },
      check: await checkDeliveries(databaseUrl, all),
      receipts: receivers.receipts.length,
    };
  } finally {
    await worker.stop();
  }
}
