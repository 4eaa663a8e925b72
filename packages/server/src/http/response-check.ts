import { Ajv, type ValidateFunction } from 'ajv';
import addFormatsImport from 'ajv-formats';
import type { FastifyInstance, FastifyReply, FastifyRequest, FastifySchema } from 'fastify';
import { ErrorBody } from '@billow/contract';

// ajv-formats ships CommonJS whose default export is the plugin function.
const addFormats = addFormatsImport as unknown as (ajv: Ajv) => Ajv;

/**
 * A test-only check (decision 0112): every JSON answer of a documented route (/api/v1,
 * /dashboard/api; not hidden from the OpenAPI document) is validated, as sent, against the
 * response schema its route declares for the status, the schema the document shows. Test
 * servers switch it on (BuildApp's `responseCheck`); production servers never register it.
 */
export interface ResponseCheck {
  /** A documented route answered something its schema does not allow (the answer becomes a 500). */
  mismatch(found: ResponseMismatch): void;
  /** An error of the transport (TRANSPORT_STATUSES) the route does not document (its body is still checked as the one error format). */
  undocumented?(found: Omit<ResponseMismatch, 'problem'>): void;
}

export interface ResponseMismatch {
  method: string;
  route: string;
  status: number;
  problem: string;
}

type Responses = Record<string, unknown>;

const DOCUMENTED = /^\/(api\/v1|dashboard\/api)\//;
/**
 * Errors any route may answer without its own doing, which routes do not each declare: a request too slow, too
 * large or of an unknown type, a rate limit, a failure of ours, a server shutting down. Any other status a
 * route answers must be in its schema.
 */
const TRANSPORT_STATUSES = new Set([408, 413, 415, 429, 500, 503]);
const JSON_TYPE = /^application\/(?:[\w.+-]+\+)?json\b/;

/** One validator per schema object for the process, as the request validators are (http/validation.ts). */
const validators = new WeakMap<object, ValidateFunction>();
let ajv: Ajv | undefined;

function validatorOf(schema: object): ValidateFunction {
  let validate = validators.get(schema);
  if (!validate) {
    ajv ??= addFormats(new Ajv({ strict: false, allErrors: false, coerceTypes: false, useDefaults: false }));
    validate = ajv.compile(schema);
    ajv.removeSchema(schema);
    validators.set(schema, validate);
  }
  return validate;
}

/** The schema a route declares for a status, looked up as Fastify's serializer does: the code, its class (2xx), then default. */
export function declaredSchema(responses: Responses | undefined, status: number): object | undefined {
  if (!responses) return undefined;
  const entry = responses[String(status)] ?? responses[`${String(status)[0]}xx`] ?? responses.default;
  if (!entry || typeof entry !== 'object') return undefined;
  const content = (entry as { content?: Record<string, { schema?: object }> }).content;
  if (content) return content['application/json']?.schema;
  return entry;
}

/** Why a JSON text does not match a schema (the first Ajv error, with where), or null when it does. */
export function schemaProblem(schema: object, text: string): string | null {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return 'the body is not JSON';
  }
  const validate = validatorOf(schema);
  if (validate(value)) return null;
  const error = validate.errors?.[0];
  if (!error) return 'the body does not match its schema';
  const where = error.instancePath || '(the body)';
  return `${where} ${error.message ?? 'is not valid'} ${JSON.stringify(error.params)}`;
}

function isDocumented(request: FastifyRequest): boolean {
  const url = request.routeOptions.url;
  const schema = request.routeOptions.schema as (FastifySchema & { hide?: boolean }) | undefined;
  return url !== undefined && DOCUMENTED.test(url) && schema?.hide !== true;
}

/** What is wrong with an answer, or null; `undocumented` is told of a transport error the route does not declare. */
function answerProblem(request: FastifyRequest, reply: FastifyReply, text: string, check: ResponseCheck): string | null {
  const status = reply.statusCode;
  const responses = (request.routeOptions.schema as FastifySchema | undefined)?.response as Responses | undefined;
  const schema = declaredSchema(responses, status);
  if (schema) return schemaProblem(schema, text);
  if (!TRANSPORT_STATUSES.has(status)) return `status ${status} is not documented`;
  check.undocumented?.({ method: request.method, route: request.routeOptions.url!, status });
  return schemaProblem(ErrorBody, text);
}

function textOf(payload: unknown): string | null {
  if (typeof payload === 'string') return payload;
  if (Buffer.isBuffer(payload)) return payload.toString('utf8');
  return null;
}

export function registerResponseCheck(app: FastifyInstance, check: ResponseCheck): void {
  app.addHook('onSend', (request, reply, payload, done) => {
    const type = reply.getHeader('content-type');
    const text = textOf(payload);
    if (text === null || text === '' || typeof type !== 'string' || !JSON_TYPE.test(type) || !isDocumented(request)) {
      return done(null, payload);
    }
    const problem = answerProblem(request, reply, text, check);
    if (problem === null) return done(null, payload);
    const found = { method: request.method, route: request.routeOptions.url!, status: reply.statusCode, problem };
    check.mismatch(found);
    request.log.error({ responseMismatch: found }, 'response does not match its documented schema');
    const detail = `${found.method} ${found.route} answered ${found.status} with a body its documented schema refuses: ${problem}`;
    reply.code(500);
    reply.removeHeader('content-length');
    done(null, JSON.stringify({ detail, code: 'response_mismatch' }));
  });
}

/**
 * The same check for the answers the Edge's fast lane sends ahead of Fastify (http/fast-lane.ts):
 * always a 200 of a GET route. Returns the body of the 500 that replaces a wrong answer, or null.
 */
export function laneAnswerCheck(
  schemaOf: (routeUrl: string) => FastifySchema | undefined,
  check: ResponseCheck,
): (routeUrl: string, body: string) => string | null {
  return (route, body) => {
    const schema = declaredSchema(schemaOf(route)?.response as Responses | undefined, 200);
    const problem = schema ? schemaProblem(schema, body) : 'status 200 is not documented';
    if (problem === null) return null;
    check.mismatch({ method: 'GET', route, status: 200, problem });
    return JSON.stringify({ detail: `GET ${route} answered 200 (fast lane) with a body its documented schema refuses: ${problem}`, code: 'response_mismatch' });
  };
}
