import type { Operation } from '@billow/contract';
import type { Static, TSchema } from 'typebox';
import { eventStreamOf, type EventStream } from './event-stream.js';
import type { Download, HttpRequest, QueryValue, RequestOptions, Transport } from './http.js';
import { PagePromise, type Page, type PageFetcher } from './pages.js';

/** One argument per path parameter, in order: `'/a/{x}/b/{y}/'` takes two. */
type PathArgs<P extends string> = P extends `${string}{${string}}${infer Rest}` ? [string | number, ...PathArgs<Rest>] : [];

/** Per call options; a write that also takes a query (a plan version) takes it here. */
export type CallOptions<Query = never> = RequestOptions & ([Query] extends [never] ? unknown : { query?: Query });

type Tail<O extends Operation> = O extends { body: infer B extends TSchema }
  ? O extends { query: infer Q extends TSchema }
    ? InputThenOptions<Static<B>, CallOptions<Static<Q>>>
    : InputThenOptions<Static<B>, CallOptions>
  : O extends { query: infer Q extends TSchema }
    ? InputThenOptions<Static<Q>, CallOptions>
    : [options?: CallOptions];
/** The input may be left out when none of its fields is required. */
type InputThenOptions<Input, Options> = object extends Input ? [input?: Input, options?: Options] : [input: Input, options?: Options];

type ResultOf<O extends Operation> = O extends { events: infer E extends TSchema }
  ? Promise<EventStream<Static<E>>>
  : O['status'] extends 204
    ? Promise<void>
    : Static<O['response']> extends Uint8Array
      ? Promise<Download>
      : Static<O['response']> extends Page<infer Item>
        ? PagePromise<Item, Static<O['response']>>
        : Promise<Static<O['response']>>;

/** One operation as a method: its path parameters in order, then its body (or query), then the call's options. */
export type Method<O extends Operation> = (...args: [...PathArgs<O['path']>, ...Tail<O>]) => ResultOf<O>;

/** A tree of operations as a tree of methods. */
export type Resources<T> = { [K in keyof T]: T[K] extends Operation ? Method<T[K]> : Resources<T[K]> };

/** The operations served by the Edge (its own URL when the seller runs one apart). */
const EDGE_OPERATIONS = new Set(['entitlements.check', 'entitlements.changes', 'promotions.forVisitor']);

const isOperation = (value: unknown): value is Operation =>
  typeof value === 'object' && value !== null && 'method' in value && 'path' in value && 'response' in value;

const PATH_PARAMETER = /\{([^}]+)\}/g;

function pathOf(operation: Operation, name: string, values: unknown[]): string {
  let index = 0;
  return operation.path.replace(PATH_PARAMETER, (_, parameter: string) => {
    const value = values[index++];
    if (typeof value !== 'string' && typeof value !== 'number') throw new TypeError(`${name}: ${parameter} must be a string or a number`);
    const text = String(value);
    // Even encoded, these collapse into another path (or the list) once the URL is normalised.
    if (text === '' || text === '.' || text === '..') throw new TypeError(`${name}: ${parameter} "${text}" can't be addressed in a URL`);
    return encodeURIComponent(text);
  });
}

function isListAnswer(operation: Operation): boolean {
  const properties = (operation.response as { properties?: Record<string, unknown> }).properties;
  return !!properties && 'results' in properties && 'next' in properties;
}

const isFileAnswer = (operation: Operation): boolean => (operation.response as { format?: string; content?: object }).format === 'binary' || 'content' in operation.response;

function methodOf(transport: Transport, operation: Operation, name: string): (...args: unknown[]) => unknown {
  const pathCount = operation.path.match(PATH_PARAMETER)?.length ?? 0;
  const list = isListAnswer(operation);
  const file = isFileAnswer(operation);
  return (...args: unknown[]) => {
    let path: string;
    try {
      path = pathOf(operation, name, args.slice(0, pathCount));
    } catch (error) {
      return Promise.reject(error);
    }
    // An operation with neither body nor query takes its call options right after its path parameters.
    const takesInput = !!(operation.body || operation.query);
    const input = takesInput ? args[pathCount] : undefined;
    const options = (args[pathCount + (takesInput ? 1 : 0)] ?? {}) as CallOptions<Record<string, QueryValue>>;
    const request: HttpRequest = {
      method: operation.method,
      path,
      auth: operation.auth,
      edge: EDGE_OPERATIONS.has(name),
      ...(operation.body ? { body: input ?? {}, query: 'query' in options ? options.query : undefined } : { query: input as Record<string, QueryValue> | undefined }),
    };
    if (operation.events) return openStream(transport, request, options);
    if (list) return pagesOf(transport, operation, request, options);
    if (operation.status === 204) return transport.json(request, options).then(() => undefined);
    return file && !list ? transport.file(request, options) : transport.json(request, options);
  };
}

/** A list, in pages: numbered (`page`), or for the audit log the `cursor` of each page's `next` link. */
function pagesOf(transport: Transport, operation: Operation, request: HttpRequest, options: RequestOptions): PagePromise<unknown, Page<unknown>> {
  const query = request.query ?? {};
  const numbered = !!(operation.query as { properties?: Record<string, unknown> } | undefined)?.properties?.page;
  const fetchPage: PageFetcher<Page<unknown>> = (number, previous) => {
    const at = numbered ? { page: number } : previous?.next ? { cursor: new URL(previous.next).searchParams.get('cursor') } : {};
    return transport.json<Page<unknown>>({ ...request, query: { ...query, ...at } }, options);
  };
  return new PagePromise(fetchPage, typeof query.page === 'number' ? query.page : 1);
}

async function openStream(transport: Transport, request: HttpRequest, options: RequestOptions): Promise<EventStream<unknown>> {
  const stop = new AbortController();
  const signal = options.signal ? AbortSignal.any([stop.signal, options.signal]) : stop.signal;
  const response = await transport.fetch({ ...request, stream: true }, { ...options, signal, maxRetries: options.maxRetries ?? 0 });
  return eventStreamOf(response, stop);
}

/** Every operation of `table` as a method, under the same names. */
export function resourcesOf<T extends object>(transport: Transport, table: T, prefix = ''): Resources<T> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(table)) {
    const name = prefix ? `${prefix}.${key}` : key;
    out[key] = isOperation(value) ? methodOf(transport, value, name) : resourcesOf(transport, value as object, name);
  }
  return out as Resources<T>;
}
