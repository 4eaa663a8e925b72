import type { Subscription, SubscriptionCreated } from '@billow/contract';
import type { Executor } from '../../db/transaction.js';
import { currencyDigits, formatMinor } from '../../lib/money.js';
import { recurrenceOf } from '../billing/periods.compute.js';
import { grantedFeatures } from '../../flows/features.js';
import { toPlanFile } from '../catalog/plans/view.js';
import { summarizeLicenses } from '../licenses/summary.js';
import type { SubscriptionRow } from './repo.js';

const DAY_MS = 86_400_000;
const iso = (at: Date | null) => (at ? at.toISOString() : null);

/** What list, retrieve and create share; `product` and `currency` differ between them, as in the reference. */
export async function subscriptionCore(db: Executor, row: SubscriptionRow, apiBase: string, now: Date) {
  const [version, plan, product, customer, files, licenses] = await Promise.all([
    db.selectFrom('plan_versions').selectAll().where('id', '=', row.plan_version_id).executeTakeFirstOrThrow(),
    db.selectFrom('plans').select(['identifier']).where('id', '=', row.plan_id).executeTakeFirstOrThrow(),
    db.selectFrom('products').select(['id', 'name', 'identifier']).where('id', '=', row.product_id).executeTakeFirstOrThrow(),
    db.selectFrom('customers').select(['customer_id']).where('id', '=', row.customer_id).executeTakeFirstOrThrow(),
    db.selectFrom('plan_files').selectAll().where('plan_version_id', '=', row.plan_version_id).orderBy('ordering').execute(),
    db
      .selectFrom('licenses')
      .selectAll()
      .where('subscription_id', '=', row.id)
      .orderBy('created_at')
      .execute(),
  ]);
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
    features: await grantedFeatures(db, row.plan_version_id, row.quantities),
    trialDaysRemaining,
    customerId: customer.customer_id,
    billingType: row.charge_period === 'ONE_TIME' ? 'ONE_TIME' : 'SUBSCRIPTION',
    recurrenceUnit: recurrence.recurrenceUnit,
    recurrenceType: recurrence.recurrenceType,
    files: files.filter((f) => f.enabled).map((f) => toPlanFile(f, plan.identifier, apiBase)),
    links: version.links,
    license: await summarizeLicenses(db, row.environment_id, licenses),
    previousSubscriptionId: row.previous_subscription_id,
    createdOn: row.created_at.toISOString(),
  };
  return { core, product };
}

export async function presentSubscription(db: Executor, row: SubscriptionRow, apiBase: string, now: Date): Promise<Subscription> {
  const { core, product } = await subscriptionCore(db, row, apiBase, now);
  return {
    ...core,
    currency: row.currency.toLowerCase(),
    product: product.name,
    canceledAt: iso(row.canceled_at),
    cancellationReason: row.cancellation_reason,
    cancellationFeedback: row.cancellation_feedback,
    cancellationComment: row.cancellation_comment,
  };
}

export async function presentCreated(db: Executor, row: SubscriptionRow, apiBase: string, now: Date): Promise<SubscriptionCreated> {
  const { core, product } = await subscriptionCore(db, row, apiBase, now);
  return { ...core, currency: row.currency, product };
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
    recurrence: recurrenceOf(row.charge_period).recurrence,
    start_date: row.start_date.toISOString().slice(0, 10),
    end_date: row.end_date ? row.end_date.toISOString().slice(0, 10) : null,
    billing_period_start_time: iso(row.current_period_start),
    billing_period_end_time: iso(row.current_period_end),
    trial_end: iso(row.trial_end),
    canceled_at: iso(row.canceled_at),
    created_on: row.created_at.toISOString(),
    modified_on: row.modified_at.toISOString(),
    ...extra,
  };
}
