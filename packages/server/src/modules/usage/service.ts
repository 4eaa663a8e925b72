/**
 * Usage reporting: pre-aggregated reports (POST /report/usage/) and raw events
 * (POST /report/event/).
 *
 * A report goes to one counter: the customer's most recent subscription that
 * grants the feature (see entitlements/service.ts `usageOwner`), in its
 * current reset period. In one transaction the report is recorded and the
 * counter is made (with the rollover from the period before, and what a
 * replaced subscription had counted) or locked and changed, so concurrent
 * reports on one counter add up exactly. Reports count even past a hard limit:
 * the work already happened, and the limit turns hasAccess off. A client
 * `idempotencyKey` makes a retried report count once.
 *
 * Raw events are stored (once per idempotency key) and aggregated by
 * RAW_EVENTS meters when entitlements are read, over each meter's current
 * period by the events' own timestamps.
 *
 * Crossing a usage-alert threshold writes a `feature.usage_alert` event, once
 * per threshold per period. Every change is announced through the options'
 * `announce` (in its transaction) and `afterCommit`: the seam for the
 * entitlement cache.
 */
import type {
  ReportEventRequest,
  ReportEventResponse,
  ReportUsageRequest,
  ReportUsageResponse,
} from '@billow/contract';
import type { RawBuilder } from 'kysely';
import type { Db } from '../../db/connect.js';
import { inTransaction, type Tx } from '../../db/transaction.js';
import type { Clock } from '../../lib/clock.js';
import { newId, newTimeOrderedId } from '../../lib/crypto.js';
import { findFeature } from '../catalog/queries.js';
import { findCustomer } from '../customers/queries.js';
import { meterState, meterTerms, rolloverInto, type Grant, type MeterState, type MeterTerms } from '../entitlements/compute.js';
import { formatUsageTimestamp } from '../entitlements/reset-periods.compute.js';
import { loadCustomer, usageKey, usageOf, usageOwner } from '../entitlements/service.js';
import { eventTimestamp, recordEvent } from '../events/writer.js';
import { customerWebhookObject } from '../ledger/webhook.js';
import { crossedThresholds, type Crossing } from './alerts.compute.js';
import {
  counterLimit,
  featureNotGranted,
  featureNotMetered,
  featureUnknown,
  invalidTimestamp,
  reportCustomerArchived,
  reportCustomerUnknown,
  reportKeyReused,
} from './errors.js';
import { batchedReport, checkReportValues, planReport, sameReport, type ReportPlan } from './plan.js';
import type { DomainError } from '../../lib/domain-error.js';
import { echoedEventKey, parseEventTimestamp } from '../entitlements/events.compute.js';
import * as repo from './repo.js';
import { ReportWriter } from './report-writer.js';
import { routedReport, type ReportRoutes } from './report-route-cache.js';

export interface UsageScope {
  environmentId: string;
  organizationId: string;
}

/** The seam for the entitlement cache: how a change to a customer's usage is announced. */
export interface UsageServiceOptions {
  /**
   * An SQL expression evaluated by the statement or transaction that changes the
   * customer's usage (e.g. a NOTIFY that reaches every process on commit).
   */
  notice?: repo.NoticeOf;
  /** Runs once that transaction has committed (e.g. drop this process's cached answer: read your own writes). */
  afterCommit?: (environmentId: string, customerId: string) => void;
  /** Where DELTAs go, kept between reports (report-routes.ts); without it every report reads its customer's state. */
  routes?: ReportRoutes;
}

const AGGREGATED_EVENT = 'aggregated.usage';

/** The server's idempotency key of a report: its id as 32 hexadecimal characters. */
const serverKey = (reportId: string) => reportId.replace(/-/g, '');

interface AlertContext {
  scope: UsageScope;
  customerId: string;
  subscriptionId: string;
  grant: Grant;
  terms: MeterTerms;
  state: MeterState;
  crossings: Crossing[];
  sent: unknown[];
  at: Date;
}

/** Starts the client key of a report made from its request's Idempotency-Key. */
const REQUEST_KEY_PREFIX = 'Idempotency-Key:';

