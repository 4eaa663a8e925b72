import { cardProblemOf, expiryOf, hasPersonMessage, personMessage } from '../../page-kit/card-form.js';
import { DomainError } from '../../lib/domain-error.js';
import { checkCard, type CheckedCard } from '../payments/methods.service.js';
import { formProblem } from './errors.js';

const CHECKOUT_MESSAGES: Record<string, string> = {
  checkout_session_settled: 'This checkout was just completed by another submission. Reload the page.',
};

const EMAIL = /^[^\s@]{1,64}@[^\s@]{1,190}\.[^\s@]{2,}$/;

export function parseExpiry(text: string | undefined): { expMonth: number; expYear: number } {
  const expiry = expiryOf(text);
  if (!expiry) throw formProblem('expiry', 'Enter the expiry date as MM / YY, for example 12 / 30.', 'problem.expiryFormat');
  return expiry;
}

/** A card typed on a hosted page, checked as an issuer would; a refusal names the field at fault, in the buyer's words. */
export function checkTypedCard(sent: Record<string, string | undefined>, now: Date): CheckedCard {
  const expiry = parseExpiry(sent.expiry);
  try {
    return checkCard({ cardNumber: sent.card_number ?? '', cvc: (sent.cvc ?? '').trim(), ...expiry }, now);
  } catch (error) {
    if (!(error instanceof DomainError)) throw error;
    const problem = cardProblemOf(error);
    throw formProblem(problem.field, problem.message, problem.key, problem.values);
  }
}

/** The refusal as the buyer at the page reads it. */
export function buyerMessage(error: DomainError): string {
  return personMessage(error, CHECKOUT_MESSAGES);
}

/**
 * The refusal as a problem of the page, with its catalogue key. A refusal the catalogue has
 * no words for (a provider's rare code, a rule of the API) is said as one general message:
 * its detail is written for the seller's engineers, and stays in the session's timeline.
 */
export function buyerProblem(error: DomainError): { field: null; message: string; key: string } {
  const said = hasPersonMessage(error.code) || error.code in CHECKOUT_MESSAGES;
  if (said) return { field: null, message: buyerMessage(error), key: `problem.${error.code}` };
  return { field: null, message: 'The purchase could not be completed, and nothing was charged. Try again later, or contact the seller.', key: 'problem.notCompleted' };
}

export const isEmail = (text: string): boolean => EMAIL.test(text);
