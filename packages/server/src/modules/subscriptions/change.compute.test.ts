import { describe, expect, it } from 'vitest';
import type { SubscriptionUpdate } from '@billow/contract';
import { DomainError } from '../../lib/domain-error.js';
import type { Quote } from '../billing/types.js';
import { assertChangeable, changeTerms, creditApplied, type ChangePricing } from './change.compute.js';
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

/** A quote of the new plan for one period: `amount` before discount, at `rateBp`, EXCLUSIVE unless told. */
function quote(amount: number, extra: Partial<Quote> = {}): Quote {
  return {
    currency: 'USD',
    chargePeriod: 'MONTHLY',
    lines: [],
    subtotalMinor: amount,
    discountMinor: 0,
    taxMinor: 0,
    totalMinor: amount,
    taxRateBp: 0,
    taxBehavior: 'EXCLUSIVE',
    taxCountry: null,
    ...extra,
  };
}

const priced = (amount: number, extra: Partial<ChangePricing> = {}): ChangePricing => ({ quote: quote(amount), usage: null, oldName: 'Basic', newName: 'Pro', ...extra });
const money = (terms: ReturnType<typeof changeTerms>) => ({ due: terms.dueMinor, credit: terms.creditMinor, lines: terms.bill?.lines.map((l) => [l.description, l.amountMinor]) });

