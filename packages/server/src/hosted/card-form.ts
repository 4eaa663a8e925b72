import type { ApiError } from '../http/errors.js';

/** What a person at a hosted page reads when the provider refuses: said for them, not for an API caller. */
const PERSON_MESSAGES: Record<string, string> = {
  card_declined: 'The card was declined. Nothing was charged; try another card.',
  insufficient_funds: 'The card has insufficient funds. Nothing was charged; try another card.',
  stolen_card: 'The card was declined. Nothing was charged; try another card.',
  authentication_required: 'The authentication of the card was not completed, so nothing was charged. Try again, or use another card.',
  authentication_failed: "The card's authentication failed, so nothing was charged. Try again, or use another card.",
  payment_in_progress: 'This payment is already being processed. Wait a moment, then reload the page.',
};

/** A refusal as the person at the page reads it (`extra` adds page-specific codes). */
export function personMessage(error: ApiError, extra: Record<string, string> = {}): string {
  return extra[error.code] ?? PERSON_MESSAGES[error.code] ?? error.detail;
}

/** A card expiry typed as MM / YY (or MM/YYYY); null when it is not one. */
export function expiryOf(text: string | undefined): { expMonth: number; expYear: number } | null {
  const match = /^\s*(\d{1,2})\s*\/\s*(\d{2}|\d{4})\s*$/.exec(text ?? '');
  const month = match ? Number(match[1]) : NaN;
  if (!match || month < 1 || month > 12) return null;
  return { expMonth: month, expYear: Number(match[2]) };
}
