import { DomainError, invalid, conflict, notFound } from '../../lib/domain-error.js';

export const discountNotFound = (ref: string): DomainError => notFound(`No discount "${ref}"`, 'discount_not_found');
export const invalidDiscount = (detail: string): DomainError => invalid(detail, 'validation_error');
export const discountCodeTaken = (code: string): DomainError =>
  conflict(`Another discount that is not archived already has the code "${code}" (codes are compared without regard to case)`, 'discount_code_taken');
export const codeGenerationFailed = (): DomainError =>
  conflict('No free code could be generated; try again, or give a code', 'discount_code_taken');
export const subscriptionHasDiscount = (subscriptionId: string): DomainError =>
  conflict(`Subscription ${subscriptionId} already carries a discount`, 'subscription_has_discount');

// A code a buyer (or a checkout session) presents: each refusal has its own code.

const CODE_UNKNOWN = 'discount_code_unknown';
export const discountCodeUnknown = (code: string): DomainError =>
  new DomainError('invalid', CODE_UNKNOWN, `Discount code "${code}" does not exist`);
/** No discount has this code (also when the checkout module passed the refusal on under its own field name). */
export const isDiscountCodeUnknown = (error: unknown): boolean => error instanceof DomainError && error.code === CODE_UNKNOWN;
export const discountCodeExpired = (code: string, at: Date): DomainError =>
  new DomainError('invalid', 'discount_code_expired', `Discount code "${code}" expired at ${at.toISOString()}`);
export const discountCodeExhausted = (code: string, max: number): DomainError =>
  new DomainError('invalid', 'discount_code_exhausted', `Discount code "${code}" has been redeemed ${max} times, its limit`);
export const discountNotForPlan = (code: string, planIdentifier: string): DomainError =>
  new DomainError('invalid', 'discount_not_applicable', `Discount code "${code}" does not apply to plan "${planIdentifier}"`);
export const discountNotInCurrency = (code: string, currency: string): DomainError =>
  new DomainError('invalid', 'discount_not_applicable', `Discount code "${code}" has no amount off in ${currency}`);
