import { Ajv, type Options, type ValidateFunction } from 'ajv';
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
const BODY_OPTIONS: Options = { coerceTypes: false, removeAdditional: false };
const TEXT_OPTIONS: Options = { coerceTypes: 'array', removeAdditional: false };

/**
 * One compiler per kind of input for the whole process, remembering what it compiled by the
 * schema object: route schemas are module constants, so every app built in the process (a
 * test run builds hundreds) compiles each once. Compiling them took about a fifth of the CPU
 * of building an app.
 */
class SchemaCompiler {
  private ajv: Ajv | undefined;
  private readonly compiled = new WeakMap<object, ValidateFunction>();

  constructor(private readonly options: Options) {}

  compile(schema: object): ValidateFunction {
    let check = this.compiled.get(schema);
    if (!check) {
      this.ajv ??= ajvWith(this.options);
      check = this.ajv.compile(schema);
      // Ajv would also keep it, for good: an app's own inline schemas would then outlive the app.
      this.ajv.removeSchema(schema);
      this.compiled.set(schema, check);
    }
    return check;
  }
}

const bodies = new SchemaCompiler(BODY_OPTIONS);
const texts = new SchemaCompiler(TEXT_OPTIONS);

/**
 * A validator compiled on its first use, not when the app starts (compiling every route's took
 * about two thirds of a second of each process start). Fastify reads a failure's `errors` from
 * the function it was given, so they are passed on.
 */
function compiledOnUse(compiler: SchemaCompiler, schema: object) {
  let check: ValidateFunction | undefined;
  const validate = (data: unknown): boolean => {
    check ??= compiler.compile(schema);
    const valid = check(data) as boolean;
    validate.errors = check.errors;
    return valid;
  };
  validate.errors = null as ValidateFunction['errors'];
  return validate;
}

export function registerValidation(app: FastifyInstance): void {
  app.setValidatorCompiler(({ schema, httpPart }) => compiledOnUse(httpPart === 'body' ? bodies : texts, schema));
}

/** A body checked as the API checks it (outside a request: the CLI), its first problem in the API's words; null when valid. */
export function bodyProblem(schema: object, value: unknown): string | null {
  const check = bodies.compile(schema);
  if (check(value)) return null;
  return describeValidation((check.errors ?? []) as Parameters<typeof describeValidation>[0], 'body');
}
