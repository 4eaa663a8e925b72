import { type ApiError, badRequest, conflict } from '../../http/errors.js';

// The reference answers a report for an unknown customer with a field error (400), not 404.
export const reportCustomerUnknown = (customerId: string): ApiError =>
  badRequest(`customerId: no customer "${customerId}" in this environment`, 'customer_not_found');
export const reportCustomerArchived = (customerId: string): ApiError =>
  badRequest(`customerId: the customer "${customerId}" is archived`, 'customer_archived');
export const featureUnknown = (featureId: string): ApiError =>
  badRequest(`featureId: no feature with identifier "${featureId}" in this environment`, 'feature_not_found');
export const featureNotMetered = (featureId: string, type: string): ApiError =>
  badRequest(`featureId: "${featureId}" is a ${type} feature; usage is reported for METER features only`, 'feature_not_metered');
export const featureFedByEvents = (featureId: string): ApiError =>
  badRequest(
    `featureId: "${featureId}" is a RAW_EVENTS meter; its usage comes from events sent to POST /report/event/`,
    'feature_not_metered',
  );
export const featureNotGranted = (featureId: string, customerId: string): ApiError =>
  badRequest(`featureId: no subscription of customer "${customerId}" grants "${featureId}"`, 'feature_not_granted');
export const negativeSet = (): ApiError =>
  badRequest('value: a SET report takes a value of at least 0; use DELTA to subtract', 'validation_error');
export const reportKeyReused = (): ApiError =>
  conflict('idempotencyKey was already used for a different usage report', 'idempotency_key_reused');
export const invalidTimestamp = (text: string): ApiError =>
  badRequest(`timestamp: "${text}" is not a date-time; send yyyy-MM-dd HH:mm:ss.ffffff (UTC)`, 'validation_error');
export const counterLimit = (featureId: string, max: number): ApiError =>
  badRequest(
    `value: counting this report would take the usage of "${featureId}" beyond ±${max.toLocaleString('en-US')} (2^53 − 1), ` +
      'the most a usage counter holds; it was not counted',
    'usage_counter_limit',
  );
