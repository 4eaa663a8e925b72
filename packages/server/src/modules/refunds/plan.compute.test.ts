import { describe, expect, it } from 'vitest';
import { planRefund, type RefundableOrder, type RefundState } from './plan.compute.js';

const order = (over: Partial<RefundableOrder> = {}): RefundableOrder => ({
  id: 'ord_1',
  status: 'COMPLETE',
  is_trial: false,
  currency: 'EUR',
  total_minor: 11_900,
  tax_minor: 1_900,
  refunded_minor: 0,
  ...over,
});
const state = (over: Partial<RefundState> = {}): RefundState => ({ order: order(), processingMinor: 0, chargeRef: 'ch_1', ...over });

describe('planRefund', () => {
  it('plans the whole remaining amount when none is asked, with its tax share', () => {
    const planned = planRefund(state(), { orderId: 'ord_1' });
    expect(planned).toEqual({
      plan: expect.objectContaining({ orderId: 'ord_1', amountMinor: 11_900, currency: 'EUR', chargeRef: 'ch_1', reason: 'REQUESTED_BY_CUSTOMER', internalNote: null }),
    });
    if ('plan' in planned) expect(planned.plan.split).toMatchObject({ taxMinor: 1_900, netMinor: 10_000, orderStatus: 'REFUNDED' });
  });

  it('counts the refunds still processing as refunded: two concurrent refunds can never pass the total', () => {
    const planned = planRefund(state({ processingMinor: 11_000 }), { orderId: 'ord_1', amountUnits: 1_000 });
    expect(planned).toEqual({ refusal: { kind: 'invalidAmount', detail: expect.stringMatching(/^The refund of 10\.00 EUR is more than the 9\.00 EUR that remains/) } });
    expect(planRefund(state({ processingMinor: 11_000 }), { orderId: 'ord_1', amountUnits: 900 })).toHaveProperty('plan.amountMinor', 900);
  });

  it('refuses what cannot be refunded, saying why', () => {
    expect(planRefund(state({ order: undefined }), { orderId: 'ord_9' })).toEqual({ refusal: { kind: 'orderNotFound', orderId: 'ord_9' } });
    expect(planRefund(state({ order: order({ status: 'PENDING' }) }), { orderId: 'ord_1' })).toEqual({ refusal: { kind: 'orderNotFound', orderId: 'ord_1' } });
    expect(planRefund(state({ order: order({ is_trial: true }) }), { orderId: 'ord_1' })).toHaveProperty('refusal.detail', 'Order ord_1 is a trial order: nothing was paid, so nothing can be refunded');
    expect(planRefund(state({ order: order({ status: 'REFUNDED' }) }), { orderId: 'ord_1' })).toHaveProperty('refusal.detail', 'Order ord_1 has already been refunded in full');
    expect(planRefund(state({ order: order({ status: 'FAILED' }) }), { orderId: 'ord_1' })).toHaveProperty('refusal.kind', 'notRefundable');
    expect(planRefund(state({ chargeRef: null }), { orderId: 'ord_1' })).toHaveProperty('refusal.detail', 'Order ord_1 has no captured payment to refund');
    expect(planRefund(state(), { orderId: 'ord_1', amount: '1.234' })).toHaveProperty('refusal.kind', 'invalidAmount');
  });

  it('keeps the reason and a trimmed note, and drops an empty note', () => {
    const planned = planRefund(state(), { orderId: 'ord_1', amountUnits: 500, reason: 'DUPLICATE', internalNote: '  twice  ' });
    expect(planned).toHaveProperty('plan.reason', 'DUPLICATE');
    expect(planned).toHaveProperty('plan.internalNote', 'twice');
    expect(planRefund(state(), { orderId: 'ord_1', internalNote: '   ' })).toHaveProperty('plan.internalNote', null);
  });
});
