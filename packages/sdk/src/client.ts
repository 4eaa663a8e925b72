import { Customers } from './customers.js';
import type { Fetch, HttpOptions } from './http.js';

export interface BillowOptions {
  /** A server key (`sk_live_…` or `sk_test_…`). */
  apiKey: string;
  /**
   * Host root of the environment: `http://localhost:4000` for production,
   * `http://localhost:4000/sandbox` for sandbox. `/api/v1` is added by the client.
   */
  baseUrl: string;
  /** Per request; 10 seconds when left out. */
  timeoutMs?: number;
  /** Replaces the global fetch (for tests, proxies or instrumentation). */
  fetch?: Fetch;
}

export const DEFAULT_TIMEOUT_MS = 10_000;

function checkedBaseUrl(baseUrl: string): string {
  let url: URL | null;
  try {
    url = new URL(baseUrl);
  } catch {
    url = null;
  }
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:')) {
    throw new TypeError(`baseUrl "${baseUrl}" is not an absolute http(s) URL`);
  }
  if (url.search || url.hash) throw new TypeError('baseUrl may not have a query string or a fragment');
  return baseUrl.replace(/\/+$/, '');
}

export class Billow {
  readonly customers: Customers;

  constructor(options: BillowOptions) {
    if (!options.apiKey) throw new TypeError('apiKey is required');
    const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    if (!(timeoutMs > 0)) throw new TypeError('timeoutMs must be a positive number of milliseconds');
    const http: HttpOptions = {
      apiKey: options.apiKey,
      baseUrl: checkedBaseUrl(options.baseUrl),
      timeoutMs,
      // Looked up per call, so a fetch patched after construction (instrumentation) is still used.
      fetch: options.fetch ?? ((input, init) => globalThis.fetch(input, init)),
    };
    this.customers = new Customers(http);
  }
}
