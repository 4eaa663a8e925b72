import type { FastifyReply, FastifyRequest } from 'fastify';
import { serialize } from 'cookie';
import { SESSION_COOKIE } from '../../lib/session-tokens.js';
import type { Client } from './sessions.service.js';

/** Where the session cookie is Secure: behind https, as the request or BILLOW_PUBLIC_URL says. */
const secureFor = (request: FastifyRequest, publicUrl: string | null): boolean =>
  request.protocol === 'https' || (publicUrl?.startsWith('https:') ?? false);

/** Hands the browser its session: HttpOnly, SameSite=Strict, for the whole site, until the absolute expiry. */
export function setSessionCookie(reply: FastifyReply, options: { token: string; maxAgeMs: number; publicUrl: string | null }): void {
  reply.header(
    'set-cookie',
    serialize(SESSION_COOKIE, options.token, {
      path: '/',
      maxAge: Math.floor(options.maxAgeMs / 1000),
      httpOnly: true,
      sameSite: 'strict',
      secure: secureFor(reply.request, options.publicUrl),
    }),
  );
}

export function clearSessionCookie(reply: FastifyReply, publicUrl: string | null): void {
  reply.header('set-cookie', serialize(SESSION_COOKIE, '', { path: '/', maxAge: 0, httpOnly: true, sameSite: 'strict', secure: secureFor(reply.request, publicUrl) }));
}

export const clientOf = (request: FastifyRequest): Client => ({
  address: request.ip,
  userAgent: typeof request.headers['user-agent'] === 'string' ? request.headers['user-agent'] : '',
});