export class UsageService {
  private readonly writer: ReportWriter;

  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly options: UsageServiceOptions = {},
  ) {
    this.writer = new ReportWriter(db, options.notice ?? null);
  }

  /** Group-commits reports that only add (distinct client keys), with every other report waiting; the ids not recorded. */
  writeAll(reports: readonly repo.BatchedReport[]): Promise<Set<string>> {
    return this.writer.writeAll(reports);
  }

  /**
   * `requestKey`, the request's Idempotency-Key: a report without a key of its own is
   * recorded under one made from it, so that the report is its answer's record too. A
   * retry after a crash between the commit and the answer finds the report and answers
   * as the first run did, instead of counting it again (decision 0051).
   */
  async reportUsage(scope: UsageScope, input: ReportUsageRequest, requestKey?: string): Promise<ReportUsageResponse> {
    const keyed = requestKey !== undefined && !input.idempotencyKey ? { ...input, idempotencyKey: `${REQUEST_KEY_PREFIX}${requestKey}` } : input;
    return (await this.record(scope, keyed)).body;
  }

  /**
   * A report, and whether this call counted it (false: its client key was counted before, and this is the first answer again).
   * A report that would take its counter beyond ±USAGE_COUNTER_MAX is refused (400), with nothing written.
   */
  async record(scope: UsageScope, input: ReportUsageRequest): Promise<{ body: ReportUsageResponse; fresh: boolean }> {
    try {
      return await this.recordUnchecked(scope, input);
    } catch (error) {
      if (repo.isCounterBoundViolation(error)) throw counterLimit(input.featureId, repo.USAGE_COUNTER_MAX);
      throw error;
    }
  }

  private async recordUnchecked(scope: UsageScope, input: ReportUsageRequest): Promise<{ body: ReportUsageResponse; fresh: boolean }> {
    checkReportValues(input);
    const route = input.behaviour === 'DELTA' ? await this.options.routes?.routeOf(scope.environmentId, input.customerId, input.featureId) : undefined;
    if (route) return this.recordRouted(scope, input, routedReport(route, input, scope.environmentId, this.clock.now()));
    const clientKey = input.idempotencyKey ?? null;
    if (clientKey) {
      const prior = await repo.findReportByKey(this.db, scope.environmentId, clientKey);
      if (prior) return { body: this.replay(scope, input, prior), fresh: false };
    }
    const snapshot = await loadCustomer(this.db, scope.environmentId, input.customerId, this.clock.now(), input.featureId);
    const plan = planReport(scope.environmentId, input, snapshot);
    if (!plan) throw await whyNotGranted(this.db, scope.environmentId, input);
    const { report } = plan;
    const recorded = plan.batchable
      ? await this.writer.write(batchedReport(plan, input.customerId))
      : await this.recordAlone(scope, input.customerId, plan);
    if (!recorded) {
      // A concurrent report with the same client key committed first.
      const prior = await repo.findReportByKey(this.db, scope.environmentId, clientKey!);
      return { body: this.replay(scope, input, prior!), fresh: false };
    }
    // A DELTA that carried a replaced subscription's usage over made its counter: its route can now be kept.
    if (input.behaviour === 'DELTA' && !plan.batchable && !plan.terms.alerts) this.options.routes?.invalidateCustomer(scope.environmentId, input.customerId);
    return { body: this.accepted(scope, input, report), fresh: true };
  }

  /**
   * A DELTA along its known route: written at once (group-committed), without
   * reading the customer's state or looking its client key up first; a key
   * used before is found by the write, and answered as before.
   */
  private async recordRouted(scope: UsageScope, input: ReportUsageRequest, report: repo.BatchedReport) {
    if (!(await this.writer.write(report))) {
      const prior = await repo.findReportByKey(this.db, scope.environmentId, report.clientKey!);
      if (!prior) throw new Error(`usage report key ${report.clientKey} collided but cannot be read`);
      return { body: this.replay(scope, input, prior), fresh: false };
    }
    return { body: this.accepted(scope, input, report), fresh: true };
  }

  /** The answer to a report this call counted, once committed (and this process's cached answer dropped). */
  private accepted(scope: UsageScope, input: ReportUsageRequest, report: { id: string; at: Date }): ReportUsageResponse {
    this.options.afterCommit?.(scope.environmentId, input.customerId);
    return {
      value: input.value,
      customerId: input.customerId,
      featureId: input.featureId,
      behaviour: input.behaviour,
      resourceId: input.resourceId ?? null,
      orgId: scope.organizationId,
      eventName: AGGREGATED_EVENT,
      idempotencyKey: serverKey(report.id),
      timestamp: formatUsageTimestamp(report.at),
    };
  }

  /**
   * A report that cannot share a statement, written on its own (in order after
   * those before it): a SET, a carried-over counter, or a meter with alerts.
   * False when its client key was used before.
   */
  recordAlone(scope: UsageScope, customerId: string, plan: ReportPlan): Promise<boolean> {
    const { report, change, subscriptionId, grant, terms } = plan;
    return terms.alerts
      ? this.recordWithAlerts({ scope, customerId, subscriptionId, grant, terms }, report, change)
      : repo.recordReport(this.db, report, change, this.notice(scope.environmentId, customerId));
  }

  /** The announcement of a change to the customer's usage; a no-op expression without a cache to tell. */
  private notice(environmentId: string, customerId: string): RawBuilder<unknown> {
    return this.options.notice?.(environmentId, customerId) ?? repo.silentNotice();
  }

  /** The same announcement as a statement of a transaction. */
  private async announceIn(tx: Tx, environmentId: string, customerId: string): Promise<void> {
    if (this.options.notice) await repo.evaluateNotice(tx, this.options.notice(environmentId, customerId));
  }

  /**
   * A report on a meter with usage alerts: recorded, counted and alerted in one
   * transaction, so that an alert is sent exactly when the usage that crosses
   * its threshold is counted. False when the client key was used before.
   */
  private recordWithAlerts(
    context: Pick<AlertContext, 'scope' | 'customerId' | 'subscriptionId' | 'grant' | 'terms'>,
    report: repo.ReportInsert,
    change: repo.CounterChange,
  ): Promise<boolean> {
    return inTransaction(this.db, async (tx) => {
      // The counter's row lock is held from its update to the commit: everything else comes first.
      await this.announceIn(tx, context.scope.environmentId, context.customerId);
      if (!(await repo.insertReport(tx, report))) return false;
      const applied = await repo.applyToCounter(tx, change);
      const state = meterState(context.terms, { value: applied.value, rollover: applied.rollover }, undefined);
      const crossings = crossedThresholds(context.terms.alerts, state, applied.alerts_sent);
      if (crossings.length > 0) await this.alert(tx, { ...context, state, crossings, sent: applied.alerts_sent, at: change.at });
      return true;
    });
  }

  /** The first answer to a report retried with its client key; the key used for another report is refused. */
  private replay(
    scope: UsageScope,
    input: ReportUsageRequest,
    prior: NonNullable<Awaited<ReturnType<typeof repo.findReportByKey>>>,
  ): ReportUsageResponse {
    if (!sameReport(prior, input)) throw reportKeyReused();
    return {
      value: prior.value,
      customerId: prior.customer_id,
      featureId: prior.identifier,
      behaviour: prior.behaviour,
      resourceId: prior.resource_id,
      orgId: scope.organizationId,
      eventName: AGGREGATED_EVENT,
      idempotencyKey: serverKey(prior.id),
      timestamp: formatUsageTimestamp(prior.reported_at),
    };
  }

  async reportEvent(scope: UsageScope, input: ReportEventRequest): Promise<ReportEventResponse> {
    const timestamp = parseEventTimestamp(input.timestamp);
    if (!timestamp) throw invalidTimestamp(input.timestamp);
    const customer = await findCustomer(this.db, scope.environmentId, input.customerId);
    if (!customer) throw reportCustomerUnknown(input.customerId);
    if (customer.archived_at) throw reportCustomerArchived(input.customerId);
    const at = this.clock.now();
    const properties = input.properties ?? {};
    const stored = await inTransaction(this.db, async (tx) => {
      const inserted = await repo.insertEvent(tx, {
        id: newTimeOrderedId(at),
        environmentId: scope.environmentId,
        customerPk: customer.id,
        eventName: input.eventName,
        idempotencyKey: input.idempotencyKey,
        occurredAt: timestamp.text,
        properties,
        resourceId: input.resourceId ?? null,
        at,
      });
      if (inserted) {
        await this.eventAlerts(tx, scope, input.customerId, timestamp.at, at);
        await this.announceIn(tx, scope.environmentId, input.customerId);
      }
      return inserted;
    });
    if (!stored) {
      // Sent before: accepted, not counted again; the answer describes the stored event.
      const prior = await repo.findEventByKey(this.db, scope.environmentId, input.idempotencyKey);
      if (!prior) throw new Error('an event collided on its idempotency key but cannot be read');
      return {
        customerId: prior.customer_id,
        eventName: prior.event_name,
        idempotencyKey: echoedEventKey(prior.idempotency_key),
        timestamp: prior.timestamp,
        properties: prior.properties,
        resourceId: prior.resource_id,
        orgId: scope.organizationId,
      };
    }
    this.options.afterCommit?.(scope.environmentId, input.customerId);
    return {
      customerId: input.customerId,
      eventName: input.eventName,
      idempotencyKey: echoedEventKey(input.idempotencyKey),
      timestamp: stored.timestamp,
      properties,
      resourceId: input.resourceId ?? null,
      orgId: scope.organizationId,
    };
  }

  /**
   * After an event of the current period: the usage alerts of the customer's
   * RAW_EVENTS meters it may have pushed over a threshold. Their counters keep
   * the alerts sent (and hold the aggregate at that moment).
   */
  private async eventAlerts(tx: Tx, scope: UsageScope, customerId: string, occurredAt: Date, realTime: Date) {
    const snapshot = await loadCustomer(tx, scope.environmentId, customerId, realTime);
    if (!snapshot) return;
    // The customer's time: a customer on a test clock lives by it (their alerts are dated by it too).
    const at = snapshot.at;
    const candidates: Array<{ subscriptionId: string; grant: Grant; terms: MeterTerms }> = [];
    for (const subscription of snapshot.subscriptions) {
      for (const grant of subscription.grants) {
        if (!grant.rawMeter || usageOwner(snapshot, grant.featureId) !== subscription) continue;
        const terms = meterTerms(subscription, grant, at);
        const { start, end } = terms.window;
        if (!terms.alerts || occurredAt < start || (end !== null && occurredAt >= end)) continue;
        candidates.push({ subscriptionId: subscription.id, grant, terms });
      }
    }
    if (candidates.length === 0) return;
    const usage = await usageOf(tx, scope.environmentId, snapshot, at, (s, g) =>
      candidates.some((c) => c.subscriptionId === s.id && c.grant === g),
    );
    for (const { subscriptionId, grant, terms } of candidates) {
      const current = usage(subscriptionId, grant.featureId, terms.window.start);
      const previous = terms.previous ? usage(subscriptionId, grant.featureId, terms.previous.start) : undefined;
      const counter = snapshot.counters.get(usageKey(subscriptionId, grant.featureId, terms.window.start));
      const value = current?.value ?? 0;
      const rollover = counter ? counter.rollover : rolloverInto(terms, previous);
      const state = meterState(terms, { value, rollover }, undefined);
      if (crossedThresholds(terms.alerts, state, counter?.alertsSent ?? []).length === 0) continue;
      const applied = await repo.applyToCounter(tx, {
        environmentId: scope.environmentId,
        subscriptionId,
        featureId: grant.featureId,
        periodStart: terms.window.start,
        periodEnd: terms.window.end,
        behaviour: 'SET',
        value,
        create: { value, rollover, alertsSent: counter?.alertsSent ?? [] },
        at,
      });
      const crossings = crossedThresholds(terms.alerts, state, applied.alerts_sent);
      if (crossings.length > 0) {
        await this.alert(tx, { scope, customerId, subscriptionId, grant, terms, state, crossings, sent: applied.alerts_sent, at });
      }
    }
  }

  /** One `feature.usage_alert` event per threshold reached, and the counter remembers them. */
  private async alert(tx: Tx, context: AlertContext): Promise<void> {
    const { scope, grant, terms, state, at } = context;
    const customer = await findCustomer(tx, scope.environmentId, context.customerId);
    if (!customer) return;
    for (const crossing of context.crossings) {
      await recordEvent(tx, {
        environmentId: scope.environmentId,
        organizationId: scope.organizationId,
        type: 'feature.usage_alert',
        data: {
          id: newId(),
          object: 'feature_usage_alert',
          feature: { id: grant.featureId, name: grant.name, identifier: grant.identifier, feature_type: grant.featureType },
          customer: customerWebhookObject(customer),
          usage_limit: state.usageLimit,
          current_usage: state.currentUsage,
          threshold_type: crossing.type,
          threshold_value: crossing.threshold,
          period_start_time: eventTimestamp(terms.window.start),
          period_end_time: terms.window.end ? eventTimestamp(terms.window.end) : null,
          subscription_id: context.subscriptionId,
          created_on: eventTimestamp(at),
          modified_on: eventTimestamp(at),
        },
        at,
      });
    }
    await repo.markAlertsSent(
      tx,
      { subscriptionId: context.subscriptionId, featureId: grant.featureId, periodStart: terms.window.start },
      [...context.sent, ...context.crossings.map((c) => c.key)],
    );
  }
}

/** Why a report names a feature the customer has no grant of: unknown, not a meter, or not granted. */
export async function whyNotGranted(db: Db, environmentId: string, input: Pick<ReportUsageRequest, 'featureId' | 'customerId'>): Promise<DomainError> {
  const feature = await findFeature(db, environmentId, input.featureId);
  if (!feature || feature.identifier !== input.featureId) return featureUnknown(input.featureId);
  if (feature.feature_type !== 'METER') return featureNotMetered(input.featureId, feature.feature_type);
  return featureNotGranted(input.featureId, input.customerId);
}
