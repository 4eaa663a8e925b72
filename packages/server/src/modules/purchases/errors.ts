import { DomainError, invalid } from '../../lib/domain-error.js';

export const customerMissing = (): DomainError => invalid('Customer does not exist.', 'customer_not_found');
export const organizationBlocked = (reason: string | null): DomainError =>
  invalid(`This organization is blocked from taking payments${reason ? `: ${reason}` : ''}`, 'organization_blocked');
export const invalidCurrencyCode = (requested: string | null | undefined): DomainError =>
  invalid(`currencyCode: "${requested}" is not an ISO 4217 currency code`, 'validation_error');
export const currencyMismatch = (asked: string, customerCurrency: string): DomainError =>
  invalid(
    `currencyCode ${asked} differs from the customer's currency ${customerCurrency}; a customer pays in one currency`,
    'currency_mismatch',
  );
export const planUnknown = (identifier: string): DomainError =>
  invalid(`planIdentifier: no plan "${identifier}"`, 'plan_not_found');
export const planArchived = (identifier: string): DomainError =>
  invalid(`Plan "${identifier}" is archived`, 'plan_archived');
export const planNotPublished = (identifier: string): DomainError =>
  invalid(`Plan "${identifier}" is not published; publish it before selling it`, 'plan_not_published');
export const productOfPlanArchived = (identifier: string): DomainError =>
  invalid(`The product of plan "${identifier}" is archived`, 'product_archived');
const NO_PRICE_IN_CURRENCY = 'price_not_found';
export const noPriceInCurrency = (identifier: string, currency: string): DomainError =>
  invalid(`Plan "${identifier}" has no enabled price in ${currency}`, NO_PRICE_IN_CURRENCY);
export const isNoPriceInCurrency = (error: unknown): boolean => error instanceof DomainError && error.code === NO_PRICE_IN_CURRENCY;
export const featureUnknown = (index: number, identifier: string): DomainError =>
  invalid(`features[${index}].identifier: no feature "${identifier}"`, 'validation_error');
export const pricingFailed = (detail: string): DomainError => invalid(detail, 'pricing_error');

export const paymentMethodRequired = (): DomainError =>
  invalid('A payment method is required to complete this payment.', 'payment_method_required');

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
export const paymentNeedsAuthentication = (): DomainError => invalid(NEEDS_AUTHENTICATION, 'authentication_required');
/** A charge the provider refused: its code, in our words where we have them, else in the provider's. */
export const paymentRefused = (code: string, providerMessage: string): DomainError =>
  invalid(REFUSAL_REASONS[code] ?? providerMessage, code);
/** The failure a settled payment intent recorded, answered again to a retry. */
export const recordedPaymentFailure = (code: string | null, detail: string | null): DomainError =>
  new DomainError('invalid', code ?? 'payment_failed', detail ?? 'The payment failed');
