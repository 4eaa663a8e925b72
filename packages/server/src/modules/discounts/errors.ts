import { ApiError, badRequest, conflict, notFound } from '../../http/errors.js';

export const discountNotFound = (ref: string): ApiError => notFound(`No discount "${ref}"`, 'discount_not_found');
export const invalidDiscount = (detail: string): ApiError => badRequest(detail, 'validation_error');
export const discountCodeTaken = (code: string): ApiError =>
  conflict(`Another discount that is not archived already has the code "${code}" (codes are compared without regard to case)`, 'discount_code_taken');
export const codeGenerationFailed = (): ApiError =>
  conflict('No free code could be generated; try again, or give a code', 'discount_code_taken');
export const subscriptionHasDiscount = (subscriptionId: string): ApiError =>
  conflict(`Subscription ${subscriptionId} already carries a discount`, 'subscription_has_discount');

// A code a buyer (or a checkout session) presents: each refusal has its own code.

export const discountCodeUnknown = (code: string): ApiError =>
  new ApiError(400, 'discount_code_unknown', `Discount code "${code}" does not exist`);
export const discountCodeExpired = (code: string, at: Date): ApiError =>
  new ApiError(400, 'discount_code_expired', `Discount code "${code}" expired at ${at.toISOString()}`);
export const discountCodeExhausted = (code: string, max: number): ApiError =>
  new ApiError(400, 'discount_code_exhausted', `Discount code "${code}" has been redeemed ${max} times, its limit`);
export const discountNotForPlan = (code: string, planIdentifier: string): ApiError =>
  new ApiError(400, 'discount_not_applicable', `Discount code "${code}" does not apply to plan "${planIdentifier}"`);
export const discountNotInCurrency = (code: string, currency: string): ApiError =>
  new ApiError(400, 'discount_not_applicable', `Discount code "${code}" has no amount off in ${currency}`);
