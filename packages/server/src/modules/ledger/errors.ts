import { invalid, notFound } from '../../lib/domain-error.js';

export const orderNotFound = (id: string) => notFound(`No order with id "${id}"`, 'order_not_found');
export const notACalendarDate = (parameter: string, text: string) =>
  invalid(`${parameter}: "${text}" is not a calendar date`, 'validation_error');
export const notADate = (parameter: string, text: string) =>
  invalid(`${parameter} must be a date (YYYY-MM-DD) or an ISO 8601 date-time, got "${text}"`, 'validation_error');
