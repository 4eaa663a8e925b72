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

/**
 * Each serializer is built on its route's first answer, not when the app starts: a process
 * answers with few of its routes, and building them all took about a third of a second of
 * every start (a CLI command, a restarted server, each process a test spawns).
 */
export function registerSerialization(app: FastifyInstance): void {
  app.setSerializerCompiler(({ schema }) => {
    let serialize: Serializer | undefined;
    return (data: unknown) => (serialize ??= serializerFor(schema as object))(data);
  });
}
