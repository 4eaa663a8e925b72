/** Billow answered with an error status; `code` and `detail` come from its error body. */
export class BillowError extends Error {
  override name = 'BillowError';
  /** The call that failed (its path below `/api/v1`), set by the client that made it. */
  request: { method: string; path: string } | null = null;

  constructor(
    /** The HTTP status Billow answered with. */
    readonly status: number,
    /** Stable snake_case name of the error, e.g. `customer_exists`. */
    readonly code: string,
    /** Billow's human-readable explanation. */
    readonly detail: string,
    /** The `X-Request-Id` of the failed request, when Billow sent one. */
    readonly requestId: string | null = null,
  ) {
    super(`${detail} (${status} ${code})`);
  }
}

/** 400 or 422: the request was refused as it stands (a field is missing or wrong); nothing changed. */
export class BillowInvalidRequestError extends BillowError {
  override name = 'BillowInvalidRequestError';
}

/** 401: the key is missing, unknown, revoked or expired. */
export class BillowAuthenticationError extends BillowError {
  override name = 'BillowAuthenticationError';
}

/** 403: the key may not do this (a client key on a server route, a role without the right, the other environment). */
export class BillowPermissionError extends BillowError {
  override name = 'BillowPermissionError';
}

/** 404: nothing of that id in this environment. */
export class BillowNotFoundError extends BillowError {
  override name = 'BillowNotFoundError';
}

/** 409: the request conflicts with the current state (an id in use, an Idempotency-Key reused with another body). */
export class BillowConflictError extends BillowError {
  override name = 'BillowConflictError';
}

/** 429: too many requests; `retryAfterMs` says when to try again, when Billow said. */
export class BillowRateLimitError extends BillowError {
  override name = 'BillowRateLimitError';

  constructor(status: number, code: string, detail: string, requestId: string | null, readonly retryAfterMs: number | null) {
    super(status, code, detail, requestId);
  }
}

/** 5xx: Billow (or a proxy before it) failed; the request may be retried. */
export class BillowServerError extends BillowError {
  override name = 'BillowServerError';
}

/** The error class of an answer's status. */
export function errorOf(status: number, code: string, detail: string, requestId: string | null, retryAfterMs: number | null): BillowError {
  if (status === 400 || status === 422) return new BillowInvalidRequestError(status, code, detail, requestId);
  if (status === 401) return new BillowAuthenticationError(status, code, detail, requestId);
  if (status === 403) return new BillowPermissionError(status, code, detail, requestId);
  if (status === 404) return new BillowNotFoundError(status, code, detail, requestId);
  if (status === 409) return new BillowConflictError(status, code, detail, requestId);
  if (status === 429) return new BillowRateLimitError(status, code, detail, requestId, retryAfterMs);
  if (status >= 500) return new BillowServerError(status, code, detail, requestId);
  return new BillowError(status, code, detail, requestId);
}

/** No answer came back: the request timed out or the network failed (after the retries, if any). */
export class BillowConnectionError extends Error {
  override readonly name = 'BillowConnectionError';

  constructor(
    message: string,
    /** True when the client gave up after `timeoutMs`. */
    readonly timedOut: boolean,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}
