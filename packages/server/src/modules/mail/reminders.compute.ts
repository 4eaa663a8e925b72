/**
 * When a subscription's timed reminders fall due (decision 0071). Pure: the instants come
 * from the subscription as it stands, the card that will pay its next charge and the
 * environment's settings; the caller leaves out those already recorded and those not due yet.
 */
import { DAY_MS } from '../../lib/time.js';
import { addPeriod, CHARGE_PERIODS, isRecurring } from '../billing/billing-periods.compute.js';

export type ReminderKind = 'trial_ending' | 'upcoming_renewal' | 'card_expiring';

/** The subscription's fields reminders read. */
export interface RemindedSubscription {
  status: string;
  chargePeriod: string;
  startDate: Date;
  currentPeriodStart: Date | null;
  currentPeriodEnd: Date | null;
  trialEnd: Date | null;
  endDate: Date | null;
}

/** The card its next charge will be taken from (expiry month 1 to 12). */
export interface CardOnFile {
  expMonth: number;
  expYear: number;
}

/** Days before what it announces that each reminder is sent; null: that kind is switched off. */
export type ReminderDays = Record<ReminderKind, number | null>;

export interface PlannedReminder {
  kind: ReminderKind;
  /** The instant announced: the trial's end or the renewal (a reminder's key, with its subscription and kind). */
  occasion: Date;
  /** When it falls due. */
  at: Date;
}

const REFERENCE_DAY = new Date(Date.UTC(2001, 0, 1));

/** Whether a charge period lasts a year or more (a yearly plan's renewal is announced; a monthly one's is not). */
export function isYearlyOrLonger(chargePeriod: string): boolean {
  return isRecurring(chargePeriod) && addPeriod(REFERENCE_DAY, chargePeriod).getTime() >= addPeriod(REFERENCE_DAY, 'YEARLY').getTime();
}

/** The charge periods whose renewals are announced. */
export const YEARLY_OR_LONGER: readonly string[] = CHARGE_PERIODS.filter(isYearlyOrLonger);

/** The first instant a card no longer works: the start of the month after its expiry month (UTC). */
export function cardExpiresAt(card: CardOnFile): Date {
  return new Date(Date.UTC(card.expYear, card.expMonth, 1));
}

/** The next charge and the period it closes: for a trial, its end; for an active subscription, its period end. */
function nextCharge(s: RemindedSubscription): { at: Date; periodStart: Date } | null {
  if (s.status === 'trialing' && s.trialEnd) return { at: s.trialEnd, periodStart: s.startDate };
  if (s.status === 'active' && s.currentPeriodEnd) return { at: s.currentPeriodEnd, periodStart: s.currentPeriodStart ?? s.startDate };
  return null;
}

/**
 * The reminders of the subscription's next charge, whether due or not: each `days` before
 * what it announces, but never before the period (or trial) began. None when nothing will
 * be charged (not trialing nor active, or set to end by then).
 */
export function plannedReminders(s: RemindedSubscription, card: CardOnFile | null, days: ReminderDays): PlannedReminder[] {
  const charge = nextCharge(s);
  if (!charge || (s.endDate && s.endDate.getTime() <= charge.at.getTime())) return [];
  const planned: PlannedReminder[] = [];
  const plan = (kind: ReminderKind, from: Date) => {
    const d = days[kind];
    if (d === null) return;
    const at = new Date(Math.max(from.getTime() - d * DAY_MS, charge.periodStart.getTime()));
    if (at.getTime() < charge.at.getTime()) planned.push({ kind, occasion: charge.at, at });
  };
  if (s.status === 'trialing') plan('trial_ending', charge.at);
  if (s.status === 'active' && isYearlyOrLonger(s.chargePeriod)) plan('upcoming_renewal', charge.at);
  const expires = card ? cardExpiresAt(card) : null;
  if (expires && expires.getTime() <= charge.at.getTime()) plan('card_expiring', expires);
  return planned.sort((a, b) => a.at.getTime() - b.at.getTime());
}

/** A reminder's identity: its subscription, kind and occasion. */
export const reminderKey = (subscriptionId: string, kind: string, occasion: Date): string => `${subscriptionId}|${kind}|${occasion.getTime()}`;
