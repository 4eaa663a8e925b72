/** What the refund use case (use-cases/refund-order.ts) reads and writes of refunds, inside its own transactions. */
export { chargeOf, environmentScope, refundOfIdempotencyKey, staleProcessingRefunds, type RefundRow } from './repo.js';
export { loadRefundState, recordRefundIntent, type RefundIntentOwner } from './reserve.js';
export { settleRefundOutcome } from './settle.js';
