import fastJson from 'fast-json-stringify';
import type { FastifyInstance } from 'fastify';

type Serializer = (data: unknown) => string;

/**
 * Response serializers as Fastify builds them (fast-json-stringify, no shared schemas), kept
 * per schema object for the process, so that building a second app reuses the first's.
 */
const serializers = new WeakMap<object, Serializer>();

function serializerFor(schema: object): Serializer {
  let serialize = serializers.get(schema);
  if (!serialize) {
    serialize = fastJson(schema) as Serializer;
    serializers.set(schema, serialize);
  }
  return serialize;
}

export function registerSerialization(app: FastifyInstance): void {
  app.setSerializerCompiler(({ schema }) => serializerFor(schema as object));
}
