import { OPERATION_EXAMPLES, type OperationExample } from './examples/index.js';

/** The parts of an OpenAPI document this module reads and writes. */
interface MediaType {
  schema?: unknown;
  example?: unknown;
}
interface Operation {
  requestBody?: { content?: Record<string, MediaType> };
  responses?: Record<string, { content?: Record<string, MediaType> }>;
}
export interface OpenApiDocument {
  paths?: Record<string, Record<string, Operation>>;
}

const JSON_TYPE = 'application/json';

/** `POST /api/v1/customers/{customerId}/`: how the examples are keyed, the method and the document's path. */
export const operationKey = (method: string, path: string) => `${method.toUpperCase()} ${path}`;

/** The success answer an operation's example illustrates: its first 2xx with a JSON body. */
export function successStatus(operation: Operation): string | undefined {
  return Object.keys(operation.responses ?? {})
    .filter((status) => /^2/.test(status) && operation.responses![status]!.content?.[JSON_TYPE])
    .sort()[0];
}

/** The body of the success answer an example shows: JSON, else text (a stream of events); none for bytes or no body. */
export function successMedia(operation: Operation): { status: string; media: MediaType } | undefined {
  const status = successStatus(operation);
  if (status !== undefined) return { status, media: operation.responses![status]!.content![JSON_TYPE]! };
  for (const [code, answer] of Object.entries(operation.responses ?? {})) {
    const text = Object.entries(answer.content ?? {}).find(([type]) => type.startsWith('text/'));
    if (/^2/.test(code) && text) return { status: code, media: text[1] };
  }
  return undefined;
}

function attach(operation: Operation, example: OperationExample): void {
  const body = operation.requestBody?.content?.[JSON_TYPE];
  if (body && example.request !== undefined) body.example = example.request;
  const answer = successMedia(operation)?.media;
  if (answer && example.response !== undefined) answer.example = example.response;
}

/**
 * Sets every operation's examples (examples/) on its JSON request body and success answer, as
 * the media type's `example`. @fastify/swagger's transformObject: the document is built once per app.
 */
export function attachExamples(document: OpenApiDocument): OpenApiDocument {
  for (const [path, operations] of Object.entries(document.paths ?? {})) {
    for (const [method, operation] of Object.entries(operations)) {
      const example = OPERATION_EXAMPLES[operationKey(method, path)];
      if (example) attach(operation, example);
    }
  }
  return document;
}
