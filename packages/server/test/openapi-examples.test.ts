import { Ajv } from 'ajv';
import addFormatsImport from 'ajv-formats';
import { Validator } from '@seriousme/openapi-schema-validator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OPERATION_EXAMPLES } from '../src/openapi/examples/index.js';
import { operationKey, successMedia } from '../src/openapi/attach-examples.js';
import { startTestServer, type TestServer } from './harness.js';

const addFormats = addFormatsImport as unknown as (ajv: Ajv) => Ajv;

interface MediaType {
  schema: object;
  example?: unknown;
}
interface Operation {
  requestBody?: { content: Record<string, MediaType> };
  responses: Record<string, { content?: Record<string, MediaType> }>;
}

let server: TestServer;
/** The served document with its references resolved, so that each schema stands alone. */
let operations: [string, Operation][];

beforeAll(async () => {
  server = await startTestServer();
  const validator = new Validator();
  await validator.validate((await server.request('GET', '/api/v1/openapi.json')).body);
  const doc = validator.resolveRefs() as { paths: Record<string, Record<string, Operation>> };
  operations = Object.entries(doc.paths).flatMap(([path, item]) =>
    Object.entries(item).map(([method, operation]) => [operationKey(method, path), operation] as [string, Operation]),
  );
});
afterAll(() => server.close());

/** The media types an operation's examples illustrate: its JSON request body and its success answer (JSON, or text). */
function illustrated(operation: Operation): [string, MediaType][] {
  const parts: [string, MediaType][] = [];
  const body = operation.requestBody?.content['application/json'];
  if (body) parts.push(['request body', body]);
  const answer = successMedia(operation);
  if (answer !== undefined) parts.push([`${answer.status} answer`, answer.media as MediaType]);
  return parts;
}

/** Words a real value never is: what a generator writes where nobody chose a value. */
function placeholders(value: unknown, at = ''): string[] {
  if (typeof value === 'string') return /^(string|foo|bar|example|lorem ipsum)$/i.test(value) ? [`${at || '(value)'}: "${value}"`] : [];
  if (Array.isArray(value)) return value.flatMap((item, i) => placeholders(item, `${at}[${i}]`));
  if (value && typeof value === 'object') return Object.entries(value).flatMap(([key, item]) => placeholders(item, `${at}.${key}`));
  return [];
}

describe('the examples of the OpenAPI document', () => {
  it('illustrate the JSON request body and the success answer of every operation', () => {
    const missing = operations.flatMap(([key, operation]) =>
      illustrated(operation).filter(([, media]) => media.example === undefined).map(([part]) => `${key}: ${part}`),
    );
    expect(missing).toEqual([]);
    expect(operations.length).toBeGreaterThan(150);
  });

  it('are each valid against the schema they illustrate, formats included', () => {
    const ajv = addFormats(new Ajv({ strict: false, allErrors: true }));
    const wrong = operations.flatMap(([key, operation]) =>
      illustrated(operation).flatMap(([part, media]) => {
        if (media.example === undefined) return [];
        const validate = ajv.compile(media.schema);
        return validate(media.example) ? [] : [`${key}: ${part}: ${ajv.errorsText(validate.errors)}`];
      }),
    );
    expect(wrong).toEqual([]);
  });

  it('show bytes (a PDF, a file) under their own media type, never as JSON', () => {
    const binary = operations.flatMap(([key, operation]) =>
      Object.entries(operation.responses).flatMap(([status, answer]) => {
        const schema = answer.content?.['application/json']?.schema as { format?: string } | undefined;
        return schema?.format === 'binary' ? [`${key}: ${status}`] : [];
      }),
    );
    expect(binary).toEqual([]);
  });

  it('name only operations of the document, and hold no placeholder values', () => {
    const served = new Set(operations.map(([key]) => key));
    expect(Object.keys(OPERATION_EXAMPLES).filter((key) => !served.has(key))).toEqual([]);
    expect(Object.entries(OPERATION_EXAMPLES).flatMap(([key, example]) => placeholders(example, key))).toEqual([]);
  });
});
