import type { CheckEntitlementsResponse, EntitlementChangeEvent, EntitlementDetail } from '@billow/contract';
import { LRUCache } from 'lru-cache';
import { BillowAuthenticationError, BillowConnectionError, BillowPermissionError, BillowRateLimitError, BillowServerError } from './errors.js';
import type { EventStream } from './event-stream.js';
import type { HttpRequest, RequestOptions, Transport } from './http.js';
import { usageReportsOf, withUsage } from './local-usage.js';

export interface EntitlementCacheOptions {
  /** How long an answer is served after Billow last confirmed it, without asking again; 60 seconds by default: the staleness bound while the stream is down. */
  ttlMs?: number;
  /** How long past its TTL an answer may still be served while Billow cannot be reached; 5 minutes by default, 0 for never. */
  staleIfErrorMs?: number;
  /** Most customers kept, the least recently used go first; 10,000 by default. */
  maxEntries?: number;
  /**
   * Follow GET /entitlements/changes/ (a server key's stream), which brings a customer's new answer as soon
   * as Billow changes it; true by default. While it is live, answers are kept without a TTL (until a usage
   * period resets); without it, or while it is down, an answer is served at most `ttlMs` after Billow last
   * confirmed it (its fetch, or the last sign of life of the stream), then asked for again over HTTP.
   */
  followChanges?: boolean;
  /** Told when the change stream fails (it reconnects by itself, after dropping every answer). */
  onFeedError?: (error: unknown) => void;
  /** Milliseconds now (tests replace it). */
  now?: () => number;
}

export interface EntitlementCacheStats {
  size: number;
  hits: number;
  misses: number;
  /** Answers served past their TTL because Billow could not be reached. */
  staleServed: number;
  invalidations: number;
  /** Answers replaced by the ones the change stream carries. */
  streamed: number;
  /** True while the change stream is open. */
  following: boolean;
}

/** What the cache needs of the client: the check and the change stream. */
export interface EntitlementSource {
  check(query: { customer_id: string }, options?: RequestOptions): Promise<CheckEntitlementsResponse>;
  changes(options?: RequestOptions): Promise<EventStream<EntitlementChangeEvent>>;
}

interface Entry {
  answer: CheckEntitlementsResponse;
  /** When Billow gave this answer (over HTTP or the stream). */
  fetchedAt: number;
  /** Never served as fresh past this (the next reset of a meter's usage); -Infinity once dropped (kept for stale-on-error only). */
  freshUntil: number;
  /** The number of the load that brought it (loads are numbered as they start); a streamed answer takes the last number. */
  loadNumber: number;
}

interface Load {
  promise: Promise<CheckEntitlementsResponse>;
  /** Set when the customer changed while the load ran: its answer is not kept. */
  stale: boolean;
  number: number;
}

const MAX_FEED_BACKOFF_MS = 30_000;
/** Billow sends a comment every 15 seconds: a stream silent for longer than this is taken for broken, and opened again. */
const SILENT_STREAM_MS = 40_000;

/** Usage periods reset at `resetAt` (UTC, `yyyy-MM-dd HH:mm:ss`): an answer is not served past the first. */
function firstResetOf(answer: CheckEntitlementsResponse): number {
  let first = Infinity;
  for (const entry of answer.entitlements) {
    if (!entry.resetAt) continue;
    const at = Date.parse(`${entry.resetAt.replace(' ', 'T')}Z`);
    if (Number.isFinite(at)) first = Math.min(first, at);
  }
  return first;
}

/** Only an answer Billow could not give (network, 429, 5xx) falls back to a stale one; a 4xx is the answer. */
const transient = (error: unknown): boolean =>
  error instanceof BillowConnectionError || error instanceof BillowServerError || error instanceof BillowRateLimitError;

/** Names of the customers a successful write may have changed: those its body names (usage reports apart, applied as they are sent). */
function customersOf(request: HttpRequest): string[] {
  if (usageReportsOf(request).length > 0) return [];
  const body = request.body as { customerId?: unknown; reports?: unknown } | undefined;
  if (!body || typeof body !== 'object') return [];
  const named = typeof body.customerId === 'string' ? [body.customerId] : [];
  // POST /report/usage/batch/ names its customers in `reports`.
  const reports = Array.isArray(body.reports) ? body.reports : [];
  for (const report of reports) if (typeof report?.customerId === 'string') named.push(report.customerId);
  return named;
}

/**
 * Entitlement answers kept in this process, one per customer, fed by Billow's change stream
 * (each change carries the customer's new answer), so that a check is a read of memory:
 * `hasAccessNow` answers synchronously. Usage this process reports moves its answer at once;
 * the stream's next answer wins. While the stream is down, answers live `ttlMs` past Billow's
 * last word and are then asked for over HTTP; stale answers are served while Billow cannot be
 * reached. Checks of many features of one customer cost one request.
 */
