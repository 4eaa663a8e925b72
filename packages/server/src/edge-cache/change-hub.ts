import type { EntitlementInvalidation } from './change-feed.js';

/** What a subscriber of one environment hears: a customer changed, every customer changed, or changes may have been missed. */
export type EnvironmentChange = { type: 'customer'; customerId: string } | { type: 'environment' } | { type: 'reset' };

type Listener = (change: EnvironmentChange) => void;

/**
 * Passes the change feed on to listeners of one environment each: the streams of
 * GET /entitlements/changes/, through which sellers' processes keep their own caches
 * honest. Fed like any cache (it is an EntitlementInvalidation); keeps nothing itself.
 */
export class EntitlementChangeHub implements EntitlementInvalidation {
  private readonly listeners = new Map<string, Set<Listener>>();

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

  /** Streams open for one environment. */
  countOf(environmentId: string): number {
    return this.listeners.get(environmentId)?.size ?? 0;
  }

  get size(): number {
    let count = 0;
    for (const set of this.listeners.values()) count += set.size;
    return count;
  }

  invalidateCustomer(environmentId: string, customerId: string): void {
    this.emit(environmentId, { type: 'customer', customerId });
  }

  invalidateEnvironment(environmentId: string): void {
    this.emit(environmentId, { type: 'environment' });
  }

  clear(): void {
    for (const environmentId of this.listeners.keys()) this.emit(environmentId, { type: 'reset' });
  }

  private emit(environmentId: string, change: EnvironmentChange): void {
    for (const listener of this.listeners.get(environmentId) ?? []) listener(change);
  }
}
