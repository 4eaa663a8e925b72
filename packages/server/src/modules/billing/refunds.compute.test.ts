import { describe, expect, it } from 'vitest';
import { RefundError, splitRefund } from './refunds.compute.js';

// 100.00 EUR + 19 % tax = 119.00 EUR
const ORDER = { currency: 'EUR', orderTotalMinor: 11900, orderTaxMinor: 1900 };

describe('splitRefund', () => {
  it('refunds everything that remains when no amount is given', () => {
    expect(splitRefund({ ...ORDER, refundedMinor: 0 })).toEqual({
      amountMinor: 11900,
      taxMinor: 1900,
      netMinor: 10000,
      refundedAfterMinor: 11900,
      remainingMinor: 0,
      orderStatus: 'REFUNDED',
    });
  });

  it('gives back the tax share of a partial refund, and the rest of the tax with the last refund', () => {
    // 50.00 of 119.00: 1900 × 5000 / 11900 = 798.32 -> 7.98 tax
    const first = splitRefund({ ...ORDER, refundedMinor: 0, amountMinor: 5000 });
    expect(first).toEqual({
      amountMinor: 5000,
      taxMinor: 798,
      netMinor: 4202,
      refundedAfterMinor: 5000,
      remainingMinor: 6900,
      orderStatus: 'PARTIAL_REFUND',
    });
    const second = splitRefund({ ...ORDER, refundedMinor: 5000, amountMinor: null });
    expect(second).toEqual({
      amountMinor: 6900,
      taxMinor: 1102,
      netMinor: 5798,
      refundedAfterMinor: 11900,
      remainingMinor: 0,
      orderStatus: 'REFUNDED',
    });
    expect(first.taxMinor + second.taxMinor).toBe(1900);
  });

  it('never gives back more tax than was collected, however the refunds are cut', () => {
    let refunded = 0;
    let tax = 0;
    for (const amount of [1, 1, 1, 3333, 4999, 3565]) {
      const split = splitRefund({ ...ORDER, refundedMinor: refunded, amountMinor: amount });
      refunded += split.amountMinor;
      tax += split.taxMinor;
    }
    expect(refunded).toBe(11900);
    expect(tax).toBe(1900);
  });

  it('refunds JPY', () => {
    // 5478 JPY with 498 tax; 1000 back: 498 × 1000 / 5478 = 90.9 -> 91
    expect(splitRefund({ currency: 'JPY', orderTotalMinor: 5478, orderTaxMinor: 498, refundedMinor: 0, amountMinor: 1000 })).toMatchObject({
      amountMinor: 1000,
      taxMinor: 91,
      netMinor: 909,
      remainingMinor: 4478,
      orderStatus: 'PARTIAL_REFUND',
    });
  });

  it('refuses 0, negative amounts, more than remains, and a fully refunded order', () => {
    expect(() => splitRefund({ ...ORDER, refundedMinor: 0, amountMinor: 0 })).toThrow(new RefundError('the refund amount must be greater than 0'));
    expect(() => splitRefund({ ...ORDER, refundedMinor: 0, amountMinor: -5 })).toThrow(RefundError);
    expect(() => splitRefund({ ...ORDER, refundedMinor: 5000, amountMinor: 6901 })).toThrow(
      new RefundError('the refund of 69.01 EUR is more than the 69.00 EUR that remains refundable on this order'),
    );
    expect(() => splitRefund({ ...ORDER, refundedMinor: 11900 })).toThrow(new RefundError('the order has already been refunded in full'));
    // Exactly what remains is allowed.
    expect(splitRefund({ ...ORDER, refundedMinor: 5000, amountMinor: 6900 }).orderStatus).toBe('REFUNDED');
  });
});
