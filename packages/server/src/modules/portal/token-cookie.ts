/**
 * The portal session's token after the first visit (decisions 0037 and 0054): the link's
 * `?token=` is traded for an HttpOnly cookie scoped to the one portal's path, and the
 * browser is sent to the same page without the token, so that it is kept neither in the
 * browser's history nor in any later URL (logs, Referer).
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { parse, serialize } from 'cookie';

const COOKIE = 'billow_portal';

/** The token the browser holds for this portal, if any. */
export function cookieToken(request: FastifyRequest): string | undefined {
  const header = request.headers.cookie;
  return header ? parse(header)[COOKIE] : undefined;
}

/** Hands the browser the token as a cookie of `path` (the portal's own), until the session expires. */
export function setTokenCookie(reply: FastifyReply, options: { path: string; token: string; maxAgeS: number; secure: boolean }): void {
  const value = serialize(COOKIE, options.token, {
    path: options.path,
    maxAge: Math.max(0, options.maxAgeS),
    httpOnly: true,
    sameSite: 'lax',
    secure: options.secure,
  });
  reply.header('set-cookie', value);
}
