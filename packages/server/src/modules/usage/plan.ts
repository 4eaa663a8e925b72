/**
 * What one usage report does, decided from the customer's state before anything
 * is written: the report's row, the change to its counter, and whether it may be
 * written together with other reports in one statement. Shared by the single
 * report and the batch.
 */
import type { ReportUsageRequest } from '@billow/contract';
import { newTimeOrderedId } from '../../lib/crypto.js';
import { meterTerms, rolloverInto, type Grant, type MeterTerms } from '../entitlements/compute.js';
import { usageKey, type CustomerSnapshot } from '../entitlements/service.js';
import { featureFedByEvents, featureNotMetered, negativeSet, reportCustomerArchived, reportCustomerUnknown } from './errors.js';
import type { BatchedReport, CounterChange, ReportInsert } from './repo.js';

export interface ReportPlan {
  report: ReportInsert;
  change: CounterChange;
  subscriptionId: string;
  grant: Grant;
  terms: MeterTerms;
  /**
   * A DELTA whose counter needs nothing carried over from a replaced subscription,
   * on a meter without usage alerts: it only adds, so it may share a statement.
   */
  batchable: boolean;
}

/** A report's values that can be refused before the customer is read. */
export function checkReportValues(input: ReportUsageRequest): void {
  if (input.behaviour === 'SET' && input.value < 0) throw negativeSet();
}

/**
 * The plan of a report, from the customer's state loaded for its one feature;
 * throws the error a caller is answered with, or returns null when no
 * subscription grants the feature (why takes a read: see `whyNotGranted`).
 */
export function planReport(environmentId: string, input: ReportUsageRequest, snapshot: CustomerSnapshot | null): ReportPlan | null {
  if (!snapshot) throw reportCustomerUnknown(input.customerId);
  // The customer's time: their test clock's, when they live by one.
  const at = snapshot.at;
  if (snapshot.archived) throw reportCustomerArchived(input.customerId);
  // Loaded for this one feature: the owner of its usage is the last subscription that grants it.
  const target = snapshot.subscriptions.findLast((s) => s.grants.length > 0);
  const grant = target?.grants[0];
  if (!target || !grant) return null;
  if (grant.featureType !== 'METER') throw featureNotMetered(input.featureId, grant.featureType);
  if (grant.rawMeter) throw featureFedByEvents(input.featureId);

  const terms = meterTerms(target, grant, at);
  const counter = snapshot.counters.get(usageKey(target.id, grant.featureId, terms.window.start));
  const previous = terms.previous ? snapshot.counters.get(usageKey(target.id, grant.featureId, terms.previous.start)) : undefined;
  // A new counter starts from a replaced subscription's counter of the period, if any; else from zero and its rollover.
  const startsFrom = counter && !counter.own ? counter.value : 0;
  const create = {
    value: input.behaviour === 'SET' ? input.value : startsFrom + input.value,
    rollover: counter ? counter.rollover : rolloverInto(terms, previous),
    alertsSent: counter ? counter.alertsSent : [],
  };
  const report: ReportInsert = {
    id: newTimeOrderedId(at),
    environmentId,
    customerPk: snapshot.customerPk,
    featureId: grant.featureId,
    subscriptionId: target.id,
    behaviour: input.behaviour,
    value: input.value,
    resourceId: input.resourceId ?? null,
    clientKey: input.idempotencyKey ?? null,
    at,
  };
  const change: CounterChange = {
    environmentId,
    subscriptionId: target.id,
    featureId: grant.featureId,
    periodStart: terms.window.start,
    periodEnd: terms.window.end,
    behaviour: input.behaviour,
    value: input.value,
    create,
    at,
  };
  const batchable = !terms.alerts && input.behaviour === 'DELTA' && startsFrom === 0;
  return { report, change, subscriptionId: target.id, grant, terms, batchable };
}

/** A batchable plan as the one-statement writer takes it. */
export function batchedReport(plan: ReportPlan, customerId: string): BatchedReport {
  const { report, change } = plan;
  return { ...report, customerId, periodStart: change.periodStart, periodEnd: change.periodEnd, rollover: change.create.rollover };
}

/** Whether a stored report (as `findReportByKey` reads it) is the report `input` describes: a retry, not a reuse of its key. */
export function sameReport(
  prior: { customer_id: string; identifier: string; behaviour: string; value: number; resource_id: string | null },
  input: ReportUsageRequest,
): boolean {
  return (
    prior.customer_id === input.customerId &&
    prior.identifier === input.featureId &&
    prior.behaviour === input.behaviour &&
    prior.value === input.value &&
    prior.resource_id === (input.resourceId ?? null)
  );
}
