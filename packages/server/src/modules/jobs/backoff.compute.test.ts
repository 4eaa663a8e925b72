import { describe, expect, it } from 'vitest';
import { backoffAfter, MAX_BACKOFF_MS } from './backoff.compute.js';

describe('backoffAfter', () => {
  it('doubles the wait after each failed attempt', () => {
    const policy = { attempts: 5, backoffMs: 1000 };
    expect([1, 2, 3, 4].map((attempt) => backoffAfter(policy, attempt))).toEqual([1000, 2000, 4000, 8000]);
  });

  it('never waits more than a day, nor less than a millisecond', () => {
    expect(backoffAfter({ attempts: 100, backoffMs: 60_000 }, 60)).toBe(MAX_BACKOFF_MS);
    expect(backoffAfter({ attempts: 3, backoffMs: 0 }, 1)).toBe(1);
  });
});
