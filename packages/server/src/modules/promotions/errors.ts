import { type DomainError, invalid, conflict, notFound } from '../../lib/domain-error.js';

export const promotionNotFound = (id: string): DomainError => notFound(`No promotion "${id}"`, 'promotion_not_found');
export const promotionArchived = (id: string): DomainError =>
  conflict(`Promotion "${id}" is archived; an archived promotion cannot be changed`, 'promotion_archived');
export const invalidPromotion = (detail: string): DomainError => invalid(detail, 'validation_error');
