import { describe, expect, it } from 'vitest';
import { promotedAmount } from './promoted-price.compute.js';

describe('promotedAmount', () => {
  it('takes the percentage off, the discount rounded half up to the minor unit', () => {
    expect(promotedAmount(1000, 40)).toBe(600);
    expect(promotedAmount(999, 55)).toBe(450); // 549.45 off → 549
    expect(promotedAmount(1, 50)).toBe(0); // 0.5 off → 1
    expect(promotedAmount(1999, 0)).toBe(1999);
    expect(promotedAmount(1999, 100)).toBe(0);
  });
});
