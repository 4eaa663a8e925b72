import { invalid } from '../../lib/domain-error.js';

export const badCursor = () => invalid('cursor is not one this list gave', 'invalid_cursor');
export const badPeriod = () => invalid('start must be before end', 'invalid_period');
