import type { Subscription, SubscriptionChangePreview, SubscriptionCreated } from '@billow/contract';
import type { ChangeTerms } from './change.compute.js';
import type { Executor } from '../../db/transaction.js';
import { currencyDigits, formatMinor } from '../../lib/money.js';
import { recurrenceOf, recurrenceText } from '../billing/billing-periods.compute.js';
import { entitlementFeatureRows, grantedFeature } from '../purchases/features.js';
import { toPlanFile } from '../catalog/plans/view.js';
import { summarizeLicenses } from '../licenses/summary.js';
import { eventParts, presentationRows, type SubscriptionRow } from './repo.js';
import { customerWebhookObject } from '../ledger/webhook.js';
import { DAY_MS } from '../../lib/time.js';

const iso = (at: Date | null) => (at ? at.toISOString() : null);

type Related = Awaited<ReturnType<typeof presentationRows>>;

function byId<T extends { id: string }>(rows: T[]): Map<string, T> {
  return new Map(rows.map((row) => [row.id, row]));
}

function groupedBy<T>(rows: T[], key: (row: T) => string | null): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const row of rows) {
    const k = key(row);
    if (k !== null) groups.set(k, [...(groups.get(k) ?? []), row]);
  }
  return groups;
}

/** Everything a page of subscriptions is shown with, read in a constant number of queries. */
async function loadRelated(db: Executor, rows: SubscriptionRow[]) {
  const related: Related = await presentationRows(db, rows);
  const environmentId = rows[0]?.environment_id;
  const [features, licenseSummaries] = await Promise.all([
    entitlementFeatureRows(db, [...new Set(rows.map((r) => r.plan_version_id))]),
    environmentId ? summarizeLicenses(db, environmentId, related.licenses) : [],
  ]);
  const summaryById = byId(licenseSummaries);
  return {
    versions: byId(related.versions),
    plans: byId(related.plans),
    products: byId(related.products),
    customers: byId(related.customers),
    files: groupedBy(related.files, (f) => f.plan_version_id),
    features: groupedBy(features, (f) => f.plan_version_id),
    licenses: groupedBy(related.licenses, (l) => l.subscription_id),
    licenseSummary: (id: string) => summaryById.get(id)!,
  };
}

/** What list, retrieve and create share; `product` and `currency` differ between them, as in the reference. */
function subscriptionCore(row: SubscriptionRow, related: Awaited<ReturnType<typeof loadRelated>>, apiBase: string, now: Date) {
  const version = related.versions.get(row.plan_version_id)!;
  const plan = related.plans.get(row.plan_id)!;
  const product = related.products.get(row.product_id)!;
  const recurrence = recurrenceOf(row.charge_period);
  const trialDaysRemaining =
    row.status === 'trialing' && row.trial_end ? Math.max(0, Math.ceil((row.trial_end.getTime() - now.getTime()) / DAY_MS)) : 0;
  const core = {
    id: row.id,
    externalSubscriptionId: null,
    startDate: row.start_date.toISOString(),
    endDate: iso(row.end_date),
    billingPeriodStartTime: iso(row.current_period_start),
    billingPeriodEndTime: iso(row.current_period_end),
    trialEnd: iso(row.trial_end),
    amount: formatMinor(row.amount_minor, currencyDigits(row.currency)),
    recurrence: recurrence.recurrence,
    status: row.status,
    plan: { name: version.name, identifier: plan.identifier },
    planVersion: version.version,
    chargePeriod: row.charge_period,
    features: (related.features.get(row.plan_version_id) ?? []).map((f) => grantedFeature(f, row.quantities)),
    trialDaysRemaining,
    customerId: related.customers.get(row.customer_id)!.customer_id,
    billingType: row.charge_period === 'ONE_TIME' ? 'ONE_TIME' : 'SUBSCRIPTION',
    recurrenceUnit: recurrence.recurrenceUnit,
    recurrenceType: recurrence.recurrenceType,
    files: (related.files.get(row.plan_version_id) ?? []).filter((f) => f.enabled).map((f) => toPlanFile(f, plan.identifier, apiBase)),
    links: version.links,
    license: (related.licenses.get(row.id) ?? []).map((l) => related.licenseSummary(l.id)),
    previousSubscriptionId: row.previous_subscription_id,
    createdOn: row.created_at.toISOString(),
  };
  return { core, product };
}

