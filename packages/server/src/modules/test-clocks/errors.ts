import { DomainError, invalid, conflict, notFound } from '../../lib/domain-error.js';

export const testClocksSandboxOnly = (): DomainError =>
  new DomainError('forbidden', 'test_clocks_sandbox_only', 'Test clocks exist in the sandbox only; production lives in real time');
export const testClockNotFound = (id: string): DomainError => notFound(`No test clock "${id}"`, 'test_clock_not_found');
export const testClockAdvancing = (id: string): DomainError =>
  conflict(`Test clock "${id}" is advancing; wait until its status is ready`, 'test_clock_advancing');
export const advanceNotForward = (frozenTime: string): DomainError =>
  invalid(`frozenTime must be later than the clock's time (${frozenTime}); a test clock only moves forward`, 'validation_error');
export const advanceTooFar = (limit: string): DomainError =>
  invalid(`frozenTime may be at most two years ahead of the clock's time, so no later than ${limit}`, 'validation_error');
export const invalidFrozenTime = (): DomainError =>
  invalid('frozenTime must be a date-time between the years 2000 and 2999', 'validation_error');
