/** Billow answered with an error status; `code` and `detail` come from its error body. */
export class BillowError extends Error {
  override readonly name = 'BillowError';

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

/** No answer came back: the request timed out or the network failed. */
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
