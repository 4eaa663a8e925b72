import type { ApiError } from '../../http/errors.js';
import { formProblem } from './errors.js';

/** What the buyer reads when the provider refuses: said for a person at the page, not for an API caller. */
const BUYER_MESSAGES: Record<string, string> = {
  card_declined: 'The card was declined. Nothing was charged; try another card.',
  insufficient_funds: 'The card has insufficient funds. Nothing was charged; try another card.',
  stolen_card: 'The card was declined. Nothing was charged; try another card.',
  authentication_required: 'The authentication of the card was not completed, so nothing was charged. Try again, or use another card.',
  payment_in_progress: 'This payment is already being processed. Wait a moment, then reload the page.',
  checkout_session_settled: 'This checkout was just completed by another submission. Reload the page.',
};

const EMAIL = /^[^\s@]{1,64}@[^\s@]{1,190}\.[^\s@]{2,}$/;

export function parseExpiry(text: string | undefined): { expMonth: number; expYear: number } {
  const match = /^\s*(\d{1,2})\s*\/\s*(\d{2}|\d{4})\s*$/.exec(text ?? '');
  const month = match ? Number(match[1]) : NaN;
  if (!match || month < 1 || month > 12) throw formProblem('expiry', 'Enter the expiry date as MM / YY, for example 12 / 30.');
  return { expMonth: month, expYear: Number(match[2]) };
}

/** The refusal as the buyer at the page reads it. */
export function buyerMessage(error: ApiError): string {
  return BUYER_MESSAGES[error.code] ?? error.detail;
}

export const isEmail = (text: string): boolean => EMAIL.test(text);
