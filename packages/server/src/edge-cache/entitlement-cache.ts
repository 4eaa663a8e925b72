import { performance } from 'node:perf_hooks';
import { Counter, Gauge, type Registry } from 'prom-client';
import type { Clock } from '../lib/clock.js';
import type { EntitlementInvalidation } from './change-feed.js';

/**
 * The per-process cache of entitlement answers (ARCHITECTURE.md §8), one entry per
 * (environment, customer). It is kept fresh by invalidation, not by expiry:
 *
 * - the change feed (LISTEN on `billow_entitlements`) drops a customer, an environment,
 *   or everything after a reconnect, for changes made by any process;
 * - the process that makes a change drops its own entry right after its commit, so that
 *   its next request reads its own write;
 * - an entry may say until when it is valid on the business clock (the next period reset,
 *   `resetAt`), and is not served past it, on the system clock or a test clock alike;
 * - a TTL (60 s by default) bounds the damage should a notification ever be lost;
 * - at most `maxEntries` (50,000 by default) are kept, the least recently used go first.
 *
 * A value computed while an invalidation of its customer arrives is not stored: `set`
 * stores only what was computed after a miss of `get` with no invalidation of that
 * entry since. `getOrLoad` wraps the pattern, and lets concurrent misses share one load.
 */
export interface EntitlementCacheOptions {
  /** Most entries kept; 0 disables the cache. */
  maxEntries?: number;
  /** How long an entry may be served at most, in milliseconds; 0 disables the cache. */
  ttlMs?: number;
  /** The business clock, against which `validUntil` is checked. */
  clock?: Clock;
  /** Monotonic milliseconds for the TTL (tests replace it). */
  now?: () => number;
}

export interface SetOptions {
  /**
   * Do not serve the value at or after this instant of the business clock (a Date, or
   * milliseconds since the epoch): the next period reset, or the end of a subscription.
   */
  validUntil?: Date | number | null;
}

export interface EntitlementCacheStats {
  size: number;
  hits: number;
  misses: number;
  /** Values not stored because their entry was invalidated while they were computed. */
  discarded: number;
  invalidations: number;
}

interface Entry<V> {
  value: V;
  environmentId: string;
  environmentGeneration: number;
  expiresAt: number;
  validUntil: number | null;
  /** The value of `uses` when the entry last moved to the most recently used end. */
  movedAt: number;
}

/**
 * The computations of one key that started after a miss and have not stored their value
 * yet. If an invalidation reaches the key while any is outstanding, none of them may
 * store (the cache cannot tell which started before the change): the round is dirty
 * until the last one is done, and the next miss starts a clean round.
 */
interface Round {
  outstanding: number;
  dirty: boolean;
  environmentGeneration: number;
  startedAt: number;
}

export const DEFAULT_MAX_ENTRIES = 50_000;
export const DEFAULT_TTL_MS = 60_000;

/** The cache key of a customer: `<environmentId>:<customerId>` (the change feed's payload). */
export function entitlementCacheKey(environmentId: string, customerId: string): string {
  return `${environmentId}:${customerId}`;
}

/** The environment of a key: environment ids are UUIDs, so the first colon ends it. */
function environmentOfKey(key: string): string {
  const colon = key.indexOf(':');
  return colon < 0 ? key : key.slice(0, colon);
}

export class EntitlementCache<V = unknown> implements EntitlementInvalidation {
  private readonly entries = new Map<string, Entry<V>>();
  private readonly rounds = new Map<string, Round>();
  /** Hits and stores so far: the clock of the approximate LRU order. */
  private uses = 0;
  private readonly loading = new Map<string, Promise<V>>();
  /** Bumped to invalidate every entry of an environment at once, without walking them. */
  private readonly environmentGenerations = new Map<string, number>();
  private readonly maxEntries: number;
  private readonly ttlMs: number;
  private readonly clock: Clock | null;
  private readonly now: () => number;
  private counts = { hits: 0, misses: 0, discarded: 0, invalidations: 0 };

