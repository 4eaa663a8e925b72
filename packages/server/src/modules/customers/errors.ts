import { type ApiError, badRequest, conflict, notFound } from '../../http/errors.js';

export const customerNotFound = (customerId: string) =>
  notFound(`No customer with customerId "${customerId}"`, 'customer_not_found');
export const customerExists = (customerId: string) =>
  conflict(`A customer with customerId "${customerId}" already exists`, 'customer_exists');
export const customerIdRetired = (customerId: string) =>
  conflict(
    `The customerId "${customerId}" belonged to a customer that was archived; a customerId is never reused`,
    'customer_exists',
  );
export const customerArchived = (customerId: string): ApiError =>
  badRequest(`The customer "${customerId}" is archived and can't be changed`, 'customer_archived');
export const customerIdUnaddressable = (customerId: string): ApiError =>
  badRequest(
    `customerId "${customerId}" can't be used in a URL path: it may not be "." or "..", nor contain /, ?, # or %`,
    'validation_error',
  );
export const customerHasSubscriptions = (customerId: string, count: number): ApiError =>
  badRequest(
    `The customer "${customerId}" has ${count === 1 ? 'an active subscription' : `${count} active subscriptions`}, ` +
      'and a customer with an active subscription can\'t be archived. Cancel the subscriptions first, ' +
      'or archive with ?cancel_subscriptions=true to cancel them immediately as part of the archive.',
    'customer_has_active_subscriptions',
  );
