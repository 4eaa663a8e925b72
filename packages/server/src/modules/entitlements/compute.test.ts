import { describe, expect, it } from 'vitest';
import { computeEntitlements, meterTerms, meterState, type Grant, type GrantingSubscription, type Usage } from './compute.js';

const at = (iso: string) => new Date(iso);
const NOW = at('2026-03-10T12:00:00.000Z');

const grant = (featureType: Grant['featureType'], details: Record<string, unknown>, identifier = 'calls'): Grant => ({
  featureId: `id-${identifier}`,
  identifier,
  name: identifier,
  featureType,
  details,
  rawMeter: null,
});

const subscription = (grants: Grant[], extra: Partial<GrantingSubscription> = {}): GrantingSubscription => ({
  id: 'sub-1',
  startDate: at('2026-01-20T00:00:00.000Z'),
  currentPeriodStart: at('2026-02-20T00:00:00.000Z'),
  currentPeriodEnd: at('2026-03-20T00:00:00.000Z'),
  endDate: null,
  quantities: {},
  charges: {},
  grants,
  ...extra,
});

/** Usage by `${subscriptionId} ${periodStart ISO}`. */
const usageOf = (table: Record<string, Usage>) => (subscriptionId: string, _featureId: string, start: Date) =>
  table[`${subscriptionId} ${start.toISOString()}`];

const monthly = { reset: 'EVERY_MONTH', resetTime: 'BEGINNING_OF_PERIOD' };

describe('computeEntitlements', () => {
  it('makes one entry per subscription and feature, and filters by feature', () => {
    const subscriptions = [
      subscription([grant('BOOLEAN', { value: true }, 'sso'), grant('METER', { value: 10, ...monthly })]),
      subscription([grant('METER', { value: 5, reset: 'NEVER' })], { id: 'sub-2', startDate: at('2026-03-01T00:00:00.000Z') }),
    ];
    const usage = usageOf({ 'sub-2 2026-03-01T00:00:00.000Z': { value: 2 } });
    const all = computeEntitlements({ subscriptions, usage, at: NOW });
    expect(all.entitlements.map((e) => [e.featureId, e.usageLimit, e.currentUsage, e.resetAt])).toEqual([
      ['sso', null, null, null],
      ['calls', 10, 0, '2026-04-01 00:00:00'],
      ['calls', 5, 2, null],
    ]);
    expect(computeEntitlements({ subscriptions, usage, at: NOW, featureIdentifier: 'sso' }).entitlements).toHaveLength(1);
    expect(computeEntitlements({ subscriptions, usage, at: NOW, featureIdentifier: 'none' }).entitlements).toEqual([]);
  });

  it('adds purchased quantities, rounds values down and leaves unlimited meters without a limit', () => {
    const limited = subscription([grant('METER', { value: 10.9, ...monthly }), grant('CUSTOMIZABLE', { value: 3.7 }, 'projects')], {
      quantities: { 'id-calls': 4 },
    });
    const unlimited = subscription([grant('METER', { value: null, hasUnlimitedUsage: true, hardLimit: true, ...monthly })]);
    const usage = usageOf({ 'sub-1 2026-03-01T00:00:00.000Z': { value: 20 } });
    expect(computeEntitlements({ subscriptions: [limited], usage, at: NOW }).entitlements.map((e) => e.usageLimit)).toEqual([14, 3]);
    expect(computeEntitlements({ subscriptions: [unlimited], usage, at: NOW }).entitlements[0]).toMatchObject({
      usageLimit: null,
      remaining: null,
      currentUsage: 20,
      hasAccess: true,
    });
  });

  it('says until when the answer holds: the earliest period end or subscription end still ahead', () => {
    const subscriptions = [
      subscription([grant('METER', { value: 1, reset: 'EVERY_DAY', resetTime: 'BEGINNING_OF_PERIOD' })], { endDate: at('2026-03-10T18:00:00.000Z') }),
    ];
    const usage = usageOf({});
    expect(computeEntitlements({ subscriptions, usage, at: NOW }).validUntil).toBe(at('2026-03-10T18:00:00.000Z').getTime());
    expect(computeEntitlements({ subscriptions, usage, at: at('2026-03-10T19:00:00.000Z') }).validUntil).toBe(
      at('2026-03-11T00:00:00.000Z').getTime(),
    );
    expect(computeEntitlements({ subscriptions: [subscription([grant('BOOLEAN', { value: true })])], usage, at: NOW }).validUntil).toBeNull();
  });
});