export class EntitlementCache {
  private readonly entries: LRUCache<string, Entry>;
  private readonly loads = new Map<string, Load>();
  private readonly ttlMs: number;
  private readonly staleIfErrorMs: number;
  private readonly now: () => number;
  private readonly counts = { hits: 0, misses: 0, staleServed: 0, invalidations: 0, streamed: 0 };
  private readonly stop = new AbortController();
  private feed: Promise<void> | null = null;
  private following = false;
  /** When the live stream was last heard (an event or its heartbeat): every answer is confirmed up to then. */
  private heardAt = -Infinity;
  /** Loads started so far: a stream that opens after load n hears every change that load may have missed. */
  private loadsStarted = 0;
  private readonly unhook: () => void;

  constructor(
    private readonly source: EntitlementSource,
    transport: Transport,
    private readonly options: EntitlementCacheOptions = {},
  ) {
    this.ttlMs = options.ttlMs ?? 60_000;
    this.staleIfErrorMs = options.staleIfErrorMs ?? 300_000;
    this.now = options.now ?? Date.now;
    this.entries = new LRUCache({ max: Math.max(1, options.maxEntries ?? 10_000) });
    const onWrite = (request: HttpRequest) => customersOf(request).forEach((customerId) => this.invalidate(customerId));
    const onSend = (request: HttpRequest) => this.applyOwnUsage(request);
    transport.writes.add(onWrite);
    transport.sends.add(onSend);
    this.unhook = () => {
      transport.writes.delete(onWrite);
      transport.sends.delete(onSend);
    };
  }

  /** Every entitlement of the customer, as GET /entitlements/ answers it. */
  async check(customerId: string): Promise<CheckEntitlementsResponse> {
    const entry = this.entries.get(customerId);
    if (entry && this.fresh(entry, this.now())) {
      this.counts.hits++;
      return entry.answer;
    }
    this.counts.misses++;
    try {
      return await this.load(customerId);
    } catch (error) {
      if (entry && transient(error) && this.now() < this.confirmedAt(entry) + this.ttlMs + this.staleIfErrorMs) {
        this.counts.staleServed++;
        return entry.answer;
      }
      throw error;
    }
  }

  /**
   * The customer's answer if this process holds a fresh one, else undefined (then `check` asks
   * Billow): a read of memory, for paths that may not wait.
   */
  peek(customerId: string): CheckEntitlementsResponse | undefined {
    if (this.feed === null) this.startFeed();
    const entry = this.entries.get(customerId);
    return entry && this.fresh(entry, this.now()) ? entry.answer : undefined;
  }

  /** Whether any of the customer's entries of the feature grants access, from memory; undefined when no fresh answer is held. */
  hasAccessNow(customerId: string, featureId: string): boolean | undefined {
    const answer = this.peek(customerId);
    if (!answer) return undefined;
    for (const entry of answer.entitlements) if (entry.featureId === featureId && entry.hasAccess) return true;
    return false;
  }

  /** The customer's entries of one feature (a feature granted by two subscriptions has two). */
  async entitlements(customerId: string, featureId: string): Promise<EntitlementDetail[]> {
    return (await this.check(customerId)).entitlements.filter((entry) => entry.featureId === featureId);
  }

  /** Whether any of the customer's entries of the feature grants access. */
  async hasAccess(customerId: string, featureId: string): Promise<boolean> {
    return (await this.entitlements(customerId, featureId)).some((entry) => entry.hasAccess);
  }

  /** Asks Billow again on the customer's next check (an answer kept for fallback is never served as fresh again). */
  invalidate(customerId: string): void {
    this.counts.invalidations++;
    const entry = this.entries.get(customerId);
    if (entry) entry.freshUntil = -Infinity;
    this.dropLoad(customerId);
  }

  invalidateAll(): void {
    this.counts.invalidations++;
    for (const entry of this.entries.values()) entry.freshUntil = -Infinity;
    for (const load of this.loads.values()) load.stale = true;
    this.loads.clear();
  }

  stats(): EntitlementCacheStats {
    return { size: this.entries.size, ...this.counts, following: this.following };
  }

  /** Ends the change stream; checks still work, as fresh as the TTL. */
  close(): void {
    this.stop.abort();
    this.unhook();
  }

  /** Served as fresh: before the next usage reset, and within the TTL of Billow's last word on it. */
  private fresh(entry: Entry, now: number): boolean {
    return now < entry.freshUntil && now < this.confirmedAt(entry) + this.ttlMs;
  }

  private confirmedAt(entry: Entry): number {
    return Math.max(entry.fetchedAt, this.heardAt);
  }

  private startFeed(): void {
    this.feed = this.options.followChanges === false ? Promise.resolve() : this.follow();
  }

