import { describe, expect, it } from 'vitest';
import { ConfigError, DEFAULT_DUNNING_RETRY_DAYS as DEFAULT_DUNNING_DAYS, parseDunningDays } from '../../config.js';
import { dueItems, nextAttemptAt, nextDueItem, periodEndAfter, type TimedSubscription } from './renewal.compute.js';

const at = (iso: string) => new Date(iso);
const active = (over: Partial<TimedSubscription> = {}): TimedSubscription => ({
  status: 'active',
  chargePeriod: 'MONTHLY',
  currentPeriodEnd: at('2027-02-01T00:00:00Z'),
  trialEnd: null,
  endDate: null,
  ...over,
});

describe('periodEndAfter', () => {
  it('keeps a month-end anchor across short months and leap years', () => {
    const anchor = at('2028-01-31T10:00:00Z');
    const feb = periodEndAfter(anchor, 'MONTHLY', anchor);
    expect(feb.toISOString()).toBe('2028-02-29T10:00:00.000Z');
    const mar = periodEndAfter(anchor, 'MONTHLY', feb);
    expect(mar.toISOString()).toBe('2028-03-31T10:00:00.000Z');
    expect(periodEndAfter(anchor, 'MONTHLY', mar).toISOString()).toBe('2028-04-30T10:00:00.000Z');
    expect(periodEndAfter(at('2027-01-31T00:00:00Z'), 'MONTHLY', at('2027-01-31T00:00:00Z')).toISOString()).toBe(
      '2027-02-28T00:00:00.000Z',
    );
  });

  it('gives a leap day a yearly renewal on Feb 28, and Feb 29 again four years on', () => {
    const anchor = at('2028-02-29T00:00:00Z');
    const first = periodEndAfter(anchor, 'YEARLY', anchor);
    expect(first.toISOString()).toBe('2029-02-28T00:00:00.000Z');
    let end = first;
    for (let i = 0; i < 3; i++) end = periodEndAfter(anchor, 'YEARLY', end);
    expect(end.toISOString()).toBe('2032-02-29T00:00:00.000Z');
  });

  it('finds the period after a start far from the anchor, for days and weeks too', () => {
    const anchor = at('2027-01-01T00:00:00Z');
    expect(periodEndAfter(anchor, 'DAILY', at('2027-03-05T00:00:00Z')).toISOString()).toBe('2027-03-06T00:00:00.000Z');
    expect(periodEndAfter(anchor, 'WEEKLY', at('2027-01-09T12:00:00Z')).toISOString()).toBe('2027-01-15T00:00:00.000Z');
    expect(periodEndAfter(anchor, 'MONTHLY', at('2029-06-01T00:00:00Z')).toISOString()).toBe('2029-07-01T00:00:00.000Z');
  });
});

describe('dueItems', () => {
  it('renews an active subscription at its period end, and nothing before', () => {
    expect(nextDueItem(active(), null, at('2027-01-31T23:59:59Z'))).toBeNull();
    expect(nextDueItem(active(), null, at('2027-02-01T00:00:00Z'))).toEqual({ kind: 'renew', at: at('2027-02-01T00:00:00Z') });
  });

  it('ends instead of renewing when the end falls on the period end', () => {
    const ending = active({ endDate: at('2027-02-01T00:00:00Z') });
    expect(dueItems(ending, null, at('2027-03-01T00:00:00Z')).map((i) => i.kind)).toEqual(['end', 'renew']);
  });

  it('ends a trial at its trial end; never renews a trialing or finished subscription', () => {
    const trialing = active({ status: 'trialing', trialEnd: at('2027-01-08T00:00:00Z') });
    expect(nextDueItem(trialing, null, at('2027-03-01T00:00:00Z'))?.kind).toBe('trial_end');
    expect(nextDueItem(active({ status: 'canceled' }), null, at('2030-01-01T00:00:00Z'))).toBeNull();
    expect(nextDueItem(active({ status: 'superseded' }), null, at('2030-01-01T00:00:00Z'))).toBeNull();
  });

  it('tries an unpaid invoice again when its attempt is due, in time order with the rest', () => {
    const pastDue = active({ status: 'past_due', currentPeriodEnd: at('2027-03-01T00:00:00Z') });
    const unpaid = { id: 'INV-1', nextAttemptAt: at('2027-02-02T00:00:00Z') };
    expect(dueItems(pastDue, unpaid, at('2027-03-01T00:00:00Z')).map((i) => i.kind)).toEqual(['collect', 'renew']);
  });
});

describe('dunning', () => {
  const first = at('2027-02-01T00:00:00Z');
  const failed = (attempts: number, failedAt: Date, code: string | null = 'card_declined') => ({
    attempts,
    firstFailedAt: first,
    failedAt,
    code,
  });

  it('retries eight times over fourteen days by default, then gives up', () => {
    const dates: string[] = [];
    let attempts = 1;
    let when: Date | null = first;
    while (when) {
      when = nextAttemptAt(DEFAULT_DUNNING_DAYS, failed(attempts, when));
      if (when) dates.push(when.toISOString().slice(0, 10));
      attempts++;
    }
    expect(dates).toEqual(['2027-02-02', '2027-02-03', '2027-02-04', '2027-02-06', '2027-02-08', '2027-02-10', '2027-02-12', '2027-02-15']);
  });

  it('waits for the end of the schedule after a hard decline, without retries between', () => {
    expect(nextAttemptAt(DEFAULT_DUNNING_DAYS, failed(1, first, 'stolen_card'))?.toISOString()).toBe('2027-02-15T00:00:00.000Z');
    expect(nextAttemptAt(DEFAULT_DUNNING_DAYS, failed(2, at('2027-02-15T00:00:00Z'), 'stolen_card'))).toBeNull();
  });

  it('counts an attempt made late as the last when the schedule has no later date', () => {
    expect(nextAttemptAt([1, 2], failed(2, at('2027-02-05T00:00:00Z')))).toBeNull();
    expect(nextAttemptAt([], failed(1, first))).toBeNull();
  });

  it('reads a schedule from configuration, refusing anything but increasing whole days', () => {
    expect(parseDunningDays('1, 3,7')).toEqual([1, 3, 7]);
    expect(parseDunningDays(undefined)).toEqual(DEFAULT_DUNNING_DAYS);
    for (const bad of ['1,1', '3,2', '0', '1.5', 'x', '400']) expect(() => parseDunningDays(bad)).toThrow(ConfigError);
  });
});