describe('meterTerms', () => {
  it("lets the price's charge override the entitlement's reset, rollover and alerts", () => {
    const meter = grant('METER', {
      value: 100,
      ...monthly,
      rollover: { enabled: true, percentage: 10 },
      usageAlerts: { enabled: true, thresholds: [50], thresholdType: 'PERCENTAGE' },
    });
    const plain = meterTerms(subscription([meter]), meter, NOW);
    expect(plain).toMatchObject({ base: 100, rollover: { percentage: 10, limit: null }, alerts: { type: 'PERCENTAGE', thresholds: [50] } });
    expect(plain.window.end?.toISOString()).toBe('2026-04-01T00:00:00.000Z');
    const charged = subscription([meter], {
      charges: {
        'id-calls': {
          paymentType: 'ADVANCE_COMMITMENT',
          reset: 'EVERY_DAY',
          resetTime: 'SUBSCRIPTION_START',
          rollover: { enabled: false },
          usageAlerts: { enabled: true, thresholds: [7], thresholdType: 'BALANCE' },
        },
      },
    });
    const overridden = meterTerms(charged, meter, NOW);
    expect(overridden.window.start.toISOString()).toBe('2026-03-10T00:00:00.000Z');
    expect(overridden).toMatchObject({ rollover: null, alerts: { type: 'BALANCE', thresholds: [7] } });
  });

  it('follows the billing period for PAY_AS_YOU_GO and never rolls it over', () => {
    const meter = grant('METER', { value: 0, reset: 'EVERY_DAY', rollover: { enabled: true, percentage: 100 } });
    const payg = subscription([meter], { charges: { 'id-calls': { paymentType: 'PAY_AS_YOU_GO' } } });
    const terms = meterTerms(payg, meter, NOW);
    expect([terms.window.start.toISOString(), terms.window.end?.toISOString()]).toEqual(['2026-02-20T00:00:00.000Z', '2026-03-20T00:00:00.000Z']);
    expect(terms.rollover).toBeNull();
    // Renewals not run yet: the billing anniversaries follow the clock.
    const later = meterTerms(payg, meter, at('2026-04-25T00:00:00.000Z'));
    expect([later.window.start.toISOString(), later.window.end?.toISOString()]).toEqual(['2026-04-20T00:00:00.000Z', '2026-05-20T00:00:00.000Z']);
  });

  it('treats a missing reset as NEVER', () => {
    const meter = grant('METER', { value: 3, reset: null });
    expect(meterTerms(subscription([meter]), meter, NOW).window).toEqual({ start: at('2026-01-20T00:00:00.000Z'), end: null });
  });
});

describe('meterState', () => {
  const meter = grant('METER', { value: 1000, ...monthly, rollover: { enabled: true, percentage: 50, limit: 300 }, hardLimit: true });
  const terms = meterTerms(subscription([meter]), meter, NOW);

  it("rolls the previous period's unused allowance over, counting what it took over", () => {
    expect(terms.previous?.start.toISOString()).toBe('2026-02-01T00:00:00.000Z');
    expect(meterState(terms, undefined, { value: 900, rollover: 0 })).toMatchObject({ rollover: 50, usageLimit: 1050 });
    expect(meterState(terms, undefined, { value: 900, rollover: 200 })).toMatchObject({ rollover: 150, usageLimit: 1150 });
    expect(meterState(terms, undefined, undefined)).toMatchObject({ rollover: 300, usageLimit: 1300, remaining: 1300 });
    expect(meterState(terms, undefined, { value: 5000 })).toMatchObject({ rollover: 0, usageLimit: 1000 });
  });

  it("keeps the rollover the period's counter was made with", () => {
    expect(meterState(terms, { value: 10, rollover: 7 }, { value: 0 })).toMatchObject({ rollover: 7, usageLimit: 1007, remaining: 997 });
  });

  it('closes access at a hard limit only', () => {
    expect(meterState(terms, { value: 1000, rollover: 0 }, undefined).hasAccess).toBe(false);
    expect(meterState(terms, { value: 999, rollover: 0 }, undefined).hasAccess).toBe(true);
    const soft = { ...terms, hardLimit: false };
    expect(meterState(soft, { value: 5000, rollover: 0 }, undefined)).toMatchObject({ hasAccess: true, remaining: -4000 });
  });

  it('does not roll into the first period of a subscription', () => {
    const fresh = subscription([meter], { startDate: at('2026-03-05T00:00:00.000Z') });
    expect(meterTerms(fresh, meter, NOW).previous).toBeNull();
    const midPeriod = subscription([meter], { startDate: at('2026-02-15T00:00:00.000Z') });
    expect(meterTerms(midPeriod, meter, NOW).previous?.start.toISOString()).toBe('2026-02-01T00:00:00.000Z');
  });
});
