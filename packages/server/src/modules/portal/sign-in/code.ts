import { createHmac, randomInt, timingSafeEqual } from 'node:crypto';

export const CODE_DIGITS = 6;

/** A uniformly random code of six digits, from the CSPRNG. */
export const newCode = (): string => randomInt(0, 10 ** CODE_DIGITS).toString().padStart(CODE_DIGITS, '0');

/** What is stored of a code: an HMAC bound to its sign-in, under an instance secret (a leaked table reveals no code). */
export const codeHash = (secret: string, signInId: string, code: string): string =>
  createHmac('sha256', secret).update(`portal-sign-in-code:${signInId}:${code}`).digest('hex');

export function codeMatches(secret: string, signInId: string, sent: string, stored: string): boolean {
  const given = Buffer.from(codeHash(secret, signInId, sent), 'hex');
  const expected = Buffer.from(stored, 'hex');
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/** The digits of what the customer typed ("123 456", " 123456 "); null when it cannot be a code. */
export function normalizedCode(sent: string | undefined): string | null {
  const digits = (sent ?? '').replace(/[\s-]/g, '');
  return new RegExp(`^\\d{${CODE_DIGITS}}$`).test(digits) ? digits : null;
}
