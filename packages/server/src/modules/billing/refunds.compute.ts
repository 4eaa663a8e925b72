import { formatMinor, currencyDigits } from '../../lib/money.js';
import { divRoundHalfUp, exact, toNumber } from './rounding.compute.js';

/** A refund that cannot be made; the message says why (a 400 for the API). */
export class RefundError extends Error {
  override name = 'RefundError';
}

export interface RefundRequest {
  currency: string;
  /** What the customer paid for the order, tax included. */
  orderTotalMinor: number;
  /** The tax inside that total. */
  orderTaxMinor: number;
  /** The sum of the refunds already made on the order. */
  refundedMinor: number;
  /** The amount to refund now; omitted or null: everything that remains. */
  amountMinor?: number | null;
}

export interface RefundSplit {
  /** What goes back to the customer. */
  amountMinor: number;
  /** The part of it that is tax given back (collected tax of the REFUND transaction, as a positive number). */
  taxMinor: number;
  /** amountMinor − taxMinor: what leaves the seller's balance. The MoR fee of the charge is retained. */
  netMinor: number;
  /** Refunded on the order after this refund. */
  refundedAfterMinor: number;
  /** Still refundable after this refund. */
  remainingMinor: number;
  /** The order's status after the refund. */
  orderStatus: 'REFUNDED' | 'PARTIAL_REFUND';
}

/**
 * Checks a refund against what remains refundable and splits it into tax and
 * net. The tax given back follows the share of the order total refunded so
 * far: taxOf(x) = round_half_up(orderTax × x / orderTotal), and a refund gives
 * back taxOf(refunded after) − taxOf(refunded before). Successive partial
 * refunds therefore give back exactly the order's tax once the order is
 * refunded in full.
 */
export function splitRefund(request: RefundRequest): RefundSplit {
  const digits = currencyDigits(request.currency);
  const money = (minor: bigint) => `${formatMinor(Number(minor), digits)} ${request.currency}`;
  const total = exact(request.orderTotalMinor, 'the order total');
  const tax = exact(request.orderTaxMinor, 'the order tax');
  const before = exact(request.refundedMinor, 'the refunded amount');
  if (total < 0n || tax < 0n || tax > total || before < 0n || before > total) {
    throw new RangeError('the order amounts are inconsistent');
  }
  const remaining = total - before;
  if (remaining === 0n) throw new RefundError('the order has already been refunded in full');
  const amount = request.amountMinor === undefined || request.amountMinor === null ? remaining : exact(request.amountMinor, 'the refund amount');
  if (amount <= 0n) throw new RefundError('the refund amount must be greater than 0');
  if (amount > remaining) {
    throw new RefundError(`the refund of ${money(amount)} is more than the ${money(remaining)} that remains refundable on this order`);
  }
  const after = before + amount;
  const taxOf = (refunded: bigint) => (total === 0n ? 0n : divRoundHalfUp(tax * refunded, total));
  const taxBack = taxOf(after) - taxOf(before);
  return {
    amountMinor: toNumber(amount, 'the refund'),
    taxMinor: toNumber(taxBack, 'the tax'),
    netMinor: toNumber(amount - taxBack, 'the net amount'),
    refundedAfterMinor: toNumber(after, 'the refunded amount'),
    remainingMinor: toNumber(total - after, 'the remaining amount'),
    orderStatus: after === total ? 'REFUNDED' : 'PARTIAL_REFUND',
  };
}