  constructor(options: EntitlementCacheOptions = {}) {
    this.maxEntries = options.maxEntries ?? DEFAULT_MAX_ENTRIES;
    this.ttlMs = options.ttlMs ?? DEFAULT_TTL_MS;
    this.clock = options.clock ?? null;
    this.now = options.now ?? (() => performance.now());
  }

  get enabled(): boolean {
    return this.maxEntries > 0 && this.ttlMs > 0;
  }

  /**
   * The cached value, or undefined. A miss counts as the start of a computation of the
   * key: follow it with `set` (or `release` if the computation fails).
   */
  get(key: string): V | undefined {
    const hit = this.lookup(key);
    if (hit !== undefined) return hit;
    this.begin(key);
    return undefined;
  }

  /**
   * Stores a value computed after a miss of `get(key)`. Returns false, and stores
   * nothing, when the key was invalidated since the computation may have started (the
   * value may be stale), or when no computation of the key was started.
   */
  set(key: string, value: V, options: SetOptions = {}): boolean {
    const round = this.end(key);
    if (!this.enabled || !round) return false;
    if (round.dirty || round.environmentGeneration !== this.generationOf(environmentOfKey(key))) {
      this.counts.discarded++;
      return false;
    }
    const validUntil = options.validUntil == null ? null : Number(options.validUntil);
    if (validUntil !== null && this.clock && this.clock.now().getTime() >= validUntil) return false;
    this.entries.delete(key);
    this.entries.set(key, {
      value,
      environmentId: environmentOfKey(key),
      environmentGeneration: round.environmentGeneration,
      expiresAt: this.now() + this.ttlMs,
      validUntil,
      movedAt: ++this.uses,
    });
    while (this.entries.size > this.maxEntries) {
      const oldest = this.entries.keys().next().value;
      if (oldest === undefined) break;
      this.entries.delete(oldest);
    }
    return true;
  }

  /** The value `get` would return, without counting, reordering or starting a computation. */
  peek(key: string): V | undefined {
    const entry = this.entries.get(key);
    return entry && this.isFresh(entry) ? entry.value : undefined;
  }

  /** Ends a computation started by a miss without storing anything (it failed). */
  release(key: string): void {
    this.end(key);
  }

  /**
   * The cached value, or the value of `load()`, stored as `set` would. Concurrent
   * callers of one key share one load, unless an invalidation comes between them.
   */
  getOrLoad(key: string, load: () => Promise<V>, options?: (value: V) => SetOptions): Promise<V> {
    const hit = this.lookup(key);
    if (hit !== undefined) return Promise.resolve(hit);
    const inFlight = this.loading.get(key);
    if (inFlight) return inFlight;
    this.begin(key);
    const loaded = load().then(
      (value) => {
        if (this.loading.get(key) === loaded) this.loading.delete(key);
        this.set(key, value, options?.(value));
        return value;
      },
      (error: unknown) => {
        if (this.loading.get(key) === loaded) this.loading.delete(key);
        this.release(key);
        throw error;
      },
    );
    this.loading.set(key, loaded);
    return loaded;
  }

  invalidateCustomer(environmentId: string, customerId: string): void {
    const key = entitlementCacheKey(environmentId, customerId);
    this.counts.invalidations++;
    this.entries.delete(key);
    this.loading.delete(key);
    const round = this.rounds.get(key);
    if (round) round.dirty = true;
  }

  invalidateEnvironment(environmentId: string): void {
    if (this.environmentGenerations.size >= this.maxEntries && !this.environmentGenerations.has(environmentId)) {
      // Generations of that many environments: forget them all, with everything they guard.
      this.clear();
      return;
    }
    this.counts.invalidations++;
    // Entries and rounds remember the generation they started in, and no longer match.
    this.environmentGenerations.set(environmentId, this.generationOf(environmentId) + 1);
    const prefix = `${environmentId}:`;
    for (const key of this.loading.keys()) if (key.startsWith(prefix)) this.loading.delete(key);
  }

