import { type ApiError, badRequest, conflict, notFound } from '../../http/errors.js';

export const endpointNotFound = (id: string): ApiError => notFound(`No webhook endpoint "${id}"`, 'webhook_endpoint_not_found');
export const logNotFound = (id: string): ApiError => notFound(`No webhook delivery log "${id}"`, 'webhook_log_not_found');
export const urlRefused = (reason: string): ApiError => badRequest(reason, 'webhook_url_refused');
export const tooManyEndpoints = (limit: number): ApiError =>
  conflict(`An environment may have at most ${limit} webhook endpoints; delete one first`, 'webhook_endpoint_limit');
export const replayTooOld = (days: number): ApiError =>
  badRequest(`since may be at most ${days} days ago: older events are not replayed`, 'validation_error');
export const replayEmptyRange = (): ApiError => badRequest('since must be earlier than until', 'validation_error');
export const endpointGone = (id: string): ApiError =>
  conflict(`The endpoint ${id} of this delivery was deleted; there is nowhere to resend it`, 'webhook_endpoint_deleted');
