import { AmountError, MAX_MINOR_AMOUNT, currencyDigits, toMinor } from '../../lib/money.js';

/** A refund amount the caller got wrong; the message is the API's detail. */
export class RefundAmountError extends Error {
  override name = 'RefundAmountError';
}

export interface AmountInput {
  amountUnits?: number | null;
  amount?: number | string | null;
}

const DECIMAL = /^[+-]?(\d+(\.\d*)?|\.\d+)$/;

/**
 * The amount asked for, in minor units, or null for "everything that remains".
 * `amountUnits` wins when both are given (the other is then not looked at);
 * `amount` is in major units, as a number or decimal text, with no more
 * decimals than the currency has.
 */
export function requestedAmountMinor(input: AmountInput, currency: string): number | null {
  if (input.amountUnits !== undefined && input.amountUnits !== null) {
    const units = input.amountUnits;
    if (!Number.isInteger(units)) throw new RefundAmountError('amountUnits must be a whole number of minor units');
    if (units < 1) {
      throw new RefundAmountError(`amountUnits must be at least 1 (an amount in the minor unit of ${currency}), got ${units}`);
    }
    if (units > MAX_MINOR_AMOUNT) throw new RefundAmountError('amountUnits is too large');
    return units;
  }
  if (input.amount === undefined || input.amount === null) return null;
  let amount: number;
  if (typeof input.amount === 'string') {
    const text = input.amount.trim();
    if (!DECIMAL.test(text)) throw new RefundAmountError(`amount must be a decimal number, such as 25 or "25.50", got "${input.amount}"`);
    amount = Number(text);
  } else {
    amount = input.amount;
  }
  if (!Number.isFinite(amount)) throw new RefundAmountError('amount must be a finite number');
  if (amount <= 0) throw new RefundAmountError(`amount must be greater than 0, got ${String(input.amount)}`);
  try {
    const minor = toMinor(amount, currencyDigits(currency));
    if (minor < 1) throw new RefundAmountError(`amount must be greater than 0, got ${String(input.amount)}`);
    return minor;
  } catch (error) {
    if (error instanceof AmountError) throw new RefundAmountError(`amount ${error.message} (${currency})`);
    throw error;
  }
}
