/**
 * Every change that can alter a customer's entitlement answer is announced here with
 * NOTIFY, and every server process LISTENs and drops what it has cached.
 *
 * Payloads: `<environmentId>:<customerId>` for one customer (the seller's customerId,
 * as requests carry it), `<environmentId>:*` for a whole environment (a plan published
 * with updateFeatures). A customer whose id is literally `*` is announced the same way,
 * so a change to that customer drops its whole environment: more than needed, never less.
 */
import type { DatabaseHandle, Db } from '../db/connect.js';
import { inTransaction, type Executor, type Tx } from '../db/transaction.js';
import type { RawBuilder } from 'kysely';
import { ENTITLEMENTS_CHANNEL, USAGE_CHANNEL, entitlementsChangedNotice, notifyEntitlementsChanged } from './repo.js';

export {
  ENTITLEMENTS_CHANNEL,
  USAGE_CHANNEL,
  entitlementsChangedNotice,
  usageChangedNotice,
  notifyEntitlementsChanged,
  notifyEntitlementsChangedForCustomerRows,
  notifyManyEntitlementsChanged,
  type SqlText,
} from './repo.js';

/** The customerId that stands for every customer of an environment. */
export const WHOLE_ENVIRONMENT = '*';

export type EntitlementChange =
  | { scope: 'customer'; environmentId: string; customerId: string }
  | { scope: 'environment'; environmentId: string }
  /** The listener reconnected (notifications may have been missed), or a payload it cannot read. */
  | { scope: 'everything' };

/** Announces a change to every customer of an environment. */
export function notifyEnvironmentEntitlementsChanged(tx: Executor, environmentId: string): Promise<void> {
  return notifyEntitlementsChanged(tx, environmentId, WHOLE_ENVIRONMENT);
}

/** Reads a notification; null (a reconnect) and anything unreadable mean "drop everything". */
export function parseEntitlementChange(payload: string | null): EntitlementChange {
  if (payload === null) return { scope: 'everything' };
  const colon = payload.indexOf(':');
  if (colon <= 0 || colon === payload.length - 1) return { scope: 'everything' };
  const environmentId = payload.slice(0, colon);
  const customerId = payload.slice(colon + 1);
  return customerId === WHOLE_ENVIRONMENT
    ? { scope: 'environment', environmentId }
    : { scope: 'customer', environmentId, customerId };
}

/** Both channels: every change; `[ENTITLEMENTS_CHANNEL]` alone: every change but those to usage alone. */
export interface FeedOptions {
  channels?: readonly string[];
}

/**
 * Calls `handler` for every entitlement change announced by any process on this database
 * (this one included), on the channels asked for (by default both). Returns the unsubscribe.
 */
export async function subscribeEntitlementChanges(
  database: Pick<DatabaseHandle, 'listen'>,
  handler: (change: EntitlementChange) => void,
  { channels = [ENTITLEMENTS_CHANNEL, USAGE_CHANNEL] }: FeedOptions = {},
): Promise<() => Promise<void>> {
  const stops: (() => Promise<void>)[] = [];
  try {
    for (const channel of channels) stops.push(await database.listen(channel, (payload) => handler(parseEntitlementChange(payload))));
  } catch (error) {
    await Promise.all(stops.map((stop) => stop()));
    throw error;
  }
  return async () => void (await Promise.all(stops.map((stop) => stop())));
}

/** What a change feed drives: the entitlement cache, or anything shaped like it. */
export interface EntitlementInvalidation {
  invalidateCustomer(environmentId: string, customerId: string): void;
  invalidateEnvironment(environmentId: string): void;
  clear(): void;
}

/** Applies one change to a cache. */
export function applyEntitlementChange(target: EntitlementInvalidation, change: EntitlementChange): void {
  if (change.scope === 'customer') target.invalidateCustomer(change.environmentId, change.customerId);
  else if (change.scope === 'environment') target.invalidateEnvironment(change.environmentId);
  else target.clear();
}

/** Keeps `target` in step with the feed (on the channels of `options`, by default both); returns the unsubscribe. */
export function feedEntitlementCache(
  database: Pick<DatabaseHandle, 'listen'>,
  target: EntitlementInvalidation,
  options: FeedOptions = {},
): Promise<() => Promise<void>> {
  return subscribeEntitlementChanges(database, (change) => applyEntitlementChange(target, change), options);
}

/** Announces, inside the transaction of `withEntitlementChanges`, that a customer (or `*`) changed. */
export type AnnounceEntitlementChange = (environmentId: string, customerId: string) => Promise<void>;

/**
 * Runs `work` in a transaction in which `changed(environmentId, customerId)` announces a
 * change to every process, and, once the transaction has committed, drops the entries
 * from `local` (this process's cache) at once: the next request of this process reads the
 * write even before its own notification comes back. Nothing is announced or dropped if
 * the transaction rolls back.
 */
export async function withEntitlementChanges<T>(
  db: Db,
  local: EntitlementInvalidation | null,
  work: (tx: Tx, changed: AnnounceEntitlementChange) => Promise<T>,
): Promise<T> {
  const changes: [string, string][] = [];
  const result = await inTransaction(db, (tx) =>
    work(tx, async (environmentId, customerId) => {
      await notifyEntitlementsChanged(tx, environmentId, customerId);
      changes.push([environmentId, customerId]);
    }),
  );
  if (local) {
    for (const [environmentId, customerId] of changes) {
      applyEntitlementChange(local, parseEntitlementChange(`${environmentId}:${customerId}`));
    }
  }
  return result;
}

/**
 * What services that change entitlements are given: announce inside the
 * transaction (every process hears it on commit), then forget locally right
 * after commit, so this process reads its own writes at once.
 */
export interface EntitlementChanges {
  announce(tx: Executor, environmentId: string, customerId: string): Promise<void>;
  /** The same announcement as an SQL expression, for a statement of the transaction to carry (one round trip fewer). */
  notice?(environmentId: string, customerId: string): RawBuilder<unknown>;
  announceEnvironment(tx: Executor, environmentId: string): Promise<void>;
  forget(environmentId: string, customerId: string): void;
  forgetEnvironment(environmentId: string): void;
}

export function entitlementChangesFor(...caches: EntitlementInvalidation[]): EntitlementChanges {
  const cache = caches.length === 1 ? caches[0]! : allOf(caches);
  return {
    announce: notifyEntitlementsChanged,
    notice: entitlementsChangedNotice,
    announceEnvironment: notifyEnvironmentEntitlementsChanged,
    forget: (environmentId, customerId) => applyEntitlementChange(cache, { scope: 'customer', environmentId, customerId }),
    forgetEnvironment: (environmentId) => applyEntitlementChange(cache, { scope: 'environment', environmentId }),
  };
}

/** Announces changes to every process's cache through the database, and keeps no cache of its own (background work). */
export function entitlementAnnouncer(): EntitlementChanges {
  return {
    announce: notifyEntitlementsChanged,
    notice: entitlementsChangedNotice,
    announceEnvironment: notifyEnvironmentEntitlementsChanged,
    forget: () => undefined,
    forgetEnvironment: () => undefined,
  };
}

/** One invalidation target that passes every invalidation on to each of `targets`. */
export function allOf(targets: readonly EntitlementInvalidation[]): EntitlementInvalidation {
  return {
    invalidateCustomer: (environmentId, customerId) => targets.forEach((t) => t.invalidateCustomer(environmentId, customerId)),
    invalidateEnvironment: (environmentId) => targets.forEach((t) => t.invalidateEnvironment(environmentId)),
    clear: () => targets.forEach((t) => t.clear()),
  };
}
