/**
 * POST /report/usage/batch/ (a Billow addition): up to 1,000 usage reports in
 * one request, each with its own client idempotency key and its own result.
 *
 * Per-item semantics (decision 0040). Each report is accepted (counted by this
 * request), a duplicate (its key was counted before, for the same report) or
 * rejected (not counted, with the code and detail a single report would get).
 *
 * Cost (decision 0043). A DELTA whose customer's route is known
 * (report-routes.ts: kept per process, or read for all the batch's customers
 * in one statement) is written without reading anything first: the batch's
 * routed reports join the report writer's group commit whole, one statement
 * that records them (a client key used before is skipped, and comes back),
 * adds each counter's sum under its row lock and announces every customer. A
 * clean batch on known routes is that one statement. The other reports (no
 * route: a SET, an unknown customer, a meter with alerts...) are read as
 * before: their keys in one lookup, their customers' state in one statement.
 * Reports that must be applied in order (a SET, a counter carried over from a
 * replaced subscription, a meter with usage alerts) are written one by one
 * after the shared write, with every other report of their counter, in the
 * batch's order. A report is never counted twice: the unique client key
 * decides between concurrent writers, and the loser answers duplicate.
 */
import type { ReportUsageBatchItem, ReportUsageBatchResponse, ReportUsageBatchResult } from '@billow/contract';
import type { Db } from '../../db/connect.js';
import { DomainError } from '../../lib/domain-error.js';
import type { Clock } from '../../lib/clock.js';
import { loadCustomers } from '../entitlements/service.js';
import { isKeyReused, reportKeyReused } from './errors.js';
import { batchedReport, checkReportValues, planReport, sameReport } from './plan.js';
import { routedReport, type ReportRoutes } from './report-route-cache.js';
import * as repo from './repo.js';
import type { BatchedReport } from './repo.js';
import { whyNotGranted, type UsageScope, type UsageService } from './service.js';

type Outcome = Omit<ReportUsageBatchResult, 'idempotencyKey'>;

interface Planned {
  index: number;
  item: ReportUsageBatchItem;
  /** The counter it goes to: subscription, feature and period start. */
  counter: string;
  /** The report as the one-statement writer takes it, when it only adds; null: it must be applied in its place. */
  batched: BatchedReport | null;
}

type StoredReport = Awaited<ReturnType<typeof repo.findReportsByKeys>> extends Map<string, infer R> ? R : never;

/** The rejections whose key was found taken by another report. */
const keyTaken = new WeakSet<Outcome>();
const rejected = (error: DomainError): Outcome => {
  const outcome: Outcome = { status: 'rejected', code: error.code, detail: error.detail };
  if (isKeyReused(error)) keyTaken.add(outcome);
  return outcome;
};

