import type { FastifyInstance, FastifyReply, RawReplyDefaultExpression, RawRequestDefaultExpression, RawServerDefault, FastifyBaseLogger } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';

export type App = FastifyInstance<
  RawServerDefault,
  RawRequestDefaultExpression,
  RawReplyDefaultExpression,
  FastifyBaseLogger,
  TypeBoxTypeProvider
>;

export const SERVER_ONLY = ['server'] as const;
export const SERVER_OR_CLIENT = ['server', 'client'] as const;

const JSON_TYPE = 'application/json; charset=utf-8';

/**
 * Sends a body that is already JSON, of the shape the route's response schema
 * documents: Fastify passes a string of a JSON type through without serializing it. The
 * schema's type cannot see that, hence the cast.
 */
export function sendJson(reply: FastifyReply, body: string): FastifyReply {
  return reply.type(JSON_TYPE).send(body as never);
}
