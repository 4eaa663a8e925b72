import type { Insertable } from 'kysely';
import { leaseHolderOf } from '../../db/lease-holder.js';
import { Counter, type Registry } from 'prom-client';
import type { FastifyBaseLogger } from 'fastify';
import type { WebhookConfig } from '../../config.js';
import type { DatabaseHandle, Db } from '../../db/connect.js';
import type { WebhookAttemptsTable } from '../../db/schema.js';
import { inTransaction } from '../../db/transaction.js';
import type { Clock } from '../../lib/clock.js';
import { newId } from '../../lib/crypto.js';
import { nextAttemptAt, retryAfterMs, shouldDisable } from '../../lib/retry-schedule.js';
import { disableEndpoint } from './disable.js';
import * as repo from './repo.js';
import type { SecretBox } from './secrets.js';
import { EndpointAgents, sendDelivery, type SendResult } from './sender.js';
import { targetRules } from './url-guard.js';
import { signedHeaders } from './signature.js';
import { WakeUp } from '../../lib/wake-up.js';
import { WEBHOOK_DELIVERIES_CHANNEL } from '../events/queries.js';

export interface DispatcherOptions {
  db: Db;
  clock: Clock;
  log: FastifyBaseLogger;
  registry: Registry;
  config: WebhookConfig;
  secretBox: () => Promise<SecretBox>;
  /**
   * Only these organizations' deliveries (tests sharing one database, each with its own
   * clock and schedule); every organization's when left out, as a worker does.
   */
  organizations?: () => readonly string[];
  /**
   * The database's notifications (DatabaseHandle.listen): a commit that queued deliveries
   * wakes the dispatcher at once, the poll being the backstop. Left out, it only polls.
   */
  listen?: DatabaseHandle['listen'];
}

/** A receiver that hangs may hold at most this share of the deliveries in flight. */
const ENDPOINT_SHARE = 4;

/**
 * Delivers webhooks (decision 0031): claims due deliveries under a lease, keeps up to
 * `concurrency` requests in flight, each slot freed as soon as its answer came (or did
 * not), so that a slow receiver holds only its own deliveries up; the attempt is then
 * recorded while the slot serves the next (at most `concurrency` wait to be recorded).
 * A delivery stays leased until recorded: a process that dies mid-delivery leaves a
 * lease that runs out, and the delivery is made again (same webhook-id).
 */
export class WebhookDispatcher {
  /** Every delivery not yet recorded, by its endpoint. */
  private readonly inFlight = new Map<Promise<void>, string>();
  /** Deliveries whose request is in flight (the slots), by id, with their endpoint. */
  private readonly sending = new Map<string, string>();
  private readonly outcomes: Counter<'outcome'>;
  private loop: Promise<void> | null = null;
  private readonly wakeUp = new WakeUp();
  /** A slot freed since the last claim began: the next pause is skipped. */
  private finishedSinceClaim = false;
  /** The last claim found nothing for the endpoints below their share: only one that drops below it (or the poll) may find more. */
  private onlySaturatedLeft = false;
  private stopped = false;
  /** Counts answered requests and recorded attempts: runDue() claims again when it moved during a claim. */
  private progress = 0;
  private readonly successes: Array<{ row: AttemptRow; resolve: () => void; reject: (error: unknown) => void }> = [];
  private writingSuccesses = false;
  private readonly agents: EndpointAgents;
  private readonly secrets = new OpenedSecrets();
  private unlisten: (() => Promise<void>) | null = null;

  constructor(private readonly options: DispatcherOptions) {
    this.agents = new EndpointAgents(Math.max(1, options.config.concurrency));
    this.outcomes =
      (options.registry.getSingleMetric('billow_webhook_attempts_total') as Counter<'outcome'> | undefined) ??
      new Counter({
        name: 'billow_webhook_attempts_total',
        help: 'Webhook delivery attempts by outcome: succeeded, retrying (failed, to be tried again) or failed (for good)',
        labelNames: ['outcome'],
        registers: [options.registry],
      });
  }

  /** Listens for queued deliveries (when it can), then claims until stop(). */
  async start(): Promise<void> {
    // Any number of notifications during a claim make one claim after it (finishedSinceClaim).
    this.unlisten = (await this.options.listen?.(WEBHOOK_DELIVERIES_CHANNEL, () => this.slotFreed())) ?? null;
    this.loop = this.poll();
  }

  /** Claims nothing more and waits for the attempts in flight to be recorded. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.wakeUp.wake();
    await this.unlisten?.();
    await this.loop;
    await Promise.allSettled([...this.inFlight.keys()]);
    this.agents.destroy();
  }

  /** Every delivery due now, including retries that fall due meanwhile, until none is left (for tests and tools). */
  async runDue(): Promise<number> {
    let total = 0;
    for (;;) {
      // A request answered or an attempt recorded while the claim ran may have made more due
      // (a freed slot, the next event of an object): then claim again before waiting or ending.
      const before = this.progress;
      const claimed = await this.claim();
      total += claimed;
      if (claimed > 0 || this.progress !== before) continue;
      if (this.inFlight.size === 0) return total;
      await Promise.race(this.inFlight.keys());
    }
  }

