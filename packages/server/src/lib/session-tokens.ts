import { createHmac, timingSafeEqual } from 'node:crypto';
import { randomBase62, sha256Hex } from './crypto.js';

/** The cookie that carries a seller's session (decision 0076). */
export const SESSION_COOKIE = 'billow_session';

/** A new secret for a cookie or a one-time link: 43 base62 characters, about 256 bits. */
export const newSecretToken = (): string => randomBase62(43);

/** What is stored of a token: its SHA-256. */
export const tokenHash = (token: string): string => sha256Hex(token);

/**
 * The session's CSRF token, derived from the cookie's secret: the server recomputes it from
 * the cookie on every request, so nothing more is stored, and a page of another origin,
 * which cannot read the cookie, cannot know it.
 */
export function csrfTokenOf(sessionToken: string): string {
  return createHmac('sha256', sessionToken).update('billow-csrf-v1').digest('base64url');
}

/** True when `presented` is the session's CSRF token (compared in constant time). */
export function csrfMatches(sessionToken: string, presented: string): boolean {
  const expected = Buffer.from(csrfTokenOf(sessionToken));
  const given = Buffer.from(presented);
  return given.length === expected.length && timingSafeEqual(given, expected);
}
