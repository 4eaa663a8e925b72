import { Ajv, type Options } from 'ajv';
import addFormatsImport from 'ajv-formats';
import type { FastifyInstance } from 'fastify';
import { describeValidation } from './errors.js';

// ajv-formats ships CommonJS whose default export is the plugin function.
const addFormats = addFormatsImport as unknown as (ajv: Ajv) => Ajv;

function ajvWith(options: Options): Ajv {
  const ajv = new Ajv({ allErrors: false, strict: false, useDefaults: true, ...options });
  addFormats(ajv);
  return ajv;
}

/**
 * Bodies are validated as sent: no type coercion and no silent removal of
 * unknown fields (they are refused, by name). Query strings and path
 * parameters arrive as text, so those coerce ("2" -> 2).
 */
export function registerValidation(app: FastifyInstance): void {
  const body = ajvWith({ coerceTypes: false, removeAdditional: false });
  const text = ajvWith({ coerceTypes: 'array', removeAdditional: false });
  app.setValidatorCompiler(({ schema, httpPart }) => (httpPart === 'body' ? body : text).compile(schema));
}

let bodies: Ajv | undefined;

/** A body checked as the API checks it (outside a request: the CLI), its first problem in the API's words; null when valid. */
export function bodyProblem(schema: object, value: unknown): string | null {
  bodies ??= ajvWith({ coerceTypes: false, removeAdditional: false });
  const check = bodies.compile(schema);
  if (check(value)) return null;
  return describeValidation((check.errors ?? []) as Parameters<typeof describeValidation>[0], 'body');
}