  private async poll(): Promise<void> {
    while (!this.stopped) {
      let claimed = 0;
      this.finishedSinceClaim = false;
      try {
        claimed = await this.claim();
      } catch (err) {
        this.options.log.error({ err }, 'could not claim webhook deliveries');
      }
      if (claimed === 0 || this.freeSlots() === 0) await this.pause();
    }
  }

  /** Waits for the poll interval, or less: until an attempt in flight finishes, or stop(). */
  private pause(): Promise<void> {
    // A slot freed while the claim was running would otherwise wait for the next poll.
    if (this.finishedSinceClaim) return Promise.resolve();
    return this.wakeUp.sleep(this.options.config.pollIntervalMs, this.stopped);
  }

  /** Slots without a request, as long as no more than `concurrency` attempts wait to be recorded. */
  private freeSlots(): number {
    const { concurrency } = this.options.config;
    return Math.max(0, Math.min(concurrency - this.sending.size, 2 * concurrency - this.inFlight.size));
  }

  private slotFreed(): void {
    this.finishedSinceClaim = true;
    this.wakeUp.wake();
  }

  /**
   * A request is over (its slot is free), or its attempt recorded (a later event of its
   * object may be due now): worth a claim unless the last one found nothing beyond the
   * endpoints at their share and this endpoint still is.
   */
  private progressed(delivery: repo.ClaimedDelivery): void {
    let stillSending = 0;
    for (const endpointId of this.sending.values()) if (endpointId === delivery.endpoint_id) stillSending++;
    if (!this.onlySaturatedLeft || stillSending < this.perEndpoint()) this.slotFreed();
  }

  private async claim(): Promise<number> {
    const free = this.freeSlots();
    if (free <= 0 || this.stopped) return 0;
    const now = this.options.clock.now();
    const leaseUntil = new Date(now.getTime() + this.options.config.timeoutMs * 2 + 30_000);
    const saturated = this.saturatedEndpoints();
    const claimed = await repo.claimDueDeliveries(this.options.db, {
      now,
      leaseUntil,
      holder: leaseHolderOf(this.options.db),
      limit: free,
      perEndpoint: this.perEndpoint(),
      excludedEndpoints: saturated,
      organizations: this.options.organizations?.(),
    });
    this.onlySaturatedLeft = claimed.length === 0 && saturated.length > 0;
    for (const delivery of claimed) {
      this.sending.set(delivery.id, delivery.endpoint_id);
      const work = this.deliver(delivery).finally(() => {
        this.inFlight.delete(work);
        this.progress++;
        // Slots wait for records only when as many attempts as slots were waiting to be recorded.
        if (this.inFlight.size + 1 >= 2 * this.options.config.concurrency) this.slotFreed();
        else this.progressed(delivery);
      });
      this.inFlight.set(work, delivery.endpoint_id);
    }
    return claimed.length;
  }

  /** How many deliveries one endpoint may have in flight here. */
  private perEndpoint(): number {
    return Math.max(1, Math.floor(this.options.config.concurrency / ENDPOINT_SHARE));
  }

  private saturatedEndpoints(): string[] {
    const cap = this.perEndpoint();
    const counts = new Map<string, number>();
    for (const endpointId of this.sending.values()) counts.set(endpointId, (counts.get(endpointId) ?? 0) + 1);
    return [...counts].filter(([, n]) => n >= cap).map(([id]) => id);
  }

  private async deliver(delivery: repo.ClaimedDelivery): Promise<void> {
    try {
      let attempted: Awaited<ReturnType<WebhookDispatcher['attempt']>>;
      try {
        attempted = await this.attempt(delivery);
      } finally {
        this.sending.delete(delivery.id);
        this.progress++;
        this.progressed(delivery);
      }
      await this.record(delivery, attempted.headers, attempted.body, attempted.result);
    } catch (err) {
      // Not recorded: the lease runs out and the delivery is made again.
      const log = this.options.log.child({ delivery: delivery.id, event: delivery.event_id, endpoint: delivery.endpoint_id });
      log.error({ err }, 'could not record a webhook attempt; it will be made again');
    }
  }

  private async attempt(delivery: repo.ClaimedDelivery) {
    const { body } = delivery;
    const now = this.options.clock.now();
    let secrets: string[];
    try {
      secrets = await this.secretsOf(delivery, now);
    } catch (err) {
      const result: SendResult = { statusCode: null, ok: false, error: (err as Error).message, responseExcerpt: '', retryAfter: undefined, durationMs: 0 };
      return { headers: {}, body, result };
    }
    const headers = signedHeaders({
      eventId: delivery.event_id,
      timestamp: Math.floor(now.getTime() / 1000),
      body,
      secrets,
      standard: delivery.standard_signature,
    });
    const result = await sendDelivery({
      url: delivery.url,
      headers: { ...headers },
      body,
      timeoutMs: this.options.config.timeoutMs,
      rules: targetRules(delivery.environment_kind, this.options.config.sandboxPrivateTargets),
      agent: this.agents.for(delivery.endpoint_id, delivery.url),
    });
    return { headers: { ...headers } as Record<string, string>, body, result };
  }

