import type { RefundCreate } from '@billow/contract';
import { RefundError, splitRefund, type RefundSplit } from '../billing/refunds.compute.js';
import { RefundAmountError, requestedAmountMinor } from './amount.compute.js';

/** What planning a refund reads of its order. */
export interface RefundableOrder {
  id: string;
  status: string;
  is_trial: boolean;
  currency: string;
  total_minor: number;
  tax_minor: number;
  refunded_minor: number;
}

/** The order as loaded under its lock, what is being refunded of it, and the charge to refund. */
export interface RefundState {
  order: RefundableOrder | undefined;
  /** The sum of its refunds still waiting for the provider. */
  processingMinor: number;
  /** The provider's reference of the order's captured payment; null when none was captured. */
  chargeRef: string | null;
}

/** The refund to make: what to give back of which charge, and why. */
export interface RefundPlan {
  orderId: string;
  amountMinor: number;
  currency: string;
  chargeRef: string;
  reason: NonNullable<RefundCreate['reason']>;
  internalNote: string | null;
  /** The split of the amount into tax and net, as it stands when planned. */
  split: RefundSplit;
}

/** Why an order cannot be refunded as asked; `detail` is the sentence the caller reads. */
export type RefundRefusal = { kind: 'orderNotFound'; orderId: string } | { kind: 'notRefundable'; detail: string } | { kind: 'invalidAmount'; detail: string };

const REFUNDABLE = new Set(['COMPLETE', 'PARTIAL_REFUND']);

const sentence = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

function orderRefusal(order: RefundableOrder | undefined, orderId: string): RefundRefusal | null {
  if (!order || order.status === 'PENDING') return { kind: 'orderNotFound', orderId };
  if (order.is_trial) return { kind: 'notRefundable', detail: `Order ${order.id} is a trial order: nothing was paid, so nothing can be refunded` };
  if (order.status === 'REFUNDED') return { kind: 'notRefundable', detail: `Order ${order.id} has already been refunded in full` };
  if (!REFUNDABLE.has(order.status)) {
    return { kind: 'notRefundable', detail: `Order ${order.id} is ${order.status}: only COMPLETE and PARTIAL_REFUND orders can be refunded` };
  }
  return null;
}

function splitOf(order: RefundableOrder, processingMinor: number, input: RefundCreate): RefundSplit | RefundRefusal {
  try {
    return splitRefund({
      currency: order.currency,
      orderTotalMinor: order.total_minor,
      orderTaxMinor: order.tax_minor,
      refundedMinor: order.refunded_minor + processingMinor,
      amountMinor: requestedAmountMinor(input, order.currency),
    });
  } catch (error) {
    if (error instanceof RefundAmountError) return { kind: 'invalidAmount', detail: error.message };
    if (error instanceof RefundError) return { kind: 'invalidAmount', detail: sentence(error.message) };
    throw error;
  }
}

/**
 * The refund a request asks for, checked against the order: refundable, an amount within
 * what is neither refunded nor being refunded, a captured charge to give it back from.
 */
export function planRefund(state: RefundState, input: RefundCreate): { plan: RefundPlan } | { refusal: RefundRefusal } {
  const refused = orderRefusal(state.order, input.orderId);
  if (refused) return { refusal: refused };
  const order = state.order!;
  const split = splitOf(order, state.processingMinor, input);
  if ('kind' in split) return { refusal: split };
  if (!state.chargeRef) return { refusal: { kind: 'notRefundable', detail: `Order ${order.id} has no captured payment to refund` } };
  return {
    plan: {
      orderId: order.id,
      amountMinor: split.amountMinor,
      currency: order.currency,
      chargeRef: state.chargeRef,
      reason: input.reason ?? 'REQUESTED_BY_CUSTOMER',
      internalNote: input.internalNote?.trim() || null,
      split,
    },
  };
}
