import { randomUUID } from 'node:crypto';
import type { OperationAuth } from '@billow/contract';
import { BillowConnectionError, BillowError, errorOf } from './errors.js';

export type Fetch = typeof globalThis.fetch;

export interface TransportOptions {
  apiKey: string | null;
  partnerKey: string | null;
  /** Host roots with no trailing slash, e.g. `http://localhost:4000/sandbox`. */
  baseUrl: string;
  edgeUrl: string;
  timeoutMs: number;
  maxRetries: number;
  fetch: Fetch;
  /** Milliseconds to wait before retry `attempt` (1, 2, …); replaced in tests. */
  backoff?: (attempt: number) => number;
}

/** Per call: what the client's options say for every call, for this one. */
export interface RequestOptions {
  /** Sent as `Idempotency-Key` on a POST; one is made up when left out, so that a retry never acts twice. */
  idempotencyKey?: string;
  timeoutMs?: number;
  /** Retries after a failed connection, a timeout, a 429 or a 502/503/504; 0 for none. */
  maxRetries?: number;
  signal?: AbortSignal;
  headers?: Record<string, string>;
}

export type QueryValue = string | number | boolean | null | undefined | readonly (string | number | boolean)[];

export interface HttpRequest {
  method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
  /** Path below `/api/v1`, with its segments already encoded. */
  path: string;
  query?: Record<string, QueryValue>;
  body?: unknown;
  auth: OperationAuth;
  /** Sent to the Edge's URL (checks, promotions, their change stream). */
  edge?: boolean;
  /** An answer that stays open (an event stream): the timeout covers only the wait for its headers. */
  stream?: boolean;
}

/** A file Billow answered with (a PDF, an attachment, a download). */
export interface Download {
  bytes: Uint8Array;
  contentType: string;
  /** From Content-Disposition, when Billow named the file. */
  fileName: string | null;
}

const API_PREFIX = '/api/v1';
const RETRY_STATUSES = new Set([408, 429, 502, 503, 504]);
const MAX_RETRY_AFTER_MS = 30_000;

function urlOf(options: TransportOptions, request: HttpRequest): string {
  const url = new URL(`${request.edge ? options.edgeUrl : options.baseUrl}${API_PREFIX}${request.path}`);
  for (const [name, value] of Object.entries(request.query ?? {})) {
    if (value === undefined || value === null) continue;
    for (const one of Array.isArray(value) ? value : [value]) url.searchParams.append(name, String(one));
  }
  return url.toString();
}

function credentialHeaders(options: TransportOptions, auth: OperationAuth): Record<string, string> {
  if (auth === 'public') return {};
  if (auth === 'partner') {
    if (!options.partnerKey) throw new TypeError('This call takes the partner key: pass partnerKey to new Billow()');
    return { 'x-billow-partner-key': options.partnerKey };
  }
  if (!options.apiKey) throw new TypeError('This call takes an API key: pass apiKey to new Billow()');
  return { authorization: `Bearer ${options.apiKey}` };
}

const isFile = (value: unknown): value is Blob | Uint8Array => value instanceof Blob || value instanceof Uint8Array;

/** JSON, or a multipart form when a field of the body is a file (POST /media/upload/). */
function encodeBody(body: unknown): { body?: RequestInit['body']; contentType?: string } {
  if (body === undefined) return {};
  const fields = body && typeof body === 'object' ? Object.entries(body) : [];
  if (!fields.some(([, value]) => isFile(value))) return { body: JSON.stringify(body), contentType: 'application/json' };
  const form = new FormData();
  for (const [name, value] of fields) {
    if (value instanceof Blob) form.append(name, value, value instanceof File ? value.name : name);
    else if (value instanceof Uint8Array) form.append(name, new Blob([value]), name);
    else if (value !== undefined) form.append(name, String(value));
  }
  return { body: form };
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function retryAfterMs(response: Response): number | null {
  const header = response.headers.get('retry-after');
  if (!header) return null;
  const seconds = Number(header);
  const ms = Number.isFinite(seconds) ? seconds * 1000 : Date.parse(header) - Date.now();
  return Number.isFinite(ms) ? Math.min(Math.max(ms, 0), MAX_RETRY_AFTER_MS) : null;
}

/** Builds the error of any error answer, including ones not from Billow itself (a proxy's HTML page). */
async function failureOf(response: Response): Promise<BillowError> {
  const text = await response.text().catch(() => '');
  const body = parseJson(text) as { detail?: unknown; code?: unknown } | undefined;
  const detail =
    typeof body?.detail === 'string' ? body.detail : text.trim().slice(0, 500) || response.statusText || 'No detail given';
  const code = typeof body?.code === 'string' ? body.code : 'http_error';
  return errorOf(response.status, code, detail, response.headers.get('x-request-id'), retryAfterMs(response));
}

function fileNameOf(response: Response): string | null {
  const disposition = response.headers.get('content-disposition') ?? '';
  const star = /filename\*=UTF-8''([^;]+)/i.exec(disposition)?.[1];
  if (star) return decodeURIComponent(star);
  return /filename="?([^";]+)"?/i.exec(disposition)?.[1] ?? null;
}

