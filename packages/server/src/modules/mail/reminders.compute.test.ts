import { describe, expect, it } from 'vitest';
import { CHARGE_PERIODS } from '../billing/billing-periods.compute.js';
import { cardExpiresAt, isYearlyOrLonger, plannedReminders, YEARLY_OR_LONGER, type RemindedSubscription, type ReminderDays } from './reminders.compute.js';

const at = (iso: string) => new Date(iso);
const DAYS: ReminderDays = { trial_ending: 3, upcoming_renewal: 7, card_expiring: 30 };

const yearly = (over: Partial<RemindedSubscription> = {}): RemindedSubscription => ({
  status: 'active',
  chargePeriod: 'YEARLY',
  startDate: at('2027-01-15T10:00:00Z'),
  currentPeriodStart: at('2027-01-15T10:00:00Z'),
  currentPeriodEnd: at('2028-01-15T10:00:00Z'),
  trialEnd: null,
  endDate: null,
  ...over,
});

const trialing = (over: Partial<RemindedSubscription> = {}): RemindedSubscription =>
  yearly({ status: 'trialing', currentPeriodStart: null, currentPeriodEnd: null, trialEnd: at('2027-01-29T10:00:00Z'), ...over });

const plain = (list: ReturnType<typeof plannedReminders>) => list.map((r) => ({ kind: r.kind, occasion: r.occasion.toISOString(), at: r.at.toISOString() }));

describe('plannedReminders', () => {
  it('announces a trial end its days before, and the first charge is the trial end', () => {
    expect(plain(plannedReminders(trialing(), null, DAYS))).toEqual([
      { kind: 'trial_ending', occasion: '2027-01-29T10:00:00.000Z', at: '2027-01-26T10:00:00.000Z' },
    ]);
  });

  it('announces a yearly renewal its days before; a monthly one is not announced', () => {
    expect(plain(plannedReminders(yearly(), null, DAYS))).toEqual([
      { kind: 'upcoming_renewal', occasion: '2028-01-15T10:00:00.000Z', at: '2028-01-08T10:00:00.000Z' },
    ]);
    const monthly = yearly({ chargePeriod: 'MONTHLY', currentPeriodEnd: at('2027-02-15T10:00:00Z') });
    expect(plannedReminders(monthly, null, DAYS)).toEqual([]);
  });

  it('warns of a card that expires before the next charge, its days before the card expires', () => {
    const planned = plain(plannedReminders(yearly(), { expMonth: 6, expYear: 2027 }, DAYS));
    expect(planned).toEqual([
      // The card stops working on 1 July 2027: thirty days before.
      { kind: 'card_expiring', occasion: '2028-01-15T10:00:00.000Z', at: '2027-06-01T00:00:00.000Z' },
      { kind: 'upcoming_renewal', occasion: '2028-01-15T10:00:00.000Z', at: '2028-01-08T10:00:00.000Z' },
    ]);
    // A card that lasts past the renewal needs no warning.
    expect(plannedReminders(yearly(), { expMonth: 1, expYear: 2028 }, DAYS).map((r) => r.kind)).toEqual(['upcoming_renewal']);
  });

  it('never before the period (or trial) began: a short trial, a card already expired', () => {
    const short = trialing({ trialEnd: at('2027-01-16T10:00:00Z') });
    expect(plain(plannedReminders(short, null, DAYS))[0]!.at).toBe('2027-01-15T10:00:00.000Z');
    const expired = plain(plannedReminders(yearly(), { expMonth: 12, expYear: 2026 }, DAYS));
    expect(expired.find((r) => r.kind === 'card_expiring')!.at).toBe('2027-01-15T10:00:00.000Z');
  });

  it('nothing for a subscription that will not be charged: set to end by then, past due, canceled; nothing for a kind switched off', () => {
    expect(plannedReminders(yearly({ endDate: at('2028-01-15T10:00:00Z') }), { expMonth: 6, expYear: 2027 }, DAYS)).toEqual([]);
    expect(plannedReminders(trialing({ endDate: at('2027-01-29T10:00:00Z') }), null, DAYS)).toEqual([]);
    expect(plannedReminders(yearly({ status: 'past_due' }), null, DAYS)).toEqual([]);
    expect(plannedReminders(yearly({ status: 'canceled' }), null, DAYS)).toEqual([]);
    expect(plannedReminders(yearly(), { expMonth: 6, expYear: 2027 }, { ...DAYS, upcoming_renewal: null }).map((r) => r.kind)).toEqual(['card_expiring']);
    // An end set for after the renewal leaves the renewal announced.
    expect(plannedReminders(yearly({ endDate: at('2028-03-01T00:00:00Z') }), null, DAYS).map((r) => r.kind)).toEqual(['upcoming_renewal']);
  });
});

describe('helpers', () => {
  it('a card works until the end of its month', () => {
    expect(cardExpiresAt({ expMonth: 12, expYear: 2027 }).toISOString()).toBe('2028-01-01T00:00:00.000Z');
    expect(cardExpiresAt({ expMonth: 2, expYear: 2028 }).toISOString()).toBe('2028-03-01T00:00:00.000Z');
  });

  it('yearly or longer: the periods whose renewals are announced', () => {
    expect(YEARLY_OR_LONGER).toEqual(CHARGE_PERIODS.filter(isYearlyOrLonger));
    expect(YEARLY_OR_LONGER).toContain('YEARLY');
    for (const period of ['MONTHLY', 'QUARTERLY', 'SIX_MONTHS', 'WEEKLY', 'ONE_TIME']) expect(isYearlyOrLonger(period)).toBe(false);
  });
});
