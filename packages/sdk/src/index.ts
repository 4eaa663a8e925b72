export { Billow, DEFAULT_MAX_RETRIES, DEFAULT_TIMEOUT_MS, type BillowOptions, type BillowResources } from './client.js';
export { EntitlementCache, type EntitlementCacheOptions, type EntitlementCacheStats } from './entitlement-cache.js';
export {
  BillowAuthenticationError,
  BillowConflictError,
  BillowConnectionError,
  BillowError,
  BillowInvalidRequestError,
  BillowNotFoundError,
  BillowPermissionError,
  BillowRateLimitError,
  BillowServerError,
} from './errors.js';
export type { EventStream } from './event-stream.js';
export type { Download, Fetch, RequestOptions } from './http.js';
export { PagePromise, type ListPage, type Page } from './pages.js';
export type { CallOptions, Method, Resources } from './resources.js';
export { verifyWebhook, WebhookVerificationError, type VerifyOptions, type WebhookEvent } from './webhooks.js';
export type * from '@billow/contract';
