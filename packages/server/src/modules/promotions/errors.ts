import { type ApiError, badRequest, conflict, notFound } from '../../http/errors.js';

export const promotionNotFound = (id: string): ApiError => notFound(`No promotion "${id}"`, 'promotion_not_found');
export const promotionArchived = (id: string): ApiError =>
  conflict(`Promotion "${id}" is archived; an archived promotion cannot be changed`, 'promotion_archived');
export const invalidPromotion = (detail: string): ApiError => badRequest(detail, 'validation_error');