describe('the terms of a change of plan', () => {
  it('prorates the same period: the new price for the rest of it, paid first by the unused part of the old one', () => {
    const terms = changeTerms(row(), change(), priced(2_000), halfway);
    // The unused time is no line of the change's invoice: its credit note gives it back, and that credit pays.
    expect(terms).toMatchObject({ trialEnd: null, periodStart: start, periodEnd: end, dueMinor: 1_000, creditMinor: 500 });
    expect(terms.unused).toMatchObject({ description: 'Unused time on Basic (MONTHLY)', amountMinor: -500, kind: 'unused' });
    expect(money(terms).lines).toEqual([['Pro (MONTHLY) for the rest of the period', 1_000]]);
    expect(creditApplied(terms, 0)).toBe(500);
    expect(creditApplied(terms, 800)).toBe(1_000);
  });

  it('turns a downgrade within the period into credit, and defers the difference with NEXT_BILLING_CYCLE', () => {
    const downgrade = changeTerms(row(), change(), priced(400), halfway);
    // 2.00 for the rest of the period, paid by the 5.00 given back: 3.00 stays as credit.
    expect(downgrade).toMatchObject({ dueMinor: 200, creditMinor: 500 });
    expect(creditApplied(downgrade, 0)).toBe(200);
    expect(changeTerms(row(), change({ probationBehaviour: 'NEXT_BILLING_CYCLE' }), priced(2_000), halfway)).toMatchObject({ bill: null, dueMinor: 0, creditMinor: 0 });
  });

  it('credits the unused time and charges a whole new period when the charge period changes, or a trial ends now', () => {
    const terms = changeTerms(row(), change({ chargePeriod: 'YEARLY' }), priced(12_000), halfway);
    expect(terms).toMatchObject({ trialEnd: null, periodStart: halfway, periodEnd: new Date('2027-04-16T00:00:00.000Z'), dueMinor: 12_000, creditMinor: 500 });
    expect(money(terms).lines).toEqual([['Pro (YEARLY)', 12_000]]);
    expect(12_000 - creditApplied(terms, 0)).toBe(11_500);
    const trialing = row({ status: 'trialing', trial_end: end });
    expect(changeTerms(trialing, change({ trialEnd: 'now' }), priced(2_000), halfway)).toMatchObject({ trialEnd: null, dueMinor: 2_000 });
  });

  it('taxes the difference, credits what was paid net of its tax, and prorates the discount', () => {
    // 27.61 paid for the month (23.20 + 19 % VAT); a year at 90.00 with 20 % off, a quarter of the month in.
    const paid = row({ amount_minor: 2_761, current_period_start: start, current_period_end: end });
    const yearly = quote(9_000, { discountMinor: 1_800, taxRateBp: 1_900, totalMinor: 8_568 });
    const quarter = new Date('2026-04-08T12:00:00.000Z');
    const terms = changeTerms(paid, change({ chargePeriod: 'YEARLY' }), { ...priced(0), quote: yearly }, quarter);
    // The year: 90.00 − 18.00 = 72.00, VAT 13.68, 85.68. Unused: 23.20 × 22.5 / 30 = 17.40, VAT 3.306 → 3.31, 20.71 back.
    expect(terms.bill).toMatchObject({ subtotalMinor: 9_000, discountMinor: 1_800, taxMinor: 1_368, totalMinor: 8_568 });
    expect(terms).toMatchObject({ dueMinor: 8_568, creditMinor: 2_071 });
    expect(8_568 - creditApplied(terms, 0)).toBe(6_497);
    const monthly = changeTerms(paid, change(), { ...priced(0), quote: quote(2_900, { discountMinor: 580, taxRateBp: 1_900 }) }, quarter);
    // The rest of the month of the same plan costs what its unused time gives back: nothing is charged.
    expect(monthly.bill).toMatchObject({ subtotalMinor: 2_175, discountMinor: 435, taxMinor: 331, totalMinor: 2_071 });
    expect(monthly.creditMinor).toBe(2_071);
    const downgrade = changeTerms(paid, change(), { ...priced(0), quote: quote(1_000, { taxRateBp: 1_900 }) }, quarter);
    // 20.71 back pays 8.93 for the rest of the month (7.50 and its VAT): 11.78 stays as credit.
    expect(downgrade).toMatchObject({ dueMinor: 893, creditMinor: 2_071 });
    expect(downgrade.creditMinor - creditApplied(downgrade, 0)).toBe(1_178);
  });

  it('bills the usage of the period the change cuts short on the same invoice', () => {
    const usage = quote(7_707, { lines: [{ description: 'API calls: 7707 used', featureId: 'calls', quantity: 7_707, amountMinor: 7_707 }] });
    const terms = changeTerms(row(), change(), priced(400, { usage }), halfway);
    expect(money(terms)).toEqual({
      due: 7_907,
      credit: 500,
      lines: [
        ['Pro (MONTHLY) for the rest of the period', 200],
        ['API calls: 7707 used', 7_707],
      ],
    });
    expect(7_907 - creditApplied(terms, 0)).toBe(7_407);
  });

  it('keeps a trial running without charge, or moves its end to a future date', () => {
    const trialing = row({ status: 'trialing', trial_end: end });
    expect(changeTerms(trialing, change(), priced(2_000), halfway)).toEqual({ trialEnd: end, periodStart: halfway, periodEnd: end, bill: null, dueMinor: 0, creditMinor: 0 });
    const later = new Date('2026-06-01T00:00:00.000Z');
    expect(changeTerms(row(), change({ trialEnd: '2026-06-01T00:00:00' }), priced(2_000), halfway)).toMatchObject({ trialEnd: later, periodEnd: later, dueMinor: 0 });
    expect(() => changeTerms(row(), change({ trialEnd: '2026-04-01T00:00:00Z' }), priced(2_000), halfway)).toThrow(/in the future/);
  });
});

describe('what can change', () => {
  it.each([
    [row({ status: 'canceled' }), change(), /only an active or trialing/],
    [row({ charge_period: 'ONE_TIME' }), change(), /one-time purchase/],
    [row(), change({ chargePeriod: 'ONE_TIME' }), /not recurring/],
    [row(), change({ paymentBehavior: 'pay_later' as never }), /activate_on_payment/],
  ])('refuses %#', (subscription, input, message) => {
    expect(() => assertChangeable(subscription, input)).toThrow(DomainError);
    expect(() => assertChangeable(subscription, input)).toThrow(message);
  });

  it('lets a live recurring subscription change', () => {
    expect(() => assertChangeable(row({ status: 'past_due' }), change({ paymentBehavior: 'activate_on_payment' }))).not.toThrow();
  });
});
