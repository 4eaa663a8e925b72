import type { FastifyReply, FastifyRequest } from 'fastify';
import { randomBase62 } from '../../../lib/crypto.js';

/**
 * The browser a sign-in belongs to: a random value in an HttpOnly, SameSite=Lax cookie
 * scoped to the portals' path. The forms' CSRF token is an HMAC of it, and a sign-in
 * records a hash of it: a code works only in the browser that asked for it, and a form
 * posted from another site carries neither the cookie nor a token that matches it.
 */
const COOKIE = 'billow_portal_sign_in';
const VALUE = /^[A-Za-z0-9]{32}$/;
const MAX_AGE_S = 24 * 60 * 60;

export function browserOf(request: FastifyRequest): string | null {
  for (const part of (request.headers.cookie ?? '').split(';')) {
    const [name, value] = part.trim().split('=', 2);
    if (name === COOKIE && value && VALUE.test(value)) return value;
  }
  return null;
}

/** The browser's value, set as a cookie when it has none yet. */
export function ensureBrowser(request: FastifyRequest, reply: FastifyReply, prefix: string): string {
  const known = browserOf(request);
  if (known) return known;
  const value = randomBase62(32);
  const secure = request.protocol === 'https' ? '; Secure' : '';
  reply.header('set-cookie', `${COOKIE}=${value}; Path=${prefix}/portal/; Max-Age=${MAX_AGE_S}; HttpOnly; SameSite=Lax${secure}`);
  return value;
}
