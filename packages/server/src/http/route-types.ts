import type { FastifyInstance, FastifyRequest, RawReplyDefaultExpression, RawRequestDefaultExpression, RawServerDefault, FastifyBaseLogger } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { EnvironmentAuth } from './auth.js';

export type App = FastifyInstance<
  RawServerDefault,
  RawRequestDefaultExpression,
  RawReplyDefaultExpression,
  FastifyBaseLogger,
  TypeBoxTypeProvider
>;

/** The authenticated environment of a request to a route that requires a key. */
export function authOf(request: FastifyRequest): EnvironmentAuth {
  if (!request.auth) throw new Error('authOf() called on a route without environment authentication');
  return request.auth;
}

export const SERVER_ONLY = ['server'] as const;
export const SERVER_OR_CLIENT = ['server', 'client'] as const;
