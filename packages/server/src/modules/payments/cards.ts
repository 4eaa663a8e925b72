import type { CardDetails } from './provider.js';

/** Card numbers have 12 to 19 digits (ISO/IEC 7812). */
const CARD_DIGITS = /^[0-9]{12,19}$/;

/** The Luhn (mod 10) check every real card number passes. */
export function luhnValid(number: string): boolean {
  if (!CARD_DIGITS.test(number)) return false;
  let sum = 0;
  for (let i = 0; i < number.length; i++) {
    let digit = number.charCodeAt(number.length - 1 - i) - 48;
    if (i % 2 === 1) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
  }
  return sum % 10 === 0;
}

/** A card number as people type it ("4242 4242 4242 4242", "4242-4242-…") reduced to its digits. */
export function normalizeCardNumber(input: string): string {
  return input.replace(/[\s-]/g, '');
}

/** The brand of a card from its leading digits; `unknown` for the rest. */
export function cardBrand(number: string): string {
  if (/^4/.test(number)) return 'visa';
  if (/^3[47]/.test(number)) return 'amex';
  if (/^(6011|65)/.test(number)) return 'discover';
  if (/^5[1-5]/.test(number)) return 'mastercard';
  const six = Number(number.slice(0, 6));
  if (number.length >= 6 && six >= 222100 && six <= 272099) return 'mastercard';
  return 'unknown';
}

/**
 * What the sandbox reports about a test card: its brand, last four digits, and
 * funding and issuing country as the reference's test cards report them
 * (credit, US). The expiry is the one given; without one, the sandbox reports
 * December four years ahead, as card networks' test tokens carry a future date.
 */
export function cardDetails(number: string, expiry?: { expMonth: number; expYear: number }): CardDetails {
  const digits = normalizeCardNumber(number);
  return {
    brand: cardBrand(digits),
    last4: digits.slice(-4),
    expMonth: expiry?.expMonth ?? 12,
    expYear: expiry?.expYear ?? new Date().getUTCFullYear() + 4,
    funding: 'credit',
    country: 'US',
  };
}

/** The sandbox provider's handle of a test card: `card_<digits>`. */
export const sandboxCardRef = (digits: string): string => `card_${digits}`;

/** The card number in a sandbox handle, or null when the handle is not one. */
export function cardNumberOfRef(ref: string): string | null {
  const match = /^card_([0-9]{12,19})$/.exec(ref);
  return match?.[1] ?? null;
}
