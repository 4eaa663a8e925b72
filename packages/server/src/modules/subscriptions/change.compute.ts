import type { SubscriptionUpdate } from '@billow/contract';
import { addPeriod, isRecurring } from '../billing/billing-periods.compute.js';
import { prorate } from '../billing/proration.compute.js';
import type { SubscriptionRow } from './repo.js';
import {
  changeNotRecurring,
  invalidTrialEnd,
  notUpdatable,
  oneTimePurchaseNotUpdatable,
  unsupportedPaymentBehavior,
} from './errors.js';

const LIVE = ['active', 'trialing', 'past_due'];

/** Why the subscription can't take this change, as a 400; nothing when it can. */
export function assertChangeable(row: SubscriptionRow, input: SubscriptionUpdate): void {
  if (!LIVE.includes(row.status)) {
    throw notUpdatable(row.status);
  }
  if (row.charge_period === 'ONE_TIME') {
    throw oneTimePurchaseNotUpdatable();
  }
  if (!isRecurring(input.chargePeriod)) {
    throw changeNotRecurring(input.chargePeriod);
  }
  if (input.paymentBehavior && input.paymentBehavior !== 'activate_on_payment') {
    throw unsupportedPaymentBehavior();
  }
}

/** The trial end a change asks for: kept, ended ("now"), or moved to a date in the future. */
function trialEndOf(row: SubscriptionRow, input: SubscriptionUpdate, now: Date): Date | null {
  if (input.trialEnd === 'now') return null;
  if (!input.trialEnd) return row.status === 'trialing' ? row.trial_end : null;
  const at = new Date(/[zZ]|[+-]\d\d:?\d\d$/.test(input.trialEnd) ? input.trialEnd : `${input.trialEnd}Z`);
  if (Number.isNaN(at.getTime()) || at.getTime() <= now.getTime()) {
    throw invalidTrialEnd();
  }
  return at;
}

export interface ChangeTerms {
  trialEnd: Date | null;
  periodStart: Date;
  periodEnd: Date | null;
  /** What the change costs now, before customer credit. */
  dueMinor: number;
  /** What the change gives back as customer credit (a downgrade within the period). */
  creditMinor: number;
}

/**
 * The periods and the money of a change of plan or period at `now`: a trial runs on
 * without charge; a new period (or the end of a trial) charges the new price whole; the
 * same period is prorated, unless NEXT_BILLING_CYCLE defers the difference.
 */
export function changeTerms(row: SubscriptionRow, input: SubscriptionUpdate, newAmountMinor: number, now: Date): ChangeTerms {
  const trialEnd = trialEndOf(row, input, now);
  const trialing = trialEnd !== null;
  const samePeriod = input.chargePeriod === row.charge_period;
  const periodStart = trialing || !samePeriod ? now : (row.current_period_start ?? now);
  const periodEnd = trialing
    ? trialEnd
    : samePeriod
      ? (row.current_period_end ?? addPeriod(now, input.chargePeriod))
      : addPeriod(now, input.chargePeriod);
  if (trialing) return { trialEnd, periodStart, periodEnd, dueMinor: 0, creditMinor: 0 };
  if (row.status === 'trialing' || !samePeriod) return { trialEnd, periodStart, periodEnd, dueMinor: newAmountMinor, creditMinor: 0 };
  if ((input.probationBehaviour ?? 'IMMEDIATE_CHARGE') === 'NEXT_BILLING_CYCLE') {
    return { trialEnd, periodStart, periodEnd, dueMinor: 0, creditMinor: 0 };
  }
  const { netMinor } = prorate({
    oldAmountMinor: row.amount_minor,
    newAmountMinor,
    periodStart: row.current_period_start ?? now,
    periodEnd: row.current_period_end ?? now,
    at: now,
  });
  return { trialEnd, periodStart, periodEnd, dueMinor: Math.max(0, netMinor), creditMinor: Math.max(0, -netMinor) };
}
