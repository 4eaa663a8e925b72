import type { DomainError } from '../lib/domain-error.js';
import { isCardExpired, isInvalidCardNumber } from '../modules/payments/errors.js';

/** What a person at a hosted page reads when the provider refuses: said for them, not for an API caller. */
const PERSON_MESSAGES: Record<string, string> = {
  card_declined: 'The card was declined. Nothing was charged; try another card.',
  insufficient_funds: 'The card has insufficient funds. Nothing was charged; try another card.',
  stolen_card: 'The card was declined. Nothing was charged; try another card.',
  authentication_required: 'The authentication of the card was not completed, so nothing was charged. Try again, or use another card.',
  authentication_failed: "The card's authentication failed, so nothing was charged. Try again, or use another card.",
  payment_in_progress: 'This payment is already being processed. Wait a moment, then reload the page.',
  payment_failed: 'The payment did not go through. Nothing was charged; try another card.',
};

/** The refusals said for a person: each has its message in the catalogues as `problem.<code>`. */
export const hasPersonMessage = (code: string): boolean => code in PERSON_MESSAGES;

/** A refusal as the person at the page reads it (`extra` adds page-specific codes). */
export function personMessage(error: DomainError, extra: Record<string, string> = {}): string {
  return extra[error.code] ?? PERSON_MESSAGES[error.code] ?? error.detail;
}

/**
 * A card expiry as people type it: `09 / 30`, `9/30`, `09/2030`, `09-30`, `0930` or
 * `092030`; null when it is not a month and a year.
 */
export function expiryOf(text: string | undefined): { expMonth: number; expYear: number } | null {
  const typed = (text ?? '').trim();
  const separated = /^(\d{1,2})\s*[/\-.]\s*(\d{2}|\d{4})$/.exec(typed);
  const joined = separated ? null : /^(\d{2})(\d{2}|\d{4})$/.exec(typed.replace(/\s+/g, ''));
  const match = separated ?? joined;
  const month = match ? Number(match[1]) : NaN;
  if (!match || month < 1 || month > 12) return null;
  return { expMonth: month, expYear: Number(match[2]) };
}

/** A card field's problem, in the words of the person at the page. */
export interface CardFieldProblem {
  field: 'card_number' | 'expiry' | 'cvc';
  message: string;
  /** The catalogue's message (messages/en.ts) for the person's language. */
  key: string;
  values?: Record<string, number>;
}

/** What the checks of a typed card (payments' checkCard) mean to the person who typed it. */
export function cardProblemOf(error: DomainError): CardFieldProblem {
  if (isInvalidCardNumber(error)) {
    return { field: 'card_number', message: 'This card number is not valid. Check the digits and try again.', key: 'problem.cardNumber' };
  }
  if (isCardExpired(error)) return { field: 'expiry', message: 'This card has expired. Check the expiry date, or use another card.', key: 'problem.cardExpired' };
  if (error.detail.startsWith('cvc:')) {
    const digits = /has (\d) digits/.exec(error.detail)?.[1] ?? '3';
    return { field: 'cvc', message: `Enter the ${digits}-digit security code of the card.`, key: 'problem.cvc', values: { digits: Number(digits) } };
  }
  return { field: 'expiry', message: 'Enter a valid expiry date, for example 12 / 30.', key: 'problem.expiry' };
}