/** A page of subscriptions as the API lists them. */
export async function presentSubscriptions(db: Executor, rows: SubscriptionRow[], apiBase: string, now: Date): Promise<Subscription[]> {
  const related = await loadRelated(db, rows);
  return rows.map((row) => {
    const { core, product } = subscriptionCore(row, related, apiBase, now);
    return {
      ...core,
      currency: row.currency.toLowerCase(),
      product: product.name,
      canceledAt: iso(row.canceled_at),
      cancellationReason: row.cancellation_reason,
      cancellationFeedback: row.cancellation_feedback,
      cancellationComment: row.cancellation_comment,
    };
  });
}

export async function presentSubscription(db: Executor, row: SubscriptionRow, apiBase: string, now: Date): Promise<Subscription> {
  return (await presentSubscriptions(db, [row], apiBase, now))[0]!;
}

export async function presentCreated(db: Executor, row: SubscriptionRow, apiBase: string, now: Date): Promise<SubscriptionCreated> {
  const { core, product } = subscriptionCore(row, await loadRelated(db, [row]), apiBase, now);
  return { ...core, currency: row.currency, product };
}

function webhookRecurrence(chargePeriod: string): string {
  const { recurrenceUnit, recurrenceType } = recurrenceOf(chargePeriod);
  return recurrenceText(recurrenceUnit, recurrenceType) ?? '';
}

/** The snake_case object of subscription webhooks. */
export function subscriptionObject(row: SubscriptionRow, extra: Record<string, unknown>) {
  return {
    id: row.id,
    object: 'subscription',
    status: row.status,
    amount: formatMinor(row.amount_minor, currencyDigits(row.currency)),
    amount_units: row.amount_minor,
    currency: row.currency,
    // "1 month" in webhooks, where the REST API says "month" (DOMAIN.md §6.1, 11).
    recurrence: webhookRecurrence(row.charge_period),
    start_date: row.start_date.toISOString().slice(0, 10),
    end_date: row.end_date ? row.end_date.toISOString().slice(0, 10) : null,
    billing_period_start_time: iso(row.current_period_start),
    billing_period_end_time: iso(row.current_period_end),
    // Billow keeps no trial start: a trial begins with its subscription (a plan change's successor keeps the start date).
    trial_start: row.trial_end ? iso(row.start_date) : null,
    trial_end: iso(row.trial_end),
    canceled_at: iso(row.canceled_at),
    created_on: row.created_at.toISOString(),
    modified_on: row.modified_at.toISOString(),
    ...extra,
  };
}

/**
 * The object of a subscription event, whole as the reference sends it (plan, product,
 * customer, features), for a row whose plan and customer are read here; `features` is
 * null as in every reference example.
 */
export async function subscriptionEventObject(db: Executor, row: SubscriptionRow, organizationId: string) {
  return subscriptionEventObjectOf(row, await eventParts(db, row), organizationId);
}

/** The same from the rows the caller holds already (a renewal has its catalog rows and customer). */
export function subscriptionEventObjectOf(row: SubscriptionRow, parts: EventParts, organizationId: string) {
  const { version, plan, product, customer } = parts;
  return subscriptionObject(row, {
    plan: { name: version.name, version: version.version, identifier: plan.identifier },
    product: { id: product.id, name: product.name },
    customer: customerWebhookObject(customer),
    organization: organizationId,
    features: null,
  });
}

export type EventParts = Awaited<ReturnType<typeof eventParts>>;

/** A change's preview (POST /subscriptions/{id}/update/preview/): the change's terms as the change itself would record them. */
export function changePreviewOf(
  row: SubscriptionRow,
  input: { chargePeriod: string },
  terms: ChangeTerms,
  paid: { fromCredit: number; toCharge: number; newPlan: string },
): SubscriptionChangePreview {
  const bill = terms.bill;
  return {
    subscriptionId: row.id,
    planIdentifier: paid.newPlan,
    chargePeriod: input.chargePeriod,
    currency: row.currency,
    periodStart: terms.periodStart.toISOString(),
    periodEnd: terms.periodEnd?.toISOString() ?? null,
    trialEnd: terms.trialEnd?.toISOString() ?? null,
    lines: (bill?.lines ?? []).map((line) => ({
      description: line.description,
      quantity: line.quantity,
      featureId: line.featureId,
      amount: formatMinor(line.amountMinor, currencyDigits(row.currency)),
      amountUnits: line.amountMinor,
    })),
    amountSubtotalUnits: bill?.subtotalMinor ?? 0,
    amountDiscountUnits: bill?.discountMinor ?? 0,
    amountTaxUnits: bill?.taxMinor ?? 0,
    amountTotalUnits: terms.dueMinor,
    unusedCreditUnits: terms.creditMinor,
    creditAppliedUnits: paid.fromCredit,
    amountDueNowUnits: paid.toCharge,
    amountDueNow: formatMinor(paid.toCharge, currencyDigits(row.currency)),
  };
}
