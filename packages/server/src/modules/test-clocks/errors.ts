import { ApiError, badRequest, conflict, notFound } from '../../http/errors.js';

export const testClocksSandboxOnly = (): ApiError =>
  new ApiError(403, 'test_clocks_sandbox_only', 'Test clocks exist in the sandbox only; production lives in real time');
export const testClockNotFound = (id: string): ApiError => notFound(`No test clock "${id}"`, 'test_clock_not_found');
export const testClockAdvancing = (id: string): ApiError =>
  conflict(`Test clock "${id}" is advancing; wait until its status is ready`, 'test_clock_advancing');
export const advanceNotForward = (frozenTime: string): ApiError =>
  badRequest(`frozenTime must be later than the clock's time (${frozenTime}); a test clock only moves forward`, 'validation_error');
export const advanceTooFar = (limit: string): ApiError =>
  badRequest(`frozenTime may be at most two years ahead of the clock's time, so no later than ${limit}`, 'validation_error');
export const invalidFrozenTime = (): ApiError =>
  badRequest('frozenTime must be a date-time between the years 2000 and 2999', 'validation_error');
