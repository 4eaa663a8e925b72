import { expiryOf, personMessage } from '../../hosted/card-form.js';
import type { ApiError } from '../../http/errors.js';
import { formProblem } from './errors.js';

const CHECKOUT_MESSAGES: Record<string, string> = {
  checkout_session_settled: 'This checkout was just completed by another submission. Reload the page.',
};

const EMAIL = /^[^\s@]{1,64}@[^\s@]{1,190}\.[^\s@]{2,}$/;

export function parseExpiry(text: string | undefined): { expMonth: number; expYear: number } {
  const expiry = expiryOf(text);
  if (!expiry) throw formProblem('expiry', 'Enter the expiry date as MM / YY, for example 12 / 30.');
  return expiry;
}

/** The refusal as the buyer at the page reads it. */
export function buyerMessage(error: ApiError): string {
  return personMessage(error, CHECKOUT_MESSAGES);
}

export const isEmail = (text: string): boolean => EMAIL.test(text);
