import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { DomainError, type ErrorKind } from '../lib/domain-error.js';

export { invalid as badRequest, conflict, forbidden, notFound, unauthorized } from '../lib/domain-error.js';

/** The one place a domain error's kind becomes an HTTP status (decision 0060). */
const STATUS_OF_KIND: Record<ErrorKind, number> = {
  invalid: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  gone: 410,
  too_large: 413,
  unsupported_media: 415,
  unprocessable: 422,
  precondition_required: 428,
  too_many: 429,
  unavailable: 503,
};

const KIND_OF_STATUS = new Map(Object.entries(STATUS_OF_KIND).map(([kind, status]) => [status, kind as ErrorKind]));

export const statusOf = (error: DomainError): number => STATUS_OF_KIND[error.kind];

/** An error of the transport itself (a body that is not JSON, a rate limit, a server shutting down), raised in src/http/ only. */
export class ApiError extends DomainError {
  constructor(
    readonly status: number,
    code: string,
    detail: string,
    readonly headers: Record<string, string> = {},
    fields: Record<string, unknown> = {},
  ) {
    const kind = KIND_OF_STATUS.get(status);
    if (kind === undefined) throw new Error(`no error kind answers with HTTP ${status}`);
    super(kind, code, detail, fields);
  }
}

interface AjvIssue {
  keyword: string;
  instancePath: string;
  message?: string;
  params: Record<string, unknown>;
}

function fieldPath(issue: AjvIssue, context: string): string {
  const parts = issue.instancePath.split('/').filter(Boolean);
  if (issue.keyword === 'required' && typeof issue.params.missingProperty === 'string') {
    parts.push(issue.params.missingProperty);
  }
  if (issue.keyword === 'additionalProperties' && typeof issue.params.additionalProperty === 'string') {
    parts.push(issue.params.additionalProperty);
  }
  const path = parts.map((p) => (/^\d+$/.test(p) ? `[${p}]` : p)).join('.').replace(/\.\[/g, '[');
  return path || (context === 'body' ? 'body' : context);
}

/** Turns schema validation issues into one sentence that names the field. */
export function describeValidation(issues: AjvIssue[], context: string): string {
  const relevant = issues.filter((i) => i.keyword !== 'anyOf' && i.keyword !== 'if');
  const issue = relevant.find((i) => i.keyword !== 'type' || relevant.length === 1) ?? relevant[0] ?? issues[0];
  if (!issue) return 'The request is not valid';
  const field = fieldPath(issue, context);
  const prefix = context === 'querystring' ? 'query parameter ' : context === 'params' ? 'path parameter ' : '';
  switch (issue.keyword) {
    case 'required':
      return `${prefix}${field} is required`;
    case 'additionalProperties':
      return `${prefix}${field} is not a known field`;
    case 'pattern':
      if (issue.params.pattern === '\\S') return `${prefix}${field} must not be blank`;
      return `${prefix}${field}: ${issue.message ?? 'is not valid'}`;
    case 'enum':
      return `${prefix}${field} must be one of ${(issue.params.allowedValues as unknown[]).join(', ')}`;
    default:
      return `${prefix}${field}: ${issue.message ?? 'is not valid'}`;
  }
}

const FASTIFY_CODES: Record<string, { status: number; code: string; detail?: string }> = {
  FST_ERR_CTP_BODY_TOO_LARGE: { status: 413, code: 'payload_too_large', detail: 'The request body is too large' },
  FST_ERR_CTP_INVALID_MEDIA_TYPE: {
    status: 415,
    code: 'unsupported_media_type',
    detail: 'Send the request body as JSON, with Content-Type: application/json',
  },
  FST_ERR_CTP_EMPTY_JSON_BODY: { status: 400, code: 'invalid_json', detail: 'The request body is empty' },
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: { status: 400, code: 'invalid_request', detail: 'Content-Length is wrong' },
};

export function sendError(reply: FastifyReply, status: number, code: string, detail: string, fields: Record<string, unknown> = {}): FastifyReply {
  return reply.code(status).type('application/json; charset=utf-8').send({ ...fields, detail, code });
}

export function registerErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    if (error instanceof DomainError) {
      if (error instanceof ApiError) for (const [name, value] of Object.entries(error.headers)) reply.header(name, value);
      return sendError(reply, statusOf(error), error.code, error.detail, error.fields);
    }
    if (error.validation) {
      const detail = describeValidation(error.validation as AjvIssue[], error.validationContext ?? 'body');
      return sendError(reply, 400, 'validation_error', detail);
    }
    const known = error.code ? FASTIFY_CODES[error.code] : undefined;
    if (known) return sendError(reply, known.status, known.code, known.detail ?? error.message);
    const status = error.statusCode ?? 500;
    if (status >= 400 && status < 500) {
      if (status === 429) return sendError(reply, 429, 'rate_limited', error.message);
      return sendError(reply, status, 'invalid_request', error.message);
    }
    request.log.error({ err: error }, 'unhandled error');
    return sendError(reply, 500, 'internal_error', 'Something went wrong on our side; the request id is in X-Request-Id');
  });
}
