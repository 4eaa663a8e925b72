import { operations } from '@billow/contract';
import { EntitlementCache, type EntitlementCacheOptions } from './entitlement-cache.js';
import { Transport, type Fetch } from './http.js';
import { resourcesOf, type Resources } from './resources.js';

export interface BillowOptions {
  /** A server key (`sk_live_…` or `sk_test_…`), or a client key for the calls that take one (checks, promotions, reads of the catalog). */
  apiKey?: string;
  /** The partner key, for `partner.organizations` (provisioning sellers' organizations). */
  partnerKey?: string;
  /**
   * Host root of the environment: `http://localhost:4000` for production,
   * `http://localhost:4000/sandbox` for sandbox. `/api/v1` is added by the client.
   */
  baseUrl: string;
  /** Where checks and promotions go when the seller runs Edge machines apart (`--role edge`); the baseUrl otherwise. */
  edgeUrl?: string;
  /** Per request; 10 seconds when left out. */
  timeoutMs?: number;
  /** Retries of a call that failed to connect, timed out or met a 429 or 502/503/504; 2 when left out. */
  maxRetries?: number;
  /** Replaces the global fetch (for tests, proxies or instrumentation). */
  fetch?: Fetch;
}

export const DEFAULT_TIMEOUT_MS = 10_000;
export const DEFAULT_MAX_RETRIES = 2;

function checkedUrl(name: string, value: string): string {
  let url: URL | null;
  try {
    url = new URL(value);
  } catch {
    url = null;
  }
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:')) {
    throw new TypeError(`${name} "${value}" is not an absolute http(s) URL`);
  }
  if (url.search || url.hash) throw new TypeError(`${name} may not have a query string or a fragment`);
  return value.replace(/\/+$/, '');
}

function transportOf(options: BillowOptions): Transport {
  if (!options.apiKey && !options.partnerKey) throw new TypeError('apiKey (or partnerKey) is required');
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  if (!(timeoutMs > 0)) throw new TypeError('timeoutMs must be a positive number of milliseconds');
  const maxRetries = options.maxRetries ?? DEFAULT_MAX_RETRIES;
  if (!Number.isInteger(maxRetries) || maxRetries < 0) throw new TypeError('maxRetries must be a whole number, 0 or more');
  const baseUrl = checkedUrl('baseUrl', options.baseUrl);
  return new Transport({
    apiKey: options.apiKey ?? null,
    partnerKey: options.partnerKey ?? null,
    baseUrl,
    edgeUrl: options.edgeUrl === undefined ? baseUrl : checkedUrl('edgeUrl', options.edgeUrl),
    timeoutMs,
    maxRetries,
    // Looked up per call, so a fetch patched after construction (instrumentation) is still used.
    fetch: options.fetch ?? ((input, init) => globalThis.fetch(input, init)),
  });
}

export type BillowResources = Resources<typeof operations>;

// The class gains one property per resource of the operation table, typed by the interface of the same name.
// eslint-disable-next-line @typescript-eslint/no-unsafe-declaration-merging, @typescript-eslint/no-empty-object-type
export interface Billow extends BillowResources {}

/** A client of every operation Billow serves (`billow.customers.create(…)`, `billow.catalog.plans.publish(…)`). */
// eslint-disable-next-line @typescript-eslint/no-unsafe-declaration-merging
export class Billow {
  private readonly transport: Transport;

  constructor(options: BillowOptions) {
    this.transport = transportOf(options);
    Object.assign(this, resourcesOf(this.transport, operations));
  }

  /**
   * A cache of entitlement answers in this process (checks at memory speed), kept honest
   * by Billow's change stream; close() it when done, or the stream keeps the process alive.
   */
  entitlementCache(options?: EntitlementCacheOptions): EntitlementCache {
    return new EntitlementCache(this.entitlements, this.transport, options);
  }
}
