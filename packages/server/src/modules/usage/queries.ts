/** What other folders may read of usage: the counts a renewal bills in arrears. */
export { usageOfPeriod } from './repo.js';
