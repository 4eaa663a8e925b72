import { invalid, notFound } from '../../lib/domain-error.js';

export const refundNotFound = (id: string) => notFound(`No refund with id "${id}"`, 'refund_not_found');
export const invalidRefundAmount = (detail: string) => invalid(detail, 'invalid_refund_amount');
export const orderNotRefundable = (detail: string) => invalid(detail, 'order_not_refundable');
