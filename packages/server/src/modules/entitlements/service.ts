/**
 * Entitlement checks: the Edge API's hot path. An answer is loaded with one
 * statement (the customer with its grants, and its recent usage counters), a
 * second only for RAW_EVENTS meters (the aggregates of their events), and
 * computed by compute.ts.
 *
 * Caching seam. `EntitlementService` takes an optional `EntitlementAnswerCache`
 * (get/set by `entitlementCacheKey(environmentId, customerId)`) holding a
 * customer's whole answer, `customerEntitlements(...)` computes it. The answer
 * says until when time alone leaves it right (`validUntil`: a period resets, a
 * subscription reaches its end date, by the injected clock); the service does
 * not serve it past that. Every other change must be invalidated by whoever
 * makes it:
 * - a usage report or a raw event of the customer (UsageService takes
 *   `announce`, run inside the transaction, and `afterCommit`);
 * - any change to the customer's subscriptions: creation, plan/period/
 *   quantity change (a new row supersedes the old), cancellation (an end date
 *   is set or the status becomes canceled), status changes (trialing → active,
 *   past_due, incomplete → active, expiry), renewal (current_period_* moves:
 *   PAY_AS_YOU_GO meters follow it);
 * - archiving the customer;
 * - publishing a plan version with updateFeatures (every subscriber of the
 *   plan: simplest, the whole environment).
 * Catalog edits touch only drafts, which grant nothing until published.
 */
import type { CheckEntitlementsResponse, EntitlementDetail } from '@billow/contract';
import type { Db } from '../../db/connect.js';
import type { Executor } from '../../db/transaction.js';
import { nowMs, type Clock } from '../../lib/clock.js';
import { customerNotFound } from '../customers/errors.js';
import { rawMeterOf } from './events.compute.js';
import { aggregateEvents, type AggregateRequest } from './repo.js';
import {
  computeEntitlements,
  meterTerms,
  type Grant,
  type GrantingSubscription,
  type PriceCharge,
  type UsageLookup,
} from './compute.js';
import { findCustomerState, findCustomerStates, type CounterRow, type CustomerState, type GrantRow } from './repo.js';
import { entitlementCacheKey } from '../../edge-cache/entitlement-cache.js';

export const usageKey = (subscriptionId: string, featureId: string, periodStart: Date) =>
  `${subscriptionId}|${featureId}|${periodStart.getTime()}`;

/** A period's counter of a meter, the subscription's own or taken from the record it replaced. */
export interface Counter {
  value: number;
  rollover: number;
  alertsSent: unknown[];
  /** False when it belongs to a predecessor (a plan change made the subscription a new row). */
  own: boolean;
}

/** What the database holds about a customer's entitlements, before any computation. */
export interface CustomerSnapshot {
  customerPk: string;
  archived: boolean;
  /** The granting subscriptions, oldest first, with what they grant. An archived customer has none. */
  subscriptions: GrantingSubscription[];
  /** The recent counters by usageKey, each subscription's own winning over its predecessors'. */
  counters: Map<string, Counter>;
  /** The customer's time: their test clock's (sandbox), else the time asked about. */
  at: Date;
  onTestClock: boolean;
}

function subscriptionsOf(rows: GrantRow[]): GrantingSubscription[] {
  const subscriptions = new Map<string, GrantingSubscription>();
  for (const row of rows) {
    if (!row.subscription_id || !row.start_date) continue;
    let subscription = subscriptions.get(row.subscription_id);
    if (!subscription) {
      subscription = {
        id: row.subscription_id,
        startDate: row.start_date,
        currentPeriodStart: row.current_period_start,
        currentPeriodEnd: row.current_period_end,
        endDate: row.end_date,
        quantities: {},
        charges: {},
        grants: [],
      };
      subscriptions.set(row.subscription_id, subscription);
    }
    if (!row.feature_id || !row.identifier || !row.feature_type) continue;
    if (typeof row.quantity === 'number') subscription.quantities[row.feature_id] = row.quantity;
    if (row.charge) subscription.charges[row.feature_id] = row.charge as PriceCharge;
    subscription.grants.push({
      featureId: row.feature_id,
      identifier: row.identifier,
      name: row.feature_name ?? row.identifier,
      featureType: row.feature_type,
      details: row.details ?? {},
      rawMeter: row.feature_type === 'METER' && row.raw_meter ? rawMeterOf(row.raw_meter) : null,
    });
  }
  return [...subscriptions.values()];
}

function countersOf(rows: CounterRow[]): Map<string, Counter> {
  const counters = new Map<string, Counter>();
  for (const row of rows) {
    const key = usageKey(row.sub_id, row.feature_id, row.period_start);
    // Rows come nearest first: a subscription's own counter wins over its predecessors'.
    if (!counters.has(key)) {
      counters.set(key, { value: row.value, rollover: row.rollover, alertsSent: row.alerts_sent, own: row.depth === 0 });
    }
  }
  return counters;
}

/**
 * The customer's granting subscriptions (only their grants of
 * `featureIdentifier` when given) and recent usage counters, read in one
 * statement; null for an unknown customer.
 */
