import { describe, expect, it } from 'vitest';
import { DetailsError, resolveDetails } from './entitlements.compute.js';

describe('entitlement details', () => {
  it('fills a BOOLEAN feature with true by default and refuses numbers', () => {
    expect(resolveDetails('BOOLEAN', {}, null).value).toBe(true);
    expect(() => resolveDetails('BOOLEAN', { value: 3 }, null)).toThrow(/true or false/);
  });

  it('needs a number or unlimited usage for METER and CUSTOMIZABLE', () => {
    expect(() => resolveDetails('METER', {}, null)).toThrow(DetailsError);
    expect(() => resolveDetails('CUSTOMIZABLE', { value: true }, null)).toThrow(/number/);
    expect(resolveDetails('METER', { hasUnlimitedUsage: true }, null)).toMatchObject({ value: null, hasUnlimitedUsage: true });
    expect(resolveDetails('METER', { value: 1000 }, null)).toMatchObject({
      value: 1000,
      reset: 'EVERY_MONTH',
      resetTime: 'BEGINNING_OF_PERIOD',
    });
  });

  it('keeps the fields a patch does not give', () => {
    const stored = resolveDetails('METER', { value: 100, hardLimit: true, reset: 'EVERY_YEAR' }, null);
    const patched = resolveDetails('METER', { value: 200 }, stored);
    expect(patched).toMatchObject({ value: 200, hardLimit: true, reset: 'EVERY_YEAR' });
  });

  it('refuses a resetting CUSTOMIZABLE value and descending alert thresholds', () => {
    expect(() => resolveDetails('CUSTOMIZABLE', { value: 5, reset: 'EVERY_MONTH' }, null)).toThrow(/reset/);
    expect(() =>
      resolveDetails('METER', { value: 5, usageAlerts: { thresholds: [90, 75] } }, null),
    ).toThrow(/ascending/);
  });
});