  /** Drops everything: after a reconnect of the change feed, when notifications may have been missed. */
  clear(): void {
    this.counts.invalidations++;
    this.entries.clear();
    this.loading.clear();
    for (const round of this.rounds.values()) round.dirty = true;
    // Safe to forget: every entry is gone and every round still outstanding is dirty.
    this.environmentGenerations.clear();
  }

  get size(): number {
    return this.entries.size;
  }

  stats(): EntitlementCacheStats {
    return { size: this.entries.size, ...this.counts };
  }

  /** Exposes the cache's figures at /metrics. */
  registerMetrics(registry: Registry): void {
    const stats = () => this.stats();
    new Gauge({
      name: 'billow_entitlement_cache_entries',
      help: 'Entitlement answers held in this process',
      registers: [registry],
      collect() {
        this.set(stats().size);
      },
    });
    const counters = [
      ['billow_entitlement_cache_hits_total', 'hits', 'Entitlement checks answered from the cache'],
      ['billow_entitlement_cache_misses_total', 'misses', 'Entitlement checks that computed the answer'],
      ['billow_entitlement_cache_discarded_total', 'discarded', 'Answers not cached because their customer changed meanwhile'],
      ['billow_entitlement_cache_invalidations_total', 'invalidations', 'Invalidations applied to the entitlement cache'],
    ] as const;
    for (const [name, field, help] of counters) {
      let reported = 0;
      new Counter({
        name,
        help,
        registers: [registry],
        collect() {
          const value = stats()[field];
          this.inc(value - reported);
          reported = value;
        },
      });
    }
  }

  /** A fresh entry's value (marked most recently used), or undefined. */
  private lookup(key: string): V | undefined {
    const entry = this.entries.get(key);
    if (entry) {
      if (this.isFresh(entry)) {
        // Most recently used last (a Map keeps insertion order). An entry moved within the last
        // quarter of the capacity's worth of uses stays where it is: eviction order is near
        // enough, for far fewer moves (none while the cache is far from full and evicts nothing).
        this.uses++;
        if (this.uses - entry.movedAt > this.maxEntries / 4) {
          entry.movedAt = this.uses;
          this.entries.delete(key);
          this.entries.set(key, entry);
        }
        this.counts.hits++;
        return entry.value;
      }
      this.entries.delete(key);
    }
    this.counts.misses++;
    return undefined;
  }

  private begin(key: string): void {
    if (!this.enabled) return;
    const now = this.now();
    const round = this.rounds.get(key);
    // A round older than the TTL lost its computations (they failed without `release`): start over.
    if (round && now - round.startedAt < this.ttlMs) {
      round.outstanding++;
      return;
    }
    if (this.rounds.size >= this.maxEntries) this.sweepRounds(now);
    this.rounds.set(key, {
      outstanding: 1,
      dirty: false,
      environmentGeneration: this.generationOf(environmentOfKey(key)),
      startedAt: now,
    });
  }

  private end(key: string): Round | null {
    const round = this.rounds.get(key);
    if (!round) return null;
    if (--round.outstanding <= 0) this.rounds.delete(key);
    return round;
  }

  private sweepRounds(now: number): void {
    for (const [key, round] of this.rounds) if (now - round.startedAt >= this.ttlMs) this.rounds.delete(key);
    if (this.rounds.size >= this.maxEntries) {
      // Computations of that many keys at once: let none of them store.
      for (const round of this.rounds.values()) round.dirty = true;
    }
  }

  private generationOf(environmentId: string): number {
    return this.environmentGenerations.get(environmentId) ?? 0;
  }

  private isFresh(entry: Entry<V>): boolean {
    if (entry.expiresAt <= this.now()) return false;
    if (entry.environmentGeneration !== this.generationOf(entry.environmentId)) return false;
    if (entry.validUntil !== null && this.clock && this.clock.now().getTime() >= entry.validUntil) return false;
    return true;
  }
}
