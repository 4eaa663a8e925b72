import { DomainError, invalid, conflict } from '../../lib/domain-error.js';

// The reference answers a report for an unknown customer with a field error (400), not 404.
export const reportCustomerUnknown = (customerId: string): DomainError =>
  invalid(`customerId: no customer "${customerId}" in this environment`, 'customer_not_found');
export const reportCustomerArchived = (customerId: string): DomainError =>
  invalid(`customerId: the customer "${customerId}" is archived`, 'customer_archived');
export const featureUnknown = (featureId: string): DomainError =>
  invalid(`featureId: no feature with identifier "${featureId}" in this environment`, 'feature_not_found');
export const featureNotMetered = (featureId: string, type: string): DomainError =>
  invalid(`featureId: "${featureId}" is a ${type} feature; usage is reported for METER features only`, 'feature_not_metered');
export const featureFedByEvents = (featureId: string): DomainError =>
  invalid(
    `featureId: "${featureId}" is a RAW_EVENTS meter; its usage comes from events sent to POST /report/event/`,
    'feature_not_metered',
  );
export const featureNotGranted = (featureId: string, customerId: string): DomainError =>
  invalid(`featureId: no subscription of customer "${customerId}" grants "${featureId}"`, 'feature_not_granted');
export const negativeSet = (): DomainError =>
  invalid('value: a SET report takes a value of at least 0; use DELTA to subtract', 'validation_error');
const KEY_REUSED = 'idempotency_key_reused';
export const reportKeyReused = (): DomainError =>
  conflict('idempotencyKey was already used for a different usage report', KEY_REUSED);
/** A report's key already names another report (ours, or the keeper's answer to a request sent again with other content). */
export const isKeyReused = (error: unknown): boolean => error instanceof DomainError && error.code === KEY_REUSED;
export const invalidTimestamp = (text: string): DomainError =>
  invalid(`timestamp: "${text}" is not a date-time; send yyyy-MM-dd HH:mm:ss.ffffff (UTC)`, 'validation_error');
export const counterLimit = (featureId: string, max: number): DomainError =>
  invalid(
    `value: counting this report would take the usage of "${featureId}" beyond ±${max.toLocaleString('en-US')} (2^53 − 1), ` +
      'the most a usage counter holds; it was not counted',
    'usage_counter_limit',
  );
