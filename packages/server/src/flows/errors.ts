import { ApiError, badRequest } from '../http/errors.js';

export const customerMissing = (): ApiError => badRequest('Customer does not exist.', 'customer_not_found');
export const organizationBlocked = (reason: string | null): ApiError =>
  badRequest(`This organization is blocked from taking payments${reason ? `: ${reason}` : ''}`, 'organization_blocked');
export const invalidCurrencyCode = (requested: string | null | undefined): ApiError =>
  badRequest(`currencyCode: "${requested}" is not an ISO 4217 currency code`, 'validation_error');
export const currencyMismatch = (asked: string, customerCurrency: string): ApiError =>
  badRequest(
    `currencyCode ${asked} differs from the customer's currency ${customerCurrency}; a customer pays in one currency`,
    'currency_mismatch',
  );
export const planUnknown = (identifier: string): ApiError =>
  badRequest(`planIdentifier: no plan "${identifier}"`, 'plan_not_found');
export const planArchived = (identifier: string): ApiError =>
  badRequest(`Plan "${identifier}" is archived`, 'plan_archived');
export const planNotPublished = (identifier: string): ApiError =>
  badRequest(`Plan "${identifier}" is not published; publish it before selling it`, 'plan_not_published');
export const productOfPlanArchived = (identifier: string): ApiError =>
  badRequest(`The product of plan "${identifier}" is archived`, 'product_archived');
export const noPriceInCurrency = (identifier: string, currency: string): ApiError =>
  badRequest(`Plan "${identifier}" has no enabled price in ${currency}`, 'price_not_found');
export const featureUnknown = (index: number, identifier: string): ApiError =>
  badRequest(`features[${index}].identifier: no feature "${identifier}"`, 'validation_error');
export const pricingFailed = (detail: string): ApiError => badRequest(detail, 'pricing_error');

export const paymentMethodRequired = (): ApiError =>
  badRequest('A payment method is required to complete this payment.', 'payment_method_required');

const NEEDS_AUTHENTICATION = 'The payment requires authentication, which an off-session charge cannot give';
const REFUSAL_REASONS: Record<string, string> = {
  card_declined: 'The card was declined',
  stolen_card: 'The card was declined: it was reported stolen',
  insufficient_funds: 'The card has insufficient funds',
  authentication_required: NEEDS_AUTHENTICATION,
  authentication_failed: 'The cardholder did not pass the authentication of the card (3-D Secure); nothing was charged',
  processing_error: 'The payment could not be processed',
  provider_idempotency_error:
    'The payment provider refused the payment: Billow sent its key again with other parameters, a fault of Billow that it has logged. Nothing was charged under this payment; report it to the operator',
  provider_key_rejected:
    "The payment provider refused this environment's secret key (wrong, revoked or without the needed permission); nothing was charged. Set a valid key with `billow provider set` or PUT /payment-provider/",
};

/** A charge the provider asked the cardholder to authenticate, which an off-session charge can't do. */
export const paymentNeedsAuthentication = (): ApiError => badRequest(NEEDS_AUTHENTICATION, 'authentication_required');
/** A charge the provider refused: its code, in our words where we have them, else in the provider's. */
export const paymentRefused = (code: string, providerMessage: string): ApiError =>
  badRequest(REFUSAL_REASONS[code] ?? providerMessage, code);
/** The failure a settled payment intent recorded, answered again to a retry. */
export const recordedPaymentFailure = (code: string | null, detail: string | null): ApiError =>
  new ApiError(400, code ?? 'payment_failed', detail ?? 'The payment failed');
