/**
 * The emails of a subscription's payments and ends (decision 0070): a failed renewal payment
 * and each failed retry (dunning), a cancellation for non-payment, one with immediate effect,
 * one set for later, and the end a subscription was set to. What an email says comes from its
 * event; only how a canceled subscription ended is read from its record, which no longer changes.
 */
import { payLinkExpiry } from '../../lib/pay-links.js';
import { isLastAttempt } from '../billing/renewal.compute.js';
import {
  cancellationScheduledEmail,
  cancelledEmail,
  cancelledUnpaidEmail,
  paymentFailedEmail,
  retryFailedEmail,
  subscriptionCancelledEmail,
} from './emails/notices.js';
import { field, instant, text } from './event-object.js';
import { amountOf, type Classified, type KindInput } from './kind-input.js';
import { subscriptionEnding } from './repo/subscriptions.js';

const LIVE = ['active', 'trialing', 'past_due'];
/** Why the billing engine ends a subscription that could not be paid (dunning ran out, a trial ended without a way to pay). */
const UNPAID = 'CANCELLED_BY_PROVIDER';

const names = (object: Record<string, unknown>) => ({
  productName: text(field(object, 'product').name) ?? '',
  planName: text(field(object, 'plan').name) ?? '',
});

const endingOf = (input: KindInput, subscriptionId: string | null) =>
  subscriptionId ? subscriptionEnding(input.db, input.scope.environmentId, subscriptionId) : Promise.resolve(undefined);

/**
 * `invoice.payment_failed`: the first failure of a renewal's payment, or a retry's. When no
 * attempt follows because the subscription was cancelled for it, the cancellation's email
 * says so (cancelled_unpaid), and this one is not written.
 */
export async function paymentFailed(input: KindInput): Promise<Classified | null> {
  const { object } = input;
  const next = instant(object.next_payment_attempt);
  if (!next) {
    const ending = await endingOf(input, text(object.subscription_id));
    if (ending?.status === 'canceled' && ending.cancellation_reason === UNPAID) return null;
  }
  const retry = typeof object.attempt_count === 'number' && object.attempt_count > 1;
  return {
    kind: retry ? 'payment_retry_failed' : 'payment_failed',
    render: async () => {
      const [seller, format, amount] = await Promise.all([input.seller(), input.format(), amountOf(input)]);
      const failedAt = instant(object.modified_on);
      const firstFailedAt = instant(object.created_on);
      const facts = {
        amount,
        productName: text(field(object, 'product').name) ?? '',
        paymentLink: text(object.payment_link),
        linkUntil: failedAt ? format.date(payLinkExpiry(failedAt)) : null,
        nextTry: next ? format.date(next) : null,
        finalTry: next !== null && firstFailedAt !== null && isLastAttempt(input.dunning, firstFailedAt, next),
      };
      return { ...(retry ? retryFailedEmail(seller, format, facts) : paymentFailedEmail(seller, format, facts)), attachments: [] };
    },
  };
}

/**
 * `subscription.cancelled` (status canceled; a plan change's superseded record gets none): for
 * non-payment, with immediate effect (cancelled when it ended), or at the end it was set to.
 */
export async function subscriptionCancelled(input: KindInput): Promise<Classified | null> {
  const { object, previous } = input;
  if (object.status !== 'canceled') return null;
  const ending = await endingOf(input, text(object.id));
  if (!ending) return null;
  const endedAt = ending.end_date ?? instant(object.modified_on) ?? new Date(0);
  if (ending.cancellation_reason === UNPAID) {
    return {
      kind: 'cancelled_unpaid',
      render: async () => {
        const [seller, format] = await Promise.all([input.seller(), input.format()]);
        return { ...cancelledUnpaidEmail(seller, format, { ...names(object), afterTrial: previous.status === 'trialing' }), attachments: [] };
      },
    };
  }
  if (ending.canceled_at && ending.canceled_at.getTime() >= endedAt.getTime()) {
    return {
      kind: 'subscription_cancelled',
      render: async () => {
        const [seller, format] = await Promise.all([input.seller(), input.format()]);
        return { ...subscriptionCancelledEmail(seller, format, { ...names(object), date: format.date(endedAt) }), attachments: [] };
      },
    };
  }
  return {
    kind: 'subscription_ended',
    render: async () => {
      const [seller, format] = await Promise.all([input.seller(), input.format()]);
      return { ...cancelledEmail(seller, format, names(object)), attachments: [] };
    },
  };
}

/** Where a cancellation set for later ends: its period's end when that is the day it names, else that day's start (UTC). */
function scheduledEnd(object: Record<string, unknown>, day: string): Date {
  const candidates = [instant(object.billing_period_end_time), instant(object.trial_end)];
  return candidates.find((at) => at && at.toISOString().slice(0, 10) === day) ?? new Date(`${day}T00:00:00Z`);
}

/** `subscription.updated` that sets an end date where there was none: a cancellation set for later. */
export async function cancellationScheduled(input: KindInput): Promise<Classified | null> {
  const { object, previous } = input;
  const day = text(object.end_date);
  if (!('end_date' in previous) || previous.end_date !== null || !day || !LIVE.includes(String(object.status))) return null;
  const endsAt = scheduledEnd(object, day);
  return {
    kind: 'cancellation_scheduled',
    render: async () => {
      const [seller, format] = await Promise.all([input.seller(), input.format()]);
      return { ...cancellationScheduledEmail(seller, format, { ...names(object), date: format.date(endsAt) }), attachments: [] };
    },
  };
}
