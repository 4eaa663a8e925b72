import { badRequest, notFound } from '../../http/errors.js';

export const refundNotFound = (id: string) => notFound(`No refund with id "${id}"`, 'refund_not_found');
export const invalidRefundAmount = (detail: string) => badRequest(detail, 'invalid_refund_amount');
export const orderNotRefundable = (detail: string) => badRequest(detail, 'order_not_refundable');
