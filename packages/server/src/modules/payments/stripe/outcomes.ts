import type Stripe from 'stripe';
import { stripeErrors } from './client.js';
import type { ChargeOutcome } from '../provider.js';

type Failure = Extract<ChargeOutcome, { status: 'failed' }>;

/** Decline codes that mean the card must not be tried again: dunning does not retry them on the same card. */
const HARD_DECLINES = new Set(['stolen_card', 'lost_card', 'pickup_card', 'fraudulent', 'restricted_card', 'merchant_blacklist']);

/** A card error of Stripe's (code, decline_code) as the outcome the sandbox provider gives for the same case. */
export function failureOf(code: string | null | undefined, declineCode: string | null | undefined, message: string): Failure {
  if (code === 'authentication_required' || declineCode === 'authentication_required') {
    return { status: 'failed', code: 'authentication_required', message };
  }
  if (code === 'payment_intent_authentication_failure') return { status: 'failed', code: 'authentication_failed', message };
  if (declineCode === 'insufficient_funds') return { status: 'failed', code: 'insufficient_funds', message };
  if (declineCode && HARD_DECLINES.has(declineCode)) return { status: 'failed', code: 'stolen_card', message };
  if (code === 'card_declined' || code === 'expired_card' || code === 'incorrect_cvc' || code === 'incorrect_number') {
    return { status: 'failed', code: 'card_declined', message };
  }
  return { status: 'failed', code: 'processing_error', message };
}

/** What a PaymentIntent's status says about the charge, as Billow's outcome. */
export function outcomeOfIntent(intent: Stripe.PaymentIntent): ChargeOutcome {
  switch (intent.status) {
    case 'succeeded':
      return { status: 'succeeded', providerRef: intent.id };
    case 'requires_action':
      return { status: 'requires_action', providerRef: intent.id };
    case 'processing':
    case 'requires_confirmation':
    case 'requires_capture':
      return { status: 'processing', providerRef: intent.id };
    default: {
      const error = intent.last_payment_error;
      return failureOf(error?.code, error?.decline_code, error?.message ?? `The payment ended ${intent.status}`);
    }
  }
}

/**
 * Errors that say the charge was refused (the card, or the request the seller's account
 * cannot make, such as a detached method): an outcome. Anything else (the network,
 * Stripe's own trouble, a rate limit) is thrown: nothing is known yet, and the intent
 * stays processing for the recovery task.
 */
export function refusalOfError(error: unknown): Failure | null {
  const errors = stripeErrors();
  if (!errors) return null;
  // Stripe refused the key itself: the request went no further, so no charge can follow later.
  if (error instanceof errors.StripeAuthenticationError || error instanceof errors.StripePermissionError) {
    return { status: 'failed', code: 'provider_key_rejected', message: `Stripe refused the secret key: ${error.message}` };
  }
  if (error instanceof errors.StripeCardError) return failureOf(error.code, error.decline_code, error.message);
  if (error instanceof errors.StripeInvalidRequestError && error.statusCode !== 409) {
    const intent = error.payment_intent;
    if (intent?.last_payment_error) {
      const last = intent.last_payment_error;
      return failureOf(last.code, last.decline_code, last.message ?? error.message);
    }
    return { status: 'failed', code: 'processing_error', message: `Stripe refused the request: ${error.message}` };
  }
  return null;
}
