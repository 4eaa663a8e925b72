import { describe, expect, it } from 'vitest';
import { RefundAmountError, requestedAmountMinor } from './amount.compute.js';

describe('requestedAmountMinor', () => {
  it('is null (everything that remains) when neither amount is given', () => {
    expect(requestedAmountMinor({}, 'USD')).toBeNull();
    expect(requestedAmountMinor({ amountUnits: null, amount: null }, 'USD')).toBeNull();
  });

  it('takes amountUnits as given, and prefers it to amount', () => {
    expect(requestedAmountMinor({ amountUnits: 2500 }, 'USD')).toBe(2500);
    expect(requestedAmountMinor({ amountUnits: 300, amount: 99 }, 'USD')).toBe(300);
    // amount is not looked at when amountUnits is there, even if it is wrong.
    expect(requestedAmountMinor({ amountUnits: 300, amount: -5 }, 'USD')).toBe(300);
  });

  it('converts amount in major units with the currency digits', () => {
    expect(requestedAmountMinor({ amount: 25 }, 'USD')).toBe(2500);
    expect(requestedAmountMinor({ amount: 19.99 }, 'USD')).toBe(1999);
    expect(requestedAmountMinor({ amount: '19.99' }, 'USD')).toBe(1999);
    expect(requestedAmountMinor({ amount: 500 }, 'JPY')).toBe(500);
    expect(requestedAmountMinor({ amount: '1.234' }, 'KWD')).toBe(1234);
  });

  it('refuses zero, negative, fractional minor units and too many decimals', () => {
    const refused = (input: Parameters<typeof requestedAmountMinor>[0], currency = 'USD') =>
      expect(() => requestedAmountMinor(input, currency)).toThrow(RefundAmountError);
    refused({ amountUnits: 0 });
    refused({ amountUnits: -1 });
    refused({ amountUnits: 1.5 });
    refused({ amountUnits: 1e20 });
    refused({ amount: 0 });
    refused({ amount: -3 });
    refused({ amount: '0.00' });
    refused({ amount: 1.005 });
    refused({ amount: 10.5 }, 'JPY');
    refused({ amount: 'ten' });
    refused({ amount: Number.NaN });
    expect(() => requestedAmountMinor({ amountUnits: 0 }, 'USD')).toThrow(/amountUnits must be at least 1/);
    expect(() => requestedAmountMinor({ amount: 1.005 }, 'USD')).toThrow(/more than 2 decimal places/);
  });
});