export class UsageBatchService {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly single: UsageService,
    private readonly options: {
      notice: repo.NoticeOf | null;
      afterCommit?: (environmentId: string, customerId: string) => void;
      routes?: ReportRoutes;
    },
  ) {}

  /**
   * `resumedSince`: the request runs again after its first run's process died (its
   * Idempotency-Key taken over, decision 0051), which began then.
   */
  async reportBatch(scope: UsageScope, items: readonly ReportUsageBatchItem[], resumedSince?: Date): Promise<ReportUsageBatchResponse> {
    const outcomes: (Outcome | undefined)[] = new Array(items.length);
    const firstOfKey = new Map<string, number>();
    const firstUses: number[] = [];
    items.forEach((item, index) => {
      const first = firstOfKey.get(item.idempotencyKey);
      if (first === undefined) {
        firstOfKey.set(item.idempotencyKey, index);
        firstUses.push(index);
      }
    });
    const routed = await this.routed(scope, items, firstUses);
    const others = firstUses.filter((index) => !routed.has(index));
    const stored = await this.settleKnownKeys(scope, items, others, outcomes);
    const planned = [...routed.values(), ...(await this.plan(scope, items, others.filter((index) => outcomes[index] === undefined), outcomes))];
    planned.sort((a, b) => a.index - b.index);
    const { together, inOrder } = splitByCounter(planned);
    for (const [key, prior] of await this.writeTogether(scope, together, outcomes)) stored.set(key, prior);
    for (const entry of inOrder) outcomes[entry.index] = await this.writeAlone(scope, entry);
    for (const [key, prior] of await this.priorsOfRepeats(scope, items, firstOfKey, stored, outcomes)) stored.set(key, prior);
    this.forgetCached(scope, items, outcomes);
    // A key sent again later in the batch is judged against the report stored before the batch, if any, else
    // against its first use, whose fate it shares: counted once, or refused alike.
    items.forEach((item, index) => {
      const first = firstOfKey.get(item.idempotencyKey)!;
      if (first === index) return;
      const prior = stored.get(item.idempotencyKey);
      const firstOutcome = outcomes[first]!;
      if (prior) outcomes[index] = sameReport(prior, item) ? { status: 'duplicate' } : rejected(reportKeyReused());
      else if (!sameReport(asStored(items[first]!), item)) outcomes[index] = rejected(reportKeyReused());
      else outcomes[index] = firstOutcome.status === 'rejected' ? firstOutcome : { status: 'duplicate' };
    });
    if (resumedSince) await this.countedByFirstRun(scope, items, firstUses, outcomes, resumedSince);
    return summarize(items, outcomes as Outcome[]);
  }

  /**
   * A batch run again after its first run died before answering: the reports that run
   * stored (after it began) are answered accepted, as it would have answered them, not
   * duplicate. One more statement, on such a run only.
   */
  private async countedByFirstRun(scope: UsageScope, items: readonly ReportUsageBatchItem[], firstUses: number[], outcomes: (Outcome | undefined)[], since: Date) {
    const duplicates = firstUses.filter((index) => outcomes[index]?.status === 'duplicate');
    const stored = await repo.findReportsByKeys(this.db, scope.environmentId, duplicates.map((index) => items[index]!.idempotencyKey));
    for (const index of duplicates) {
      const prior = stored.get(items[index]!.idempotencyKey);
      if (prior && prior.reported_at.getTime() >= since.getTime()) outcomes[index] = { status: 'accepted' };
    }
  }

  /**
   * The DELTAs whose customer's route is known (report-routes.ts: cached, or read
   * for every customer missing in one statement): planned without reading their
   * state, and without looking their key up first (the write finds a used key).
   */
  private async routed(scope: UsageScope, items: readonly ReportUsageBatchItem[], indexes: number[]): Promise<Map<number, Planned>> {
    const routed = new Map<number, Planned>();
    const routes = this.options.routes;
    const deltas = indexes.filter((index) => items[index]!.behaviour === 'DELTA');
    if (!routes || deltas.length === 0) return routed;
    const byCustomer = await routes.routesOf(scope.environmentId, deltas.map((index) => items[index]!.customerId));
    const at = this.clock.now();
    for (const index of deltas) {
      const item = items[index]!;
      const route = byCustomer.get(item.customerId)?.get(item.featureId);
      if (!route) continue;
      const batched = routedReport(route, item, scope.environmentId, at);
      routed.set(index, { index, item, counter: counterKey(batched), batched });
    }
    return routed;
  }

  /** Reports whose key was used before: duplicates when they are the same report, refused otherwise. */
  private async settleKnownKeys(scope: UsageScope, items: readonly ReportUsageBatchItem[], indexes: number[], outcomes: (Outcome | undefined)[]) {
    const known = await repo.findReportsByKeys(this.db, scope.environmentId, indexes.map((index) => items[index]!.idempotencyKey));
    for (const index of indexes) {
      const item = items[index]!;
      const prior = known.get(item.idempotencyKey);
      if (prior) outcomes[index] = sameReport(prior, item) ? { status: 'duplicate' } : rejected(reportKeyReused());
    }
    return known;
  }

  /**
   * The stored reports of keys sent again in the batch whose first use found its key
   * taken (a duplicate, or refused as reused) where no lookup had read it: a routed
   * report written in its counter's order. Read in one statement, and only then.
   */
  private async priorsOfRepeats(
    scope: UsageScope,
    items: readonly ReportUsageBatchItem[],
    firstOfKey: Map<string, number>,
    stored: Map<string, StoredReport>,
    outcomes: (Outcome | undefined)[],
  ): Promise<Map<string, StoredReport>> {
    const keys = new Set<string>();
    items.forEach((item, index) => {
      const first = outcomes[firstOfKey.get(item.idempotencyKey)!];
      const taken = first?.status === 'duplicate' || (first !== undefined && keyTaken.has(first));
      if (firstOfKey.get(item.idempotencyKey) !== index && taken && !stored.has(item.idempotencyKey)) keys.add(item.idempotencyKey);
    });
    return keys.size === 0 ? new Map() : repo.findReportsByKeys(this.db, scope.environmentId, [...keys]);
  }

  /** Each report's plan from its customer's state, read for every (customer, feature) in one statement; refusals go to `outcomes`. */
  private async plan(scope: UsageScope, items: readonly ReportUsageBatchItem[], indexes: number[], outcomes: (Outcome | undefined)[]) {
    // Each distinct (customer, feature) is read once: by its place in `wanted`.
    const pairs = new Map<string, number>();
    const wanted: { customerId: string; featureIdentifier: string }[] = [];
    const pairOf = (item: ReportUsageBatchItem) => `${item.customerId.length}:${item.customerId}${item.featureId}`;
    for (const index of indexes) {
      const item = items[index]!;
      const pair = pairOf(item);
      if (pairs.has(pair)) continue;
      pairs.set(pair, wanted.length);
      wanted.push({ customerId: item.customerId, featureIdentifier: item.featureId });
    }
    const snapshots = await loadCustomers(this.db, scope.environmentId, wanted, this.clock.now());
    const planned: Planned[] = [];
    for (const index of indexes) {
      const item = items[index]!;
      try {
        checkReportValues(item);
        const plan = planReport(scope.environmentId, item, snapshots[pairs.get(pairOf(item))!] ?? null);
        if (plan) planned.push({ index, item, counter: counterKey(plan.change), batched: plan.batchable ? batchedReport(plan, item.customerId) : null });
        else outcomes[index] = rejected(await whyNotGranted(this.db, scope.environmentId, item));
      } catch (error) {
        if (!(error instanceof DomainError)) throw error;
        outcomes[index] = rejected(error);
      }
    }
    return planned;
  }

  /**
   * The reports that only add, in one statement (tried again if it deadlocked); a
   * key used before (or taken meanwhile by a concurrent request) answers as
   * before. Returns the stored reports of those keys.
   */
  private async writeTogether(scope: UsageScope, entries: Planned[], outcomes: (Outcome | undefined)[]) {
    if (entries.length === 0) return new Map<string, StoredReport>();
    let notRecorded: Set<string>;
    try {
      notRecorded = await this.single.writeAll(entries.map((entry) => entry.batched!));
    } catch (error) {
      if (!repo.isCounterBoundViolation(error)) throw error;
      // A counter would leave its bound, and the statement wrote nothing: each report alone, in order, so only those that cross it are refused.
      for (const entry of entries) outcomes[entry.index] = await this.writeAlone(scope, entry);
      return new Map<string, StoredReport>();
    }
    const lost = entries.filter((entry) => notRecorded.has(entry.batched!.id));
    for (const entry of entries) if (!notRecorded.has(entry.batched!.id)) outcomes[entry.index] = { status: 'accepted' };
    const settled: (Outcome | undefined)[] = [];
    const found = await this.settleKnownKeys(scope, lost.map((entry) => entry.item), lost.map((_, i) => i), settled);
    lost.forEach((entry, i) => {
      const outcome = settled[i];
      if (!outcome) throw new Error(`usage report key ${entry.item.idempotencyKey} collided but cannot be read`);
      outcomes[entry.index] = outcome;
    });
    return found;
  }

  /** A report that must be applied in its place: through the single report's path, which reads its counter afresh. */
  private async writeAlone(scope: UsageScope, entry: Planned): Promise<Outcome> {
    try {
      const { fresh } = await this.single.record(scope, entry.item);
      return { status: fresh ? 'accepted' : 'duplicate' };
    } catch (error) {
      if (error instanceof DomainError) return rejected(error);
      throw error;
    }
  }

  /** This process's cached answers of every customer whose usage the batch changed (others hear the NOTIFY). */
  private forgetCached(scope: UsageScope, items: readonly ReportUsageBatchItem[], outcomes: (Outcome | undefined)[]) {
    const customers = new Set(items.filter((_, index) => outcomes[index]?.status === 'accepted').map((item) => item.customerId));
    for (const customerId of customers) this.options.afterCommit?.(scope.environmentId, customerId);
  }
}

