import { invalid, type DomainError } from '../../lib/domain-error.js';

export const notADate = (name: string, value: string): DomainError => invalid(`${name} must be a calendar date as YYYY-MM-DD, got "${value}"`, 'validation_error');
export const endBeforeStart = (start: string, end: string): DomainError => invalid(`end (${end}) is before start (${start})`, 'validation_error');
export const tooManyPeriods = (count: number, limit: number, interval: string): DomainError =>
  invalid(`That range holds ${count} periods of a ${interval}; a series holds at most ${limit}: choose a shorter range or a longer interval`, 'validation_error');
export const tooManyRows = (count: number, limit: number): DomainError =>
  invalid(`That range holds ${count} movements; an export holds at most ${limit}: choose a shorter range, one kind or one currency`, 'validation_error');
export const planAndProduct = (): DomainError =>
  invalid('Give plan or product, not both: a plan belongs to one product, so the plan alone says it', 'validation_error');
export const notACurrency = (field: string, value: string): DomainError => invalid(`${field} must be an ISO 4217 currency code such as USD, got "${value}"`, 'validation_error');
export const notARate = (currency: string, value: string): DomainError =>
  invalid(`The rate of ${currency} must be a positive decimal with at most 12 digits before the point and 12 after, such as "1.08", got "${value}"`, 'validation_error');
export const rateOfReportingCurrency = (currency: string): DomainError => invalid(`${currency} is the reporting currency: its rate is 1, and cannot be set`, 'validation_error');
export const rateTwice = (currency: string): DomainError => invalid(`The rate of ${currency} is given twice`, 'validation_error');
export const ratesWithoutCurrency = (): DomainError => invalid('Rates need a reporting currency to convert into: choose one, or send no rates', 'validation_error');
