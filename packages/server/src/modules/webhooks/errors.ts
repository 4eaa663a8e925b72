import { type DomainError, invalid, conflict, notFound } from '../../lib/domain-error.js';

export const endpointNotFound = (id: string): DomainError => notFound(`No webhook endpoint "${id}"`, 'webhook_endpoint_not_found');
export const logNotFound = (id: string): DomainError => notFound(`No webhook delivery log "${id}"`, 'webhook_log_not_found');
export const urlRefused = (reason: string): DomainError => invalid(reason, 'webhook_url_refused');
export const tooManyEndpoints = (limit: number): DomainError =>
  conflict(`An environment may have at most ${limit} webhook endpoints; delete one first`, 'webhook_endpoint_limit');
export const replayTooOld = (days: number): DomainError =>
  invalid(`since may be at most ${days} days ago: older events are not replayed`, 'validation_error');
export const replayEmptyRange = (): DomainError => invalid('since must be earlier than until', 'validation_error');
export const endpointGone = (id: string): DomainError =>
  conflict(`The endpoint ${id} of this delivery was deleted; there is nowhere to resend it`, 'webhook_endpoint_deleted');
