import { describe, expect, it } from 'vitest';
import { classify, noMovements, roundPeriod } from './movements.compute.js';

const month = (minor: number) => BigInt(minor) * 336n;

describe('classify', () => {
  it('names each change of a customer MRR by what it was before and after', () => {
    expect(classify({ before: 0n, after: month(5000), everPaid: false })).toEqual({ kind: 'new', parts: month(5000) });
    expect(classify({ before: 0n, after: month(6000), everPaid: true })).toEqual({ kind: 'reactivation', parts: month(6000) });
    expect(classify({ before: month(100), after: month(150), everPaid: true })).toEqual({ kind: 'expansion', parts: month(50) });
    expect(classify({ before: month(100), after: month(80), everPaid: true })).toEqual({ kind: 'contraction', parts: -month(20) });
    expect(classify({ before: month(100), after: 0n, everPaid: true })).toEqual({ kind: 'churned', parts: -month(100) });
    expect(classify({ before: month(100), after: month(100), everPaid: true })).toBeNull();
    expect(classify({ before: 0n, after: 0n, everPaid: true })).toBeNull();
  });
});

describe('roundPeriod', () => {
  it('rounds movements so that they add up to the rounded change (docs/analytics.md)', () => {
    // One customer starts at $10.00 a year, another grows from $10.00 to $20.00 a year.
    const yearly = 1000n * 28n;
    const sums = { ...noMovements(), new: yearly, expansion: yearly };
    const period = roundPeriod(yearly, sums);
    expect(period).toEqual({ startMinor: 83, endMinor: 250, movements: { new: 84, expansion: 83, reactivation: 0, contraction: 0, churned: 0 } });

    const fromZero = roundPeriod(0n, sums);
    expect(fromZero.movements.new + fromZero.movements.expansion).toBe(167);
    expect(fromZero.movements).toMatchObject({ new: 83, expansion: 84 });
  });

  it('keeps lost revenue negative and exact', () => {
    const period = roundPeriod(month(100_000), { ...noMovements(), contraction: -month(2000), churned: -month(10_000) });
    expect(period).toEqual({ startMinor: 100_000, endMinor: 88_000, movements: { new: 0, expansion: 0, reactivation: 0, contraction: -2000, churned: -10_000 } });
  });
});