export async function loadCustomer(
  db: Executor,
  environmentId: string,
  customerId: string,
  at: Date,
  featureIdentifier?: string,
): Promise<CustomerSnapshot | null> {
  return snapshotOf(await findCustomerState(db, environmentId, customerId, at, featureIdentifier), at);
}

/** `loadCustomer` for many (customer, feature) pairs, in one statement: one snapshot (or null) per pair, in order. */
export async function loadCustomers(
  db: Executor,
  environmentId: string,
  pairs: readonly { customerId: string; featureIdentifier: string }[],
  at: Date,
): Promise<(CustomerSnapshot | null)[]> {
  if (pairs.length === 0) return [];
  return (await findCustomerStates(db, environmentId, pairs, at)).map((state) => snapshotOf(state, at));
}

/** `loadCustomer` of every feature for many customers, in one statement: one snapshot (or null) per customer, in order. */
export async function loadCustomersFully(
  db: Executor,
  environmentId: string,
  customerIds: readonly string[],
  at: Date,
): Promise<(CustomerSnapshot | null)[]> {
  if (customerIds.length === 0) return [];
  const pairs = customerIds.map((customerId) => ({ customerId, featureIdentifier: null }));
  return (await findCustomerStates(db, environmentId, pairs, at)).map((state) => snapshotOf(state, at));
}

function snapshotOf({ grants: rows, counters: counterRows, testClockTime }: CustomerState, at: Date): CustomerSnapshot | null {
  const first = rows[0];
  if (!first) return null;
  const archived = first.customer_archived_at !== null;
  return {
    customerPk: first.customer_pk,
    archived,
    subscriptions: archived ? [] : subscriptionsOf(rows),
    counters: countersOf(counterRows),
    at: testClockTime ?? at,
    onTestClock: testClockTime !== null,
  };
}

/**
 * Which of the customer's subscriptions takes a feature's usage when several
 * grant it: the most recent one (the last granting subscription, by creation).
 * Reports add to its counter; a RAW_EVENTS meter's events count on its entry
 * (the other entries show none), so clients that sum the entries see each
 * unit once.
 */
export function usageOwner(snapshot: CustomerSnapshot, featureId: string): GrantingSubscription | undefined {
  return snapshot.subscriptions.findLast((subscription) => subscription.grants.some((grant) => grant.featureId === featureId));
}

/**
 * The usage of the customer's meters: the counters for reported usage, and
 * for RAW_EVENTS meters the aggregates of their events over the current and
 * previous periods (read only when there are such meters; their counters keep
 * only the rollover and the alerts sent). `only` narrows the meters whose
 * events are aggregated.
 */
export async function usageOf(
  db: Executor,
  environmentId: string,
  snapshot: CustomerSnapshot,
  at: Date,
  only: (subscription: GrantingSubscription, grant: Grant) => boolean = () => true,
): Promise<UsageLookup> {
  const rawKeys = new Set<string>();
  const requests: AggregateRequest[] = [];
  for (const subscription of snapshot.subscriptions) {
    for (const grant of subscription.grants) {
      if (!grant.rawMeter || !only(subscription, grant)) continue;
      const terms = meterTerms(subscription, grant, at);
      const owner = usageOwner(snapshot, grant.featureId) === subscription;
      for (const window of terms.previous ? [terms.window, terms.previous] : [terms.window]) {
        const key = usageKey(subscription.id, grant.featureId, window.start);
        rawKeys.add(key);
        if (owner) requests.push({ key, identifier: grant.identifier, meter: grant.rawMeter, start: window.start, end: window.end });
      }
    }
  }
  const aggregates = await aggregateEvents(db, environmentId, snapshot.customerPk, requests);
  return (subscriptionId, featureId, periodStart) => {
    const key = usageKey(subscriptionId, featureId, periodStart);
    const counter = snapshot.counters.get(key);
    if (rawKeys.has(key)) return { value: aggregates.get(key) ?? 0, ...(counter ? { rollover: counter.rollover } : {}) };
    return counter ? { value: counter.value, rollover: counter.rollover } : undefined;
  };
}

/** What a cache keeps per customer: the whole answer, and until when time alone leaves it right. */
export interface CachedEntitlements {
  customerId: string;
  entitlements: EntitlementDetail[];
  /** Epoch milliseconds from which the answer is stale by time alone (a period resets, a subscription ends); null: never. */
  validUntil: number | null;
}

/**
 * The cache an entitlement service may use (edge/entitlement-cache.ts fits; so
 * does a Map). After a miss of `get`, the service either `set`s the answer it
 * computed, with the instant it stops being valid by time alone, or — when
 * the customer is unknown or the load failed — `release`s the key.
 */
export interface EntitlementAnswerCache {
  get(key: string): CachedEntitlements | undefined;
  set(key: string, value: CachedEntitlements, options?: { validUntil?: number | null }): unknown;
  release?(key: string): void;
}

/** `<environmentId>:<customerId>`: environment ids are UUIDs, so the first colon ends them. */

/**
 * The customer's entitlement entries at `at` (all of them, or one feature's);
 * null for an unknown customer. An archived customer has none.
 */