  private async secretsOf(delivery: repo.ClaimedDelivery, now: Date): Promise<string[]> {
    const box = await this.options.secretBox();
    const secrets = [this.secrets.open(box, delivery.secret_sealed, delivery.endpoint_id)];
    const previousLive = delivery.previous_secret_sealed && delivery.previous_secret_expires_at && delivery.previous_secret_expires_at > now;
    if (previousLive) secrets.push(this.secrets.open(box, delivery.previous_secret_sealed!, delivery.endpoint_id));
    return secrets;
  }

  private async record(delivery: repo.ClaimedDelivery, headers: Record<string, string>, body: string, result: SendResult): Promise<void> {
    const { config, clock, db } = this.options;
    const at = clock.now();
    const row = attemptRow(delivery, headers, result, at);
    if (result.ok) {
      await this.recordSuccess(row);
      this.outcomes.inc({ outcome: 'succeeded' });
      return;
    }
    const next = nextAttemptAt(delivery.attempt_count + 1, config.retryScheduleMs, at, { retryAfterMs: retryAfterMs(result.retryAfter, at) });
    await inTransaction(db, async (tx) => {
      await repo.insertAttempt(tx, row);
      await repo.finishAttempt(tx, delivery.id, { success: false, nextAttemptAt: next, at });
      const endpoint = await repo.noteEndpointOutcome(tx, delivery.endpoint_id, false, at);
      if (!endpoint?.enabled) return;
      if (result.statusCode === 410) await disableEndpoint(tx, endpoint, 'the receiver answered 410 Gone', at);
      else if (shouldDisable(endpoint.consecutive_failures, endpoint.failing_since, at, { afterMs: config.disableAfterMs, minFailures: config.disableMinFailures })) {
        await disableEndpoint(tx, endpoint, `every attempt failed since ${endpoint.failing_since!.toISOString()} (${endpoint.consecutive_failures} in a row)`, at);
      }
    });
    this.outcomes.inc({ outcome: next ? 'retrying' : 'failed' });
  }

  /**
   * Successes are recorded together: those that finish while one statement is being
   * written go in the next, so a busy dispatcher writes one statement for many attempts
   * and an idle one waits for nobody.
   */
  private recordSuccess(row: AttemptRow): Promise<void> {
    return new Promise((resolve, reject) => {
      this.successes.push({ row, resolve, reject });
      if (!this.writingSuccesses) void this.writeSuccesses();
    });
  }

  private async writeSuccesses(): Promise<void> {
    this.writingSuccesses = true;
    try {
      while (this.successes.length > 0) {
        const batch = this.successes.splice(0, this.options.config.concurrency);
        try {
          await repo.recordSuccesses(this.options.db, batch.map((s) => s.row));
          for (const s of batch) s.resolve();
        } catch {
          // One bad row must not leave the others unrecorded: each alone.
          for (const s of batch) await repo.recordSuccesses(this.options.db, [s.row]).then(s.resolve, s.reject);
        }
      }
    } finally {
      this.writingSuccesses = false;
    }
  }
}

type AttemptRow = Insertable<WebhookAttemptsTable>;

/** The delivery-log row of one attempt. */
function attemptRow(delivery: repo.ClaimedDelivery, headers: Record<string, string>, result: SendResult, at: Date): AttemptRow {
  return {
    id: newId(),
    environment_id: delivery.environment_id,
    delivery_id: delivery.id,
    endpoint_id: delivery.endpoint_id,
    event_id: delivery.event_id,
    event_type: delivery.event_type,
    event_created_at: delivery.event_created_at,
    retry_count: delivery.attempt_count,
    url: delivery.url,
    request_headers: JSON.stringify(headers),
    status_code: result.statusCode,
    is_success: result.ok,
    error: result.error,
    response_excerpt: result.responseExcerpt,
    duration_ms: result.durationMs,
    attempted_at: at,
  };
}

/** Opened secrets kept at most, before the oldest are forgotten. */
const MAX_OPENED_SECRETS = 1000;

/**
 * Endpoint secrets opened once, not at every delivery: keyed by the sealed text, so a
 * rotated secret (a new sealed text) is opened anew and the old entry ages out.
 */
class OpenedSecrets {
  private readonly opened = new Map<string, string>();

  open(box: SecretBox, sealed: string, endpointId: string): string {
    const key = `${endpointId} ${sealed}`;
    let secret = this.opened.get(key);
    if (secret === undefined) {
      secret = box.open(sealed, endpointId);
      this.opened.set(key, secret);
      if (this.opened.size > MAX_OPENED_SECRETS) this.opened.delete(this.opened.keys().next().value as string);
    }
    return secret;
  }
}
