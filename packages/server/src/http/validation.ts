import { Ajv, type Options } from 'ajv';
import addFormatsImport from 'ajv-formats';
import type { FastifyInstance } from 'fastify';

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