/**
 * Reports whose counter only receives additions go together; a counter with any
 * report that must be applied in order keeps all of its reports in batch order.
 */
function splitByCounter(planned: Planned[]): { together: Planned[]; inOrder: Planned[] } {
  const ordered = new Set(planned.filter((entry) => entry.batched === null).map((entry) => entry.counter));
  return {
    together: planned.filter((entry) => !ordered.has(entry.counter)),
    inOrder: planned.filter((entry) => ordered.has(entry.counter)),
  };
}

function counterKey(counter: { subscriptionId: string; featureId: string; periodStart: Date }): string {
  return `${counter.subscriptionId}|${counter.featureId}|${counter.periodStart.getTime()}`;
}

/** An item in the shape of a stored report, to compare two uses of one key in a batch. */
function asStored(item: ReportUsageBatchItem) {
  return { customer_id: item.customerId, identifier: item.featureId, behaviour: item.behaviour, value: item.value, resource_id: item.resourceId ?? null };
}

function summarize(items: readonly ReportUsageBatchItem[], outcomes: Outcome[]): ReportUsageBatchResponse {
  const count = (status: Outcome['status']) => outcomes.filter((outcome) => outcome.status === status).length;
  return {
    accepted: count('accepted'),
    duplicates: count('duplicate'),
    rejected: count('rejected'),
    results: outcomes.map((outcome, index) => ({ idempotencyKey: items[index]!.idempotencyKey, ...outcome })),
  };
}
