import { randomUUID } from 'node:crypto';
import type { EntitlementInvalidation } from './change-feed.js';

/** What a subscriber of one environment hears: a customer changed, every customer changed, or changes may have been missed. */
export type EnvironmentChange = { type: 'customer'; customerId: string } | { type: 'environment' } | { type: 'reset' };

/** A change with its id in this process's sequence (`<process>.<n>`), which a stream resumes after. */
export interface NumberedChange {
  id: string;
  change: EnvironmentChange;
}

type Listener = (change: NumberedChange) => void;

interface Kept {
  /** null: every environment (a reset). */
  environmentId: string | null;
  change: EnvironmentChange;
}

/** How many recent changes are kept for streams that reconnect (`Last-Event-ID`). */
const KEPT_CHANGES = 10_000;

/**
 * Passes the change feed on to listeners of one environment each: the streams of
 * GET /entitlements/changes/, through which sellers' processes keep their own caches
 * honest. Fed like any cache (it is an EntitlementInvalidation). Keeps the last changes
 * numbered, so that a stream that reconnects to this process gets what it missed.
 */
export class EntitlementChangeHub implements EntitlementInvalidation {
  private readonly listeners = new Map<string, Set<Listener>>();
  /** Names this process's sequence: an id of another process (or of before a restart) cannot be resumed here. */
  private readonly process = randomUUID().slice(0, 8);
  /** The last KEPT_CHANGES changes, change n at n % KEPT_CHANGES. */
  private readonly kept: (Kept | undefined)[] = new Array<Kept | undefined>(KEPT_CHANGES);
  private seq = 0;

  /** Calls `listener` for every change of `environmentId`; returns the unsubscribe. */
  subscribe(environmentId: string, listener: Listener): () => void {
    let set = this.listeners.get(environmentId);
    if (!set) this.listeners.set(environmentId, (set = new Set()));
    set.add(listener);
    return () => {
      set.delete(listener);
      if (set.size === 0 && this.listeners.get(environmentId) === set) this.listeners.delete(environmentId);
    };
  }

  /** The id a stream that starts now resumes from. */
  get lastId(): string {
    return `${this.process}.${this.seq}`;
  }

  /**
   * The changes of `environmentId` after the one `lastId` names, or null when they cannot be
   * told: an id of another process, or older than what is kept.
   */
  since(environmentId: string, lastId: string): NumberedChange[] | null {
    const [process, number] = lastId.split('.');
    const after = Number(number);
    if (process !== this.process || !Number.isInteger(after) || after > this.seq || after < this.seq - KEPT_CHANGES) return null;
    const missed: NumberedChange[] = [];
    for (let seq = after + 1; seq <= this.seq; seq++) {
      const kept = this.kept[seq % KEPT_CHANGES]!;
      if (kept.environmentId === null || kept.environmentId === environmentId) missed.push({ id: `${this.process}.${seq}`, change: kept.change });
    }
    return missed;
  }

  /** Streams open for one environment. */
  countOf(environmentId: string): number {
    return this.listeners.get(environmentId)?.size ?? 0;
  }

  invalidateCustomer(environmentId: string, customerId: string): void {
    this.emit(environmentId, { type: 'customer', customerId });
  }

  invalidateEnvironment(environmentId: string): void {
    this.emit(environmentId, { type: 'environment' });
  }

  clear(): void {
    const numbered = this.keep(null, { type: 'reset' });
    for (const set of this.listeners.values()) for (const listener of set) listener(numbered);
  }

  private keep(environmentId: string | null, change: EnvironmentChange): NumberedChange {
    this.seq += 1;
    this.kept[this.seq % KEPT_CHANGES] = { environmentId, change };
    return { id: `${this.process}.${this.seq}`, change };
  }

  private emit(environmentId: string, change: EnvironmentChange): void {
    const numbered = this.keep(environmentId, change);
    for (const listener of this.listeners.get(environmentId) ?? []) listener(numbered);
  }
}
