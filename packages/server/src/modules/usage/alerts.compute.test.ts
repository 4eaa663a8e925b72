import { describe, expect, it } from 'vitest';
import { crossedThresholds } from './alerts.compute.js';

const percentage = { type: 'PERCENTAGE' as const, thresholds: [90, 50] };
const balance = { type: 'BALANCE' as const, thresholds: [10, 100] };

describe('crossedThresholds', () => {
  it('reaches a PERCENTAGE threshold at that share of the limit, lowest first', () => {
    expect(crossedThresholds(percentage, { usageLimit: 200, currentUsage: 99 }, [])).toEqual([]);
    expect(crossedThresholds(percentage, { usageLimit: 200, currentUsage: 100 }, []).map((c) => c.key)).toEqual(['PERCENTAGE:50']);
    expect(crossedThresholds(percentage, { usageLimit: 200, currentUsage: 500 }, []).map((c) => c.threshold)).toEqual([50, 90]);
    expect(crossedThresholds({ type: 'PERCENTAGE', thresholds: [33.3] }, { usageLimit: 1000, currentUsage: 332 }, [])).toEqual([]);
    expect(crossedThresholds({ type: 'PERCENTAGE', thresholds: [33.3] }, { usageLimit: 1000, currentUsage: 333 }, [])).toHaveLength(1);
  });

  it('needs a finite, positive limit for PERCENTAGE', () => {
    expect(crossedThresholds(percentage, { usageLimit: null, currentUsage: 1e9 }, [])).toEqual([]);
    expect(crossedThresholds(percentage, { usageLimit: 0, currentUsage: 5 }, [])).toEqual([]);
  });

  it('reaches a BALANCE threshold at that much usage, limit or not', () => {
    expect(crossedThresholds(balance, { usageLimit: null, currentUsage: 9 }, [])).toEqual([]);
    expect(crossedThresholds(balance, { usageLimit: null, currentUsage: 10 }, [])).toEqual([{ type: 'BALANCE', threshold: 10, key: 'BALANCE:10' }]);
  });

  it('leaves out the thresholds already sent this period, and has nothing without alerts', () => {
    expect(crossedThresholds(percentage, { usageLimit: 100, currentUsage: 95 }, ['PERCENTAGE:50']).map((c) => c.key)).toEqual(['PERCENTAGE:90']);
    expect(crossedThresholds(percentage, { usageLimit: 100, currentUsage: 95 }, ['PERCENTAGE:50', 'PERCENTAGE:90'])).toEqual([]);
    expect(crossedThresholds(balance, { usageLimit: 100, currentUsage: 95 }, ['PERCENTAGE:10']).map((c) => c.key)).toEqual(['BALANCE:10']);
    expect(crossedThresholds(null, { usageLimit: 100, currentUsage: 95 }, [])).toEqual([]);
  });
});
