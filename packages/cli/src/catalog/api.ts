/** A Billow environment's API as `billow catalog` reaches it: a base URL, an environment and its server key. */

export type EnvironmentName = 'sandbox' | 'production';

export interface Target {
  baseUrl: string;
  environment: EnvironmentName;
  key: string;
}

/** An answer of the API that is not a success, with the API's own `detail`. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly method: string,
    readonly path: string,
    readonly detail: string,
  ) {
    super(`${method} ${path} answered ${status}: ${detail}`);
  }
}

/** Where an environment's API is: production at /api/v1, sandbox at /sandbox/api/v1. */
export function apiRoot(target: Target): string {
  const base = target.baseUrl.replace(/\/+$/, '');
  return target.environment === 'sandbox' ? `${base}/sandbox/api/v1` : `${base}/api/v1`;
}

export interface Api {
  readonly target: Target;
  get<T>(path: string): Promise<T>;
  send<T>(method: 'POST' | 'PATCH' | 'PUT' | 'DELETE', path: string, body?: unknown): Promise<T>;
  /** Every row of a paginated list, page after page. */
  list<T>(path: string): Promise<T[]>;
}

function detailOf(status: number, text: string): string {
  try {
    const body = JSON.parse(text) as { detail?: unknown };
    if (typeof body.detail === 'string') return body.detail;
  } catch {
    // not JSON: the text itself
  }
  return text.slice(0, 300) || `HTTP ${status}`;
}

export function connect(target: Target): Api {
  const root = apiRoot(target);
  const call = async <T>(method: string, path: string, body?: unknown): Promise<T> => {
    const headers: Record<string, string> = { authorization: `Bearer ${target.key}`, accept: 'application/json' };
    if (body !== undefined) headers['content-type'] = 'application/json';
    let response: Response;
    try {
      response = await fetch(`${root}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    } catch (error) {
      throw new ApiError(0, method, path, `could not reach ${root} (${error instanceof Error ? (error.cause as Error | undefined)?.message ?? error.message : String(error)})`);
    }
    const text = await response.text();
    if (!response.ok) throw new ApiError(response.status, method, path, detailOf(response.status, text));
    return (text ? JSON.parse(text) : null) as T;
  };
  const api: Api = {
    target,
    get: (path) => call('GET', path),
    send: (method, path, body) => call(method, path, body),
    list: async <T>(path: string) => {
      const rows: T[] = [];
      const joiner = path.includes('?') ? '&' : '?';
      for (let page = 1; ; page += 1) {
        const answer = await call<{ results: T[]; next: string | null }>('GET', `${path}${joiner}page=${page}&page_size=100`);
        rows.push(...answer.results);
        if (!answer.next || answer.results.length === 0) return rows;
      }
    },
  };
  return api;
}
