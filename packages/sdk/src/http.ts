import { BillowConnectionError, BillowError } from './errors.js';

export type Fetch = typeof globalThis.fetch;

export interface HttpOptions {
  apiKey: string;
  /** Host root with no trailing slash, e.g. `http://localhost:4000/sandbox`. */
  baseUrl: string;
  timeoutMs: number;
  fetch: Fetch;
}

export interface HttpRequest {
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  /** Path below `/api/v1`, with its segments already encoded. */
  path: string;
  query?: Record<string, string | number | undefined>;
  body?: unknown;
  headers?: Record<string, string>;
}

const API_PREFIX = '/api/v1';

/** Encodes one value for use as a path segment (a customerId may hold `/`, spaces, `?` or `#`). */
export const segment = (value: string): string => encodeURIComponent(value);

function urlOf(baseUrl: string, request: HttpRequest): string {
  const url = new URL(`${baseUrl}${API_PREFIX}${request.path}`);
  for (const [name, value] of Object.entries(request.query ?? {})) {
    if (value !== undefined) url.searchParams.set(name, String(value));
  }
  return url.toString();
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** Builds a BillowError from any error answer, including ones not from Billow itself (a proxy's HTML page). */
function errorOf(response: Response, text: string): BillowError {
  const body = parseJson(text) as { detail?: unknown; code?: unknown } | undefined;
  const detail =
    typeof body?.detail === 'string' ? body.detail : text.trim().slice(0, 500) || response.statusText || 'No detail given';
  const code = typeof body?.code === 'string' ? body.code : 'http_error';
  return new BillowError(response.status, code, detail, response.headers.get('x-request-id'));
}

/** Sends one request to Billow and returns its parsed JSON body (undefined for 204). */
export async function send<T>(options: HttpOptions, request: HttpRequest): Promise<T> {
  const headers: Record<string, string> = {
    accept: 'application/json',
    authorization: `Bearer ${options.apiKey}`,
    ...request.headers,
  };
  let body: string | undefined;
  if (request.body !== undefined) {
    body = JSON.stringify(request.body);
    headers['content-type'] = 'application/json';
  }

  let response: Response;
  let text: string;
  try {
    response = await options.fetch(urlOf(options.baseUrl, request), {
      method: request.method,
      headers,
      body,
      signal: AbortSignal.timeout(options.timeoutMs),
    });
    text = await response.text();
  } catch (error) {
    const timedOut = error instanceof Error && error.name === 'TimeoutError';
    const message = timedOut
      ? `Billow did not answer ${request.method} ${request.path} within ${options.timeoutMs} ms`
      : `Could not reach Billow for ${request.method} ${request.path}: ${error instanceof Error ? error.message : String(error)}`;
    throw new BillowConnectionError(message, timedOut, { cause: error });
  }

  if (!response.ok) throw errorOf(response, text);
  if (response.status === 204 || text === '') return undefined as T;
  const parsed = parseJson(text);
  if (parsed === undefined) {
    throw new BillowError(response.status, 'invalid_response', `Billow answered with a body that is not JSON: ${text.slice(0, 200)}`);
  }
  return parsed as T;
}
