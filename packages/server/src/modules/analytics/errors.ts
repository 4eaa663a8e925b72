import { invalid, type DomainError } from '../../lib/domain-error.js';

export const notADate = (name: string, value: string): DomainError => invalid(`${name} must be a calendar date as YYYY-MM-DD, got "${value}"`, 'validation_error');
export const endBeforeStart = (start: string, end: string): DomainError => invalid(`end (${end}) is before start (${start})`, 'validation_error');
export const tooManyPeriods = (count: number, limit: number, interval: string): DomainError =>
  invalid(`That range holds ${count} periods of a ${interval}; a series holds at most ${limit}: choose a shorter range or a longer interval`, 'validation_error');
export const tooManyRows = (count: number, limit: number): DomainError =>
  invalid(`That range holds ${count} movements; an export holds at most ${limit}: choose a shorter range, one kind or one currency`, 'validation_error');
export const planAndProduct = (): DomainError =>
  invalid('Give plan or product, not both: a plan belongs to one product, so the plan alone says it', 'validation_error');
