import { describe, expect, it } from 'vitest';
import type { SubscriptionUpdate } from '@billow/contract';
import { ApiError } from '../../http/errors.js';
import { assertChangeable, changeTerms } from './change.compute.js';
import type { SubscriptionRow } from './repo.js';

const start = new Date('2026-04-01T00:00:00.000Z');
const end = new Date('2026-05-01T00:00:00.000Z');
const halfway = new Date('2026-04-16T00:00:00.000Z');

function row(extra: Partial<SubscriptionRow> = {}): SubscriptionRow {
  return {
    status: 'active',
    charge_period: 'MONTHLY',
    amount_minor: 1_000,
    current_period_start: start,
    current_period_end: end,
    trial_end: null,
    ...extra,
  } as SubscriptionRow;
}

const change = (extra: Partial<SubscriptionUpdate> = {}) => ({ planIdentifier: 'pro', chargePeriod: 'MONTHLY', ...extra }) as SubscriptionUpdate;

describe('the terms of a change of plan', () => {
  it('prorates the same period: the new price for the rest of it, less the unused part of the old one', () => {
    expect(changeTerms(row(), change(), 2_000, halfway)).toEqual({ trialEnd: null, periodStart: start, periodEnd: end, dueMinor: 500, creditMinor: 0 });
  });

  it('turns a downgrade within the period into credit, and defers the difference with NEXT_BILLING_CYCLE', () => {
    expect(changeTerms(row(), change(), 400, halfway)).toMatchObject({ dueMinor: 0, creditMinor: 300 });
    expect(changeTerms(row(), change({ probationBehaviour: 'NEXT_BILLING_CYCLE' }), 2_000, halfway)).toMatchObject({ dueMinor: 0, creditMinor: 0 });
  });

  it('charges the whole new price for a new period, or when a trial ends now', () => {
    expect(changeTerms(row(), change({ chargePeriod: 'YEARLY' }), 12_000, halfway)).toEqual({
      trialEnd: null,
      periodStart: halfway,
      periodEnd: new Date('2027-04-16T00:00:00.000Z'),
      dueMinor: 12_000,
      creditMinor: 0,
    });
    const trialing = row({ status: 'trialing', trial_end: end });
    expect(changeTerms(trialing, change({ trialEnd: 'now' }), 2_000, halfway)).toMatchObject({ trialEnd: null, dueMinor: 2_000 });
  });

  it('keeps a trial running without charge, or moves its end to a future date', () => {
    const trialing = row({ status: 'trialing', trial_end: end });
    expect(changeTerms(trialing, change(), 2_000, halfway)).toEqual({ trialEnd: end, periodStart: halfway, periodEnd: end, dueMinor: 0, creditMinor: 0 });
    const later = new Date('2026-06-01T00:00:00.000Z');
    expect(changeTerms(row(), change({ trialEnd: '2026-06-01T00:00:00' }), 2_000, halfway)).toMatchObject({ trialEnd: later, periodEnd: later, dueMinor: 0 });
    expect(() => changeTerms(row(), change({ trialEnd: '2026-04-01T00:00:00Z' }), 2_000, halfway)).toThrow(/in the future/);
  });
});

describe('what can change', () => {
  it.each([
    [row({ status: 'canceled' }), change(), /only an active or trialing/],
    [row({ charge_period: 'ONE_TIME' }), change(), /one-time purchase/],
    [row(), change({ chargePeriod: 'ONE_TIME' }), /not recurring/],
    [row(), change({ paymentBehavior: 'pay_later' as never }), /activate_on_payment/],
  ])('refuses %#', (subscription, input, message) => {
    expect(() => assertChangeable(subscription, input)).toThrow(ApiError);
    expect(() => assertChangeable(subscription, input)).toThrow(message);
  });

  it('lets a live recurring subscription change', () => {
    expect(() => assertChangeable(row({ status: 'past_due' }), change({ paymentBehavior: 'activate_on_payment' }))).not.toThrow();
  });
});