const defaultBackoff = (attempt: number): number => Math.min(8_000, 500 * 2 ** (attempt - 1)) * (0.5 + Math.random() / 2);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function retryable(failure: unknown): boolean {
  if (failure instanceof BillowConnectionError) return true;
  if (!(failure instanceof BillowError)) return false;
  return RETRY_STATUSES.has(failure.status) || (failure.status === 409 && failure.code === 'idempotency_key_in_use');
}

/** The one place requests leave the SDK: credentials, idempotency keys, timeouts, retries and errors. */
export class Transport {
  /** Told of every write that succeeded (caches of this process drop what it changed). */
  readonly writes = new Set<(request: HttpRequest) => void>();
  /** Told of every write as it is sent, and of its failure (caches of this process apply usage at once, and undo it). */
  readonly sends = new Set<(request: HttpRequest) => ((failure: unknown) => void) | void>();

  constructor(readonly options: TransportOptions) {}

  /** Sends a request and answers its raw response once it is a success; throws a BillowError for an error status. */
  async fetch(request: HttpRequest, call: RequestOptions = {}): Promise<Response> {
    const headers: Record<string, string> = { accept: 'application/json', ...credentialHeaders(this.options, request.auth), ...call.headers };
    if (request.method === 'POST') headers['idempotency-key'] = call.idempotencyKey ?? randomUUID();
    const encoded = encodeBody(request.body);
    if (encoded.contentType) headers['content-type'] = encoded.contentType;
    const retries = Math.max(0, call.maxRetries ?? this.options.maxRetries);
    const onFailure = request.method === 'GET' ? [] : [...this.sends].map((listener) => listener(request));
    try {
      return await this.attempts(request, headers, encoded.body, call, retries);
    } catch (failure) {
      for (const undo of onFailure) undo?.(failure);
      throw failure;
    }
  }

  private async attempts(request: HttpRequest, headers: Record<string, string>, body: RequestInit['body'] | undefined, call: RequestOptions, retries: number): Promise<Response> {
    for (let attempt = 0; ; attempt++) {
      try {
        const response = await this.once(request, headers, body, call);
        if (response.ok) {
          if (request.method !== 'GET') for (const listener of this.writes) listener(request);
          return response;
        }
        const failure = await failureOf(response);
        failure.request = { method: request.method, path: request.path };
        throw failure;
      } catch (failure) {
        if (attempt >= retries || !retryable(failure) || call.signal?.aborted) throw failure;
        const wait = failure instanceof BillowError ? retryAfterMs429(failure) : null;
        await sleep(wait ?? (this.options.backoff ?? defaultBackoff)(attempt + 1));
      }
    }
  }

  /** Sends a request and answers its JSON body (undefined for a 204). */
  async json<T>(request: HttpRequest, call?: RequestOptions): Promise<T> {
    const response = await this.fetch(request, call);
    const text = await response.text();
    if (response.status === 204 || text === '') return undefined as T;
    const parsed = parseJson(text);
    if (parsed === undefined) {
      throw new BillowError(response.status, 'invalid_response', `Billow answered with a body that is not JSON: ${text.slice(0, 200)}`);
    }
    return parsed as T;
  }

  /** Sends a request and answers the file of its body. */
  async file(request: HttpRequest, call?: RequestOptions): Promise<Download> {
    const response = await this.fetch(request, call);
    const bytes = new Uint8Array(await response.arrayBuffer());
    return { bytes, contentType: response.headers.get('content-type') ?? 'application/octet-stream', fileName: fileNameOf(response) };
  }

  private async once(request: HttpRequest, headers: Record<string, string>, body: RequestInit['body'] | undefined, call: RequestOptions): Promise<Response> {
    const timeoutMs = call.timeoutMs ?? this.options.timeoutMs;
    const timeout = new AbortController();
    const timer = setTimeout(() => timeout.abort(new DOMException('timed out', 'TimeoutError')), timeoutMs);
    // Left running over the reading of the body; unref'd, so that it never keeps a process alive.
    timer.unref?.();
    const signal = call.signal ? AbortSignal.any([timeout.signal, call.signal]) : timeout.signal;
    try {
      const response = await this.options.fetch(urlOf(this.options, request), { method: request.method, headers, body, signal });
      // A stream stays open as long as it is read; any other answer is read within the same time.
      if (request.stream) clearTimeout(timer);
      return response;
    } catch (error) {
      clearTimeout(timer);
      if (call.signal?.aborted) throw error;
      const timedOut = timeout.signal.aborted;
      const message = timedOut
        ? `Billow did not answer ${request.method} ${request.path} within ${timeoutMs} ms`
        : `Could not reach Billow for ${request.method} ${request.path}: ${error instanceof Error ? error.message : String(error)}`;
      throw new BillowConnectionError(message, timedOut, { cause: error });
    }
  }
}

function retryAfterMs429(failure: BillowError): number | null {
  return 'retryAfterMs' in failure && typeof failure.retryAfterMs === 'number' ? failure.retryAfterMs : null;
}