  private store(answer: CheckEntitlementsResponse, loadNumber = this.loadsStarted): void {
    this.entries.set(answer.customerId, { answer, fetchedAt: this.now(), freshUntil: firstResetOf(answer), loadNumber });
  }

  /** Drops what loads up to `loadNumber` brought, or will bring: a stream that cannot resume opened after them. */
  private invalidateUpTo(loadNumber: number): void {
    this.counts.invalidations++;
    for (const entry of this.entries.values()) if (entry.loadNumber <= loadNumber) entry.freshUntil = -Infinity;
    for (const [customerId, load] of this.loads) {
      if (load.number > loadNumber) continue;
      load.stale = true;
      this.loads.delete(customerId);
    }
  }

  /** A load that ran while the customer changed may bring the older answer: it is not kept. */
  private dropLoad(customerId: string): void {
    const load = this.loads.get(customerId);
    if (load) {
      load.stale = true;
      this.loads.delete(customerId);
    }
  }

  private load(customerId: string): Promise<CheckEntitlementsResponse> {
    if (this.feed === null) this.startFeed();
    const running = this.loads.get(customerId);
    if (running) return running.promise;
    const load: Load = { promise: this.source.check({ customer_id: customerId }), stale: false, number: ++this.loadsStarted };
    this.loads.set(customerId, load);
    load.promise.then(
      (answer) => {
        if (this.loads.get(customerId) === load) this.loads.delete(customerId);
        if (!load.stale) this.store(answer, load.number);
      },
      () => {
        if (this.loads.get(customerId) === load) this.loads.delete(customerId);
      },
    );
    return load.promise;
  }

  /** Usage this process sends moves the held answer at once (Billow's next answer replaces it); a report that fails drops it. */
  private applyOwnUsage(request: HttpRequest): ((failure: unknown) => void) | void {
    const reports = usageReportsOf(request);
    if (reports.length === 0) return;
    for (const report of reports) {
      const entry = this.entries.get(report.customerId);
      if (entry && entry.freshUntil > -Infinity) entry.answer = withUsage(entry.answer, report);
      this.dropLoad(report.customerId);
    }
    return () => reports.forEach((report) => this.invalidate(report.customerId));
  }

  /** `openedAfter`: the loads started before this stream was open (on a `ready` that did not resume, only they are dropped). */
  private apply(event: EntitlementChangeEvent, openedAfter: number): void {
    if (event.type === 'snapshot' || (event.type === 'customer' && event.entitlements)) {
      this.counts.streamed++;
      this.dropLoad(event.customerId);
      this.store({ customerId: event.customerId, entitlements: event.entitlements! });
    } else if (event.type === 'customer') this.invalidate(event.customerId);
    else if (event.type === 'ready' && !event.resumed) this.invalidateUpTo(openedAfter);
    else if (event.type !== 'ready') this.invalidateAll();
    if (event.type === 'ready') this.following = true;
  }

  /**
   * Reads the change stream for as long as the cache lives, reconnecting with backoff. While
   * it is down, answers live by their TTL; back, it resumes after the last change it read
   * (the changes missed are replayed), or, when Billow cannot tell them, drops every answer.
   */
  private async follow(): Promise<void> {
    let lastEventId: string | null = null;
    for (let failures = 0; !this.stop.signal.aborted; failures++) {
      const connection = new AbortController();
      const watchdog = setInterval(() => {
        if (this.following && this.now() - this.heardAt > SILENT_STREAM_MS) connection.abort();
      }, 5_000);
      watchdog.unref?.();
      try {
        const headers: Record<string, string> = lastEventId ? { 'last-event-id': lastEventId } : {};
        const stream = await this.source.changes({ signal: AbortSignal.any([this.stop.signal, connection.signal]), headers });
        const openedAfter = this.loadsStarted;
        stream.onHeartbeat = () => {
          if (this.following) this.heardAt = this.now();
        };
        for await (const event of stream) {
          failures = 0;
          lastEventId = stream.lastEventId;
          this.apply(event, openedAfter);
          if (this.following) this.heardAt = this.now();
        }
      } catch (error) {
        if (this.stop.signal.aborted) return;
        this.options.onFeedError?.(error);
        // A key that may not read the stream never will: checks go on, as fresh as the TTL.
        if (error instanceof BillowAuthenticationError || error instanceof BillowPermissionError) return;
      } finally {
        clearInterval(watchdog);
        this.following = false;
      }
      await abortableSleep(Math.min(MAX_FEED_BACKOFF_MS, 500 * 2 ** failures), this.stop.signal);
    }
  }
}

function abortableSleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    timer.unref?.();
    signal.addEventListener('abort', () => {
      clearTimeout(timer);
      resolve();
    }, { once: true });
  });
}
