/**
 * Where a customer's DELTA reports of each meter go, kept per process (decision
 * 0043): the counter (subscription, feature, period) and what a new counter
 * starts with. Every report used to read the customer's state first (one call
 * of billow_customer_state, about 65 µs of PostgreSQL's CPU); a route read once
 * serves every report until something other than usage changes.
 *
 * A route changes only when the customer's subscriptions, plans, features or
 * archival change (each announced on the entitlements channel, and dropped
 * locally right after its commit by `entitlementChangesFor`), or when time
 * reaches a period's end or a subscription's end (`validUntil`). Usage itself
 * does not move a route: reports, events and alerts are announced on the usage
 * channel, which this cache does not follow. So the cache is fed by the
 * entitlements channel alone, and is an `EntitlementCache` for the rest (a value
 * computed while its customer changed is not stored; TTL; LRU).
 *
 * Only routes whose reports need nothing but an addition are kept: a DELTA on a
 * pre-aggregated meter without usage alerts, whose period counter needs nothing
 * carried over from a replaced subscription (`planReport`'s `batchable`).
 * Customers on a test clock, unknown or archived customers get no route: their
 * reports take the full path, which reads the state and answers each case.
 */
import type { Clock } from '../../lib/clock.js';
import type { Db } from '../../db/connect.js';
import { EntitlementCache, entitlementCacheKey } from '../../edge-cache/entitlement-cache.js';
import type { EntitlementInvalidation } from '../../edge-cache/change-feed.js';
import { newTimeOrderedId } from '../../lib/crypto.js';
import { loadCustomersFully, type CustomerSnapshot } from '../entitlements/service.js';
import { planReport } from './plan.js';
import type { BatchedReport } from './repo.js';

export interface ReportRoute {
  customerPk: string;
  subscriptionId: string;
  /** The feature's UUID. */
  featureId: string;
  periodStart: Date;
  periodEnd: Date | null;
  /** The rollover a new counter of the period starts with. */
  rollover: number;
}

interface CustomerRoutes {
  /** By feature identifier, as reports name it. */
  routes: ReadonlyMap<string, ReportRoute>;
  /** The instant (ms) at which a route may change with time alone; 0: not to be kept. */
  validUntil: number | null;
}

const NONE: CustomerRoutes = { routes: new Map(), validUntil: 0 };

export class ReportRoutes implements EntitlementInvalidation {
  private readonly cache: EntitlementCache<CustomerRoutes>;

  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    options: { maxEntries?: number } = {},
  ) {
    this.cache = new EntitlementCache({ clock, ...options });
  }

  /** The route of one report's DELTA, if it has one; concurrent callers for one customer share one read. */
  async routeOf(environmentId: string, customerId: string, featureIdentifier: string): Promise<ReportRoute | undefined> {
    const key = entitlementCacheKey(environmentId, customerId);
    const loaded = await this.cache.getOrLoad(
      key,
      async () => (await this.load(environmentId, [customerId]))[0]!,
      (value) => ({ validUntil: value.validUntil }),
    );
    return loaded.routes.get(featureIdentifier);
  }

  /** The routes of many customers (by customerId): the cached ones, and the others read in one statement. */
  async routesOf(environmentId: string, customerIds: readonly string[]): Promise<Map<string, ReadonlyMap<string, ReportRoute>>> {
    const found = new Map<string, ReadonlyMap<string, ReportRoute>>();
    const missing: string[] = [];
    for (const customerId of new Set(customerIds)) {
      const hit = this.cache.get(entitlementCacheKey(environmentId, customerId));
      if (hit) found.set(customerId, hit.routes);
      else missing.push(customerId);
    }
    if (missing.length === 0) return found;
    let loaded: CustomerRoutes[];
    try {
      loaded = await this.load(environmentId, missing);
    } catch (error) {
      for (const customerId of missing) this.cache.release(entitlementCacheKey(environmentId, customerId));
      throw error;
    }
    missing.forEach((customerId, n) => {
      const value = loaded[n]!;
      this.cache.set(entitlementCacheKey(environmentId, customerId), value, { validUntil: value.validUntil });
      found.set(customerId, value.routes);
    });
    return found;
  }

  /** The routes kept for a customer, without reading anything (undefined: none kept). */
  peek(environmentId: string, customerId: string): ReadonlyMap<string, ReportRoute> | undefined {
    return this.cache.peek(entitlementCacheKey(environmentId, customerId))?.routes;
  }

  invalidateCustomer(environmentId: string, customerId: string): void {
    this.cache.invalidateCustomer(environmentId, customerId);
  }

  invalidateEnvironment(environmentId: string): void {
    this.cache.invalidateEnvironment(environmentId);
  }

  clear(): void {
    this.cache.clear();
  }

  private async load(environmentId: string, customerIds: readonly string[]): Promise<CustomerRoutes[]> {
    const snapshots = await loadCustomersFully(this.db, environmentId, customerIds, this.clock.now());
    return snapshots.map((snapshot) => (snapshot ? routesOfSnapshot(environmentId, snapshot) : NONE));
  }
}

/** Each meter's route, as `planReport` plans a DELTA on it; with when time alone may change one. */
function routesOfSnapshot(environmentId: string, snapshot: CustomerSnapshot): CustomerRoutes {
  if (snapshot.archived || snapshot.onTestClock) return NONE;
  const at = snapshot.at;
  let validUntil: number | null = null;
  const until = (instant: Date | null) => {
    if (instant && instant > at && (validUntil === null || instant.getTime() < validUntil)) validUntil = instant.getTime();
  };
  const routes = new Map<string, ReportRoute>();
  const meters = snapshot.subscriptions.flatMap((s) => s.grants.filter((grant) => grant.featureType === 'METER' && !grant.rawMeter));
  const identifiers = new Set(meters.map((grant) => grant.identifier));
  for (const subscription of snapshot.subscriptions) until(subscription.endDate);
  for (const identifier of identifiers) {
    // The snapshot as planReport expects it: loaded for this one feature.
    const subscriptions = snapshot.subscriptions.map((s) => ({ ...s, grants: s.grants.filter((g) => g.identifier === identifier) }));
    let plan;
    try {
      plan = planReport(environmentId, { customerId: '', featureId: identifier, value: 0, behaviour: 'DELTA' }, { ...snapshot, subscriptions });
    } catch {
      continue; // refused: the full path answers such reports
    }
    if (!plan?.batchable) continue;
    until(plan.change.periodEnd);
    routes.set(identifier, {
      customerPk: snapshot.customerPk,
      subscriptionId: plan.subscriptionId,
      featureId: plan.change.featureId,
      periodStart: plan.change.periodStart,
      periodEnd: plan.change.periodEnd,
      rollover: plan.change.create.rollover,
    });
  }
  return { routes, validUntil };
}

/** A DELTA report along its route, as the one-statement writer takes it. */
export function routedReport(
  route: ReportRoute,
  input: { customerId: string; value: number; resourceId?: string | null | undefined; idempotencyKey?: string | null | undefined },
  environmentId: string,
  at: Date,
): BatchedReport {
  return {
    id: newTimeOrderedId(at),
    environmentId,
    customerId: input.customerId,
    customerPk: route.customerPk,
    featureId: route.featureId,
    subscriptionId: route.subscriptionId,
    value: input.value,
    resourceId: input.resourceId ?? null,
    clientKey: input.idempotencyKey ?? null,
    periodStart: route.periodStart,
    periodEnd: route.periodEnd,
    rollover: route.rollover,
    at,
  };
}
