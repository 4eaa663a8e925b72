import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * A hosted form's CSRF token (decisions 0034, 0037): an HMAC of what the page is about
 * (`purpose:id`, e.g. a checkout session, a portal session) under an instance secret.
 * Nothing is stored; the id is itself the secret of the page's URL.
 */
export function formToken(secret: string, purpose: string, id: string): string {
  return createHmac('sha256', secret).update(`${purpose}:${id}`).digest('base64url');
}

/** Compares a sent token with the expected one in constant time; a missing one never matches. */
export function formTokenValid(secret: string, purpose: string, id: string, sent: string | undefined): boolean {
  const expected = Buffer.from(formToken(secret, purpose, id));
  const given = Buffer.from(sent ?? '');
  return given.length === expected.length && timingSafeEqual(given, expected);
}
