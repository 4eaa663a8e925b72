/**
 * The one place the dashboard talks to Billow (decision 0081). Every call goes through
 * `api()` (the public API, /api/v1 or /sandbox/api/v1 by the environment switch) or
 * `account()` (the session operations under /dashboard/api). Both send the session cookie
 * (same origin only), the CSRF token and the organization; errors come back as ApiError
 * with the API's own `detail` and `code`.
 */
import type { MediaFileReceived } from '@billow/contract';

export type Environment = 'sandbox' | 'production';

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly detail: string,
    readonly code: string | null,
  ) {
    super(detail);
  }
}

export interface Page<T> {
  count: number;
  next: string | null;
  previous: string | null;
  results: T[];
  /** With count=capped (decision 0089): true when the list holds more rows than `count`. */
  countCapped?: boolean;
}

type Query = Record<string, string | number | boolean | null | undefined>;

interface Credentials {
  csrfToken: string | null;
  organizationId: string | null;
  environment: Environment;
}

const ENVIRONMENT_KEY = 'billow.dashboard.environment';
const credentials: Credentials = { csrfToken: null, organizationId: null, environment: storedEnvironment() };

function storedEnvironment(): Environment {
  try {
    return window.localStorage.getItem(ENVIRONMENT_KEY) === 'production' ? 'production' : 'sandbox';
  } catch {
    return 'sandbox';
  }
}

export function currentEnvironment(): Environment {
  return credentials.environment;
}

/** The environment switch: the only writer of the environment every call uses. */
export function setEnvironment(environment: Environment): void {
  credentials.environment = environment;
  try {
    window.localStorage.setItem(ENVIRONMENT_KEY, environment);
  } catch {
    // A browser that keeps nothing still switches for this page.
  }
}

export function setSessionCredentials(csrfToken: string | null, organizationId: string | null): void {
  credentials.csrfToken = csrfToken;
  credentials.organizationId = organizationId;
}

/** The path prefix of the current environment's pages and API (hosted pages, buy links, PDFs). */
export function environmentPrefix(environment: Environment = credentials.environment): string {
  return environment === 'sandbox' ? '/sandbox' : '';
}

function queryString(query: Query | undefined): string {
  if (!query) return '';
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) {
    if (value !== undefined && value !== null && value !== '') params.set(name, String(value));
  }
  const text = params.toString();
  return text ? `?${text}` : '';
}

const unreachable = () => new ApiError(0, 'Billow could not be reached. Check your connection and try again.', 'unreachable');

/** The session's headers: the CSRF token and the organization. */
function sessionHeaders(accept: string): Record<string, string> {
  const headers: Record<string, string> = { accept };
  if (credentials.csrfToken) headers['x-csrf-token'] = credentials.csrfToken;
  if (credentials.organizationId) headers['x-billow-organization'] = credentials.organizationId;
  return headers;
}

async function send<T>(method: string, url: string, body: unknown): Promise<T> {
  const headers = sessionHeaders('application/json');
  if (body !== undefined) headers['content-type'] = 'application/json';
  let response: Response;
  try {
    response = await fetch(url, { method, headers, credentials: 'same-origin', body: body === undefined ? undefined : JSON.stringify(body) });
  } catch {
    throw unreachable();
  }
  return answerOf<T>(response);
}

/** The answer's JSON; an error answer as ApiError with Billow's own `detail`. */
async function answerOf<T>(response: Response): Promise<T> {
  // An answer without a body is null, never undefined: useAction reads undefined as a failure.
  if (response.status === 204) return null as T;
  const text = await response.text();
  const parsed = text ? safeJson(text) : null;
  if (!response.ok) throw refusal(response.status, parsed);
  return parsed as T;
}

/** An answer that is not a success, with the API's own `detail` and `code` when it has them. */
function refusal(status: number, parsed: unknown): ApiError {
  const problem = (parsed ?? {}) as { detail?: unknown; code?: unknown };
  const detail = typeof problem.detail === 'string' ? problem.detail : `Billow answered ${status}.`;
  return new ApiError(status, detail, typeof problem.code === 'string' ? problem.code : null);
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

/** A call to the public API of the environment the switch shows: `api('GET', '/customers/', { query })`. */
export function api<T>(method: string, path: string, options: { body?: unknown; query?: Query } = {}): Promise<T> {
  return send<T>(method, `${environmentPrefix()}/api/v1${path}${queryString(options.query)}`, options.body);
}

/**
 * Saves what a GET of the public API answers as a file on the person's computer (a CSV
 * export): fetched with the session like any call, then handed to the browser as a download.
 */
export async function download(path: string, query: Query, fileName: string): Promise<void> {
  let response: Response;
  try {
    response = await fetch(`${environmentPrefix()}/api/v1${path}${queryString(query)}`, { headers: sessionHeaders('text/csv'), credentials: 'same-origin' });
  } catch {
    throw unreachable();
  }
  if (!response.ok) throw refusal(response.status, safeJson(await response.text()));
  const url = URL.createObjectURL(await response.blob());
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.click();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/** A call to the session operations of the dashboard (sign-in, invitations, password, second factor). */
export function account<T>(method: string, path: string, body?: unknown): Promise<T> {
  return send<T>(method, `/dashboard/api${path}`, body);
}

/**
 * Uploads a file to Billow itself (`POST /media/upload/`, decision 0103), which keeps it where
 * files are stored (disk or bucket): the page sends to its own origin only, with the session like
 * any call. Answers the `fileKey` to attach within the hour (`imageKeys`, `fileKeys`, `logoImageKey`).
 */
export async function uploadFile(file: File): Promise<string> {
  const body = new FormData();
  body.append('file', new Blob([file], { type: file.type || 'application/octet-stream' }), file.name);
  let response: Response;
  try {
    response = await fetch(`${environmentPrefix()}/api/v1/media/upload/`, { method: 'POST', headers: sessionHeaders('application/json'), credentials: 'same-origin', body });
  } catch {
    throw unreachable();
  }
  return (await answerOf<MediaFileReceived>(response)).fileKey;
}
