/**
 * What time does to a subscription (decision 0029): which of its dated events
 * comes next, where its next period ends, and when an unpaid invoice is tried
 * again. Pure; all arithmetic in UTC.
 */
import { DAY_MS } from '../../lib/time.js';
import { addPeriod } from './billing-periods.compute.js';

/** The subscription fields that time acts on. */
export interface TimedSubscription {
  status: string;
  chargePeriod: string;
  currentPeriodEnd: Date | null;
  trialEnd: Date | null;
  endDate: Date | null;
}

/** An unpaid renewal invoice of the subscription, when it has one. */
export interface UnpaidInvoice {
  id: string;
  nextAttemptAt: Date | null;
}

export type DueItem =
  /** A cancellation scheduled for this date takes effect. */
  | { kind: 'end'; at: Date }
  /** The trial is over: the first paid period begins. */
  | { kind: 'trial_end'; at: Date }
  /** The period is over: the next one is billed. */
  | { kind: 'renew'; at: Date }
  /** Dunning: the unpaid invoice is tried again, or, out of attempts, the subscription ends. */
  | { kind: 'collect'; at: Date; invoiceId: string };

const LIVE = new Set(['active', 'trialing', 'past_due']);

/** Ties are broken in this order: an end wins over a renewal at the same instant, so it never bills. */
const PRIORITY: Record<DueItem['kind'], number> = { end: 0, collect: 1, trial_end: 2, renew: 3 };

/** Everything that falls due for the subscription by `at`, earliest first. */
export function dueItems(subscription: TimedSubscription, unpaid: UnpaidInvoice | null, at: Date): DueItem[] {
  if (!LIVE.has(subscription.status)) return [];
  const items: DueItem[] = [];
  const by = at.getTime();
  if (subscription.endDate && subscription.endDate.getTime() <= by) items.push({ kind: 'end', at: subscription.endDate });
  if (subscription.status === 'trialing') {
    if (subscription.trialEnd && subscription.trialEnd.getTime() <= by) items.push({ kind: 'trial_end', at: subscription.trialEnd });
  } else if (subscription.currentPeriodEnd && subscription.currentPeriodEnd.getTime() <= by) {
    items.push({ kind: 'renew', at: subscription.currentPeriodEnd });
  }
  if (unpaid?.nextAttemptAt && unpaid.nextAttemptAt.getTime() <= by) {
    items.push({ kind: 'collect', at: unpaid.nextAttemptAt, invoiceId: unpaid.id });
  }
  return items.sort((a, b) => a.at.getTime() - b.at.getTime() || PRIORITY[a.kind] - PRIORITY[b.kind]);
}

/** The earliest item due by `at`, or null when nothing is. */
export function nextDueItem(subscription: TimedSubscription, unpaid: UnpaidInvoice | null, at: Date): DueItem | null {
  return dueItems(subscription, unpaid, at)[0] ?? null;
}

/**
 * Where the period that begins at `periodStart` ends: the first anniversary of
 * `anchor` after it, so that an anchor on the 31st gives Feb 28 (29), then Mar 31.
 */
export function periodEndAfter(anchor: Date, chargePeriod: string, periodStart: Date): Date {
  const approxPeriodMs = addPeriod(anchor, chargePeriod).getTime() - anchor.getTime();
  let count = Math.max(1, Math.floor((periodStart.getTime() - anchor.getTime()) / approxPeriodMs));
  while (count > 1 && addPeriod(anchor, chargePeriod, count - 1).getTime() > periodStart.getTime()) count--;
  while (addPeriod(anchor, chargePeriod, count).getTime() <= periodStart.getTime()) count++;
  return addPeriod(anchor, chargePeriod, count);
}

/** When a failed invoice is tried again: days after its first failure, one entry an attempt. */
export type DunningSchedule = readonly number[];

/** Declines that trying again cannot turn into a payment: the card is reported lost or stolen, or closed. */
const HARD_DECLINES = new Set(['stolen_card', 'lost_card', 'pickup_card', 'card_closed', 'fraudulent']);

export function isHardDecline(code: string | null): boolean {
  return code !== null && HARD_DECLINES.has(code);
}

export interface FailedAttempt {
  /** Attempts made so far, the failed one included. */
  attempts: number;
  /** When the invoice first failed. */
  firstFailedAt: Date;
  /** When this attempt failed. */
  failedAt: Date;
  code: string | null;
}

/**
 * When to try again after a failed attempt, or null when dunning is over and the
 * subscription ends. A hard decline is not retried on its own: the invoice waits
 * for the end of the schedule, for a new payment method or a payment by hand.
 */
export function nextAttemptAt(schedule: DunningSchedule, failed: FailedAttempt): Date | null {
  const last = schedule[schedule.length - 1];
  if (last === undefined) return null;
  const retriesMade = failed.attempts - 1;
  if (retriesMade >= schedule.length) return null;
  const days = isHardDecline(failed.code) ? last : schedule[retriesMade]!;
  const next = new Date(failed.firstFailedAt.getTime() + days * DAY_MS);
  // An attempt made late (by hand, or with a new method) may be past the schedule's next date: then it was the last.
  return next.getTime() > failed.failedAt.getTime() ? next : null;
}

/**
 * Whether the attempt scheduled at `next`, for an invoice that first failed at
 * `firstFailedAt`, is the last the schedule makes (a hard decline's waits for the last
 * day): should it fail, dunning is over (decision 0070).
 */
export function isLastAttempt(schedule: DunningSchedule, firstFailedAt: Date, next: Date): boolean {
  const last = schedule[schedule.length - 1];
  return last === undefined || next.getTime() >= firstFailedAt.getTime() + last * DAY_MS;
}
