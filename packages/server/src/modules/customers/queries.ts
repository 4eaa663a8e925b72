/** What other folders may read of customers, and the customer lock purchases take, inside their own transactions. */
export { customersOnClock, customersWithEmail, findCustomer, findCustomerByPk, lockCustomerRow, lockCustomerRowOfSubscription, testClockTimeOf } from './repo.js';
export type { CustomerRow } from './repo.js';
export { offlineCheckedTaxIds, checkedTaxIds, taxIdVerifier, NO_ONLINE_CHECK as NO_ONLINE_CHECK_VERIFIER, type TaxIdVerifier } from './tax-ids.js';