export async function customerEntitlements(
  db: Executor,
  environmentId: string,
  customerId: string,
  at: Date,
  featureIdentifier?: string,
): Promise<CachedEntitlements | null> {
  const snapshot = await loadCustomer(db, environmentId, customerId, at, featureIdentifier);
  if (!snapshot) return null;
  const usage = await usageOf(db, environmentId, snapshot, snapshot.at);
  const answer = computeEntitlements({ subscriptions: snapshot.subscriptions, usage, at: snapshot.at, featureIdentifier });
  // A test clock's time moves only when it is advanced, and the advance announces it: until then the answer holds.
  return { customerId, ...answer, ...(snapshot.onTestClock ? { validUntil: null } : {}) };
}

/** The bodies served for a cached answer, kept as long as the answer is: by feature identifier, and WHOLE_ANSWER. */
const serializedAnswers = new WeakMap<CachedEntitlements, Map<string | symbol, string>>();
const WHOLE_ANSWER = Symbol('whole answer');

function entriesOf(answer: CachedEntitlements, featureIdentifier?: string): EntitlementDetail[] {
  return featureIdentifier === undefined ? answer.entitlements : answer.entitlements.filter((e) => e.featureId === featureIdentifier);
}

export class EntitlementService {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly cache: EntitlementAnswerCache | null = null,
  ) {}

  /** GET /entitlements: 404 for an unknown customer; an empty list for a feature the customer lacks. */
  async check(environmentId: string, customerId: string, featureIdentifier?: string): Promise<CheckEntitlementsResponse> {
    const at = this.clock.now();
    if (!this.cache) {
      // Without a cache, load only what is asked.
      const answer = await customerEntitlements(this.db, environmentId, customerId, at, featureIdentifier);
      if (!answer) throw customerNotFound(customerId);
      return { customerId, entitlements: answer.entitlements };
    }
    const answer = await this.cached(environmentId, customerId, at);
    return { customerId, entitlements: entriesOf(answer, featureIdentifier) };
  }

  /**
   * The same answer as `check`, as the JSON body of the response. A cached
   * answer keeps its bodies (the whole one, and one per feature asked for), so
   * the hot path of repeated checks serializes nothing; a fresh cached answer
   * is returned at once, without a promise (decision 0041).
   */
  checkBody(environmentId: string, customerId: string, featureIdentifier?: string): string | Promise<string> {
    if (!this.cache) return this.check(environmentId, customerId, featureIdentifier).then((answer) => JSON.stringify(answer));
    const at = this.clock.now();
    const key = entitlementCacheKey(environmentId, customerId);
    const hit = this.freshHit(key, at.getTime());
    if (hit) return bodyOf(hit, featureIdentifier);
    return this.load(key, environmentId, customerId, at).then((answer) => bodyOf(answer, featureIdentifier));
  }

  /** The body `checkBody` would give when the answer is cached and fresh; undefined otherwise (nothing is loaded). */
  cachedCheckBody(environmentId: string, customerId: string, featureIdentifier?: string): string | undefined {
    const hit = this.cache ? this.freshHit(entitlementCacheKey(environmentId, customerId), nowMs(this.clock)) : undefined;
    return hit ? bodyOf(hit, featureIdentifier) : undefined;
  }

  /** The cached answer at `key` while time alone leaves it right at `at`. */
  private freshHit(key: string, atMs: number): CachedEntitlements | undefined {
    const hit = this.cache!.get(key);
    return hit && (hit.validUntil === null || hit.validUntil > atMs) ? hit : undefined;
  }

  /** The customer's whole answer from the cache, or loaded and stored there. */
  private async cached(environmentId: string, customerId: string, at: Date): Promise<CachedEntitlements> {
    const key = entitlementCacheKey(environmentId, customerId);
    return this.freshHit(key, at.getTime()) ?? this.load(key, environmentId, customerId, at);
  }

  /** Computes the answer after a miss of the cache's `get(key)`, and stores it there. */
  private async load(key: string, environmentId: string, customerId: string, at: Date): Promise<CachedEntitlements> {
    const cache = this.cache!;
    let answer: CachedEntitlements | null;
    try {
      answer = await customerEntitlements(this.db, environmentId, customerId, at);
    } catch (error) {
      cache.release?.(key);
      throw error;
    }
    if (!answer) {
      cache.release?.(key);
      throw customerNotFound(customerId);
    }
    cache.set(key, answer, { validUntil: answer.validUntil });
    return answer;
  }
}

/** The body served for a cached answer: made once per answer and feature asked for, then kept with the answer. */
function bodyOf(answer: CachedEntitlements, featureIdentifier: string | undefined): string {
  let bodies = serializedAnswers.get(answer);
  if (!bodies) serializedAnswers.set(answer, (bodies = new Map()));
  const slot = featureIdentifier ?? WHOLE_ANSWER;
  let body = bodies.get(slot);
  if (!body) {
    body = JSON.stringify({ customerId: answer.customerId, entitlements: entriesOf(answer, featureIdentifier) });
    bodies.set(slot, body);
  }
  return body;
}
