import { DomainError, invalid, notFound } from '../../lib/domain-error.js';

/** A card typed into the API in production: what works there depends on whether a provider is configured. */
export const sandboxOnly = (providerConfigured: boolean): DomainError =>
  new DomainError(
    'forbidden',
    'sandbox_only',
    'Saving a card number through the API is a testing aid of the sandbox environment: use the /sandbox base URL. ' +
      (providerConfigured
        ? "In production, customers enter their cards in Stripe's Payment Element: on the hosted checkout, in the customer portal, " +
          'or on your own page, saved with POST /api/v1/payment-methods/stripe/.'
        : 'Production has no payment provider configured yet, so it takes no cards anywhere (the hosted checkout and the customer ' +
          'portal refuse them too): configure one first with `billow provider set` or PUT /api/v1/payment-provider/ (docs/going-live.md); ' +
          'then customers enter their cards on the hosted checkout or in the customer portal.'),
  );

export const paymentMethodNotFound = (id: string): DomainError =>
  notFound(`No payment method with id ${id}`, 'payment_method_not_found');

export const unknownCustomer = (customerId: string): DomainError =>
  invalid(`customerId: no customer with customerId "${customerId}"`, 'customer_not_found');

export const archivedCustomer = (customerId: string): DomainError =>
  invalid(`customerId: the customer "${customerId}" is archived and can't be given payment methods`, 'customer_archived');

const INVALID_CARD_NUMBER = 'invalid_card_number';
const CARD_EXPIRED = 'card_expired';
export const invalidCardNumber = (detail: string): DomainError => invalid(`cardNumber: ${detail}`, INVALID_CARD_NUMBER);
export const isInvalidCardNumber = (error: unknown): boolean => error instanceof DomainError && error.code === INVALID_CARD_NUMBER;

export const cardExpired = (month: number, year: number): DomainError =>
  invalid(
    `expMonth/expYear: the card expired at the end of ${String(month).padStart(2, '0')}/${year}`,
    CARD_EXPIRED,
  );
export const isCardExpired = (error: unknown): boolean => error instanceof DomainError && error.code === CARD_EXPIRED;

export const invalidCardField = (field: string, detail: string): DomainError =>
  invalid(`${field}: ${detail}`, 'validation_error');

export const methodNotUsable = (id: number): DomainError =>
  invalid(`The payment method ${id} is not usable yet (its status is requires_action)`, 'payment_method_unusable');

const PROVIDER_REQUIRED = 'payment_provider_required';
export const paymentProviderRequired = (): DomainError =>
  new DomainError(
    'precondition_required',
    PROVIDER_REQUIRED,
    'Production payments need a payment provider configured for the environment, and none is configured: ' +
      'set the Stripe keys with `billow provider set` or PUT /api/v1/payment-provider/ (docs/going-live.md). ' +
      'Until then production takes only free purchases. The sandbox environment (the /sandbox base URL) works without one, with test cards.',
  );
export const isPaymentProviderRequired = (error: unknown): boolean => error instanceof DomainError && error.code === PROVIDER_REQUIRED;

export const invalidProviderSetting = (field: string, detail: string): DomainError => invalid(`${field}: ${detail}`, 'validation_error');

export const providerNotConfigured = (): DomainError =>
  notFound('No payment provider is configured for this environment', 'payment_provider_not_found');

export const notAStripeMethod = (detail: string): DomainError => invalid(`stripePaymentMethod: ${detail}`, 'invalid_payment_method');

/** Stripe did not answer (network, outage, rate limit): nothing is known yet, and nothing was recorded as failed. */
export const providerUnavailable = (): DomainError =>
  new DomainError('unavailable', 'payment_provider_unavailable', 'The payment provider did not answer. Try again with the same Idempotency-Key: the payment is made at most once.');

/**
 * Stripe refused a request because Billow had sent its idempotency key before with other
 * parameters: a fault of Billow's, logged, that trying again cannot mend (decision 0050).
 */
export const providerIdempotencyError = (): DomainError =>
  new DomainError(
    'conflict',
    'payment_provider_idempotency_error',
    'The payment provider refused the request: Billow sent its idempotency key before with other parameters. This is a fault of Billow, logged on the server; trying again with the same request does not help.',
  );

/** Stripe refused the environment's secret key (wrong, revoked, restricted): the seller must set another. */
export const providerKeyRejected = (): DomainError =>
  new DomainError(
    'unavailable',
    'payment_provider_key_rejected',
    "The payment provider refused this environment's secret key (wrong, revoked or without the needed permission). Set a valid key with `billow provider set` or PUT /payment-provider/.",
  );

export const stripeWebhookEndpointNotFound = (): DomainError =>
  notFound('No environment with a Stripe account configured has this webhook URL', 'webhook_endpoint_not_found');

export const invalidStripeSignature = (detail: string): DomainError =>
  new DomainError('invalid', 'invalid_signature', `The Stripe-Signature header does not verify: ${detail}`);

/** A provider setting the operator gave on the command line that cannot be stored (one line, for the CLI). */
export class ProviderAdminError extends Error {}
