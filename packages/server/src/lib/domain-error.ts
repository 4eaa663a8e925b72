/**
 * What kind of refusal an error is, in the domain's words. Only src/http/errors.ts knows
 * which HTTP status each kind answers with (decision 0060).
 */
export type ErrorKind =
  | 'invalid'
  | 'unauthorized'
  | 'forbidden'
  | 'not_found'
  | 'conflict'
  | 'gone'
  | 'too_large'
  | 'unsupported_media'
  | 'unprocessable'
  | 'precondition_required'
  | 'too_many'
  | 'unavailable';

/** An error meant for the caller: its kind, a stable code and a readable detail. */
export class DomainError extends Error {
  constructor(
    readonly kind: ErrorKind,
    readonly code: string,
    readonly detail: string,
    /** Fields the reference puts in the body beside ours, e.g. `{ customerId: ['Invalid customer id'] }`. */
    readonly fields: Record<string, unknown> = {},
  ) {
    super(detail);
  }
}

export const invalid = (detail: string, code = 'invalid_request') => new DomainError('invalid', code, detail);
export const unauthorized = (detail: string) => new DomainError('unauthorized', 'unauthorized', detail);
export const forbidden = (detail: string) => new DomainError('forbidden', 'forbidden', detail);
export const notFound = (detail: string, code = 'not_found') => new DomainError('not_found', code, detail);
export const conflict = (detail: string, code = 'conflict') => new DomainError('conflict', code, detail);

/** A refusal that is ours or a provider's to fix, not the caller's: retrying later may work. */
export const isOutage = (error: unknown): error is DomainError => error instanceof DomainError && error.kind === 'unavailable';
export const isNotFound = (error: unknown): error is DomainError => error instanceof DomainError && error.kind === 'not_found';
