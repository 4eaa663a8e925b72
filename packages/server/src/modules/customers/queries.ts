/**
 * What other folders may read of customers, the customer lock purchases take, and the two
 * balances a purchase changes (the currency its first purchase sets, the credit its
 * downgrades leave), inside their own transactions.
 */
export {
  customersOnClock,
  customersWithEmail,
  findCustomer,
  findCustomerByPk,
  lockCustomerRow,
  lockCustomerRowOfSubscription,
  setCustomerCredit,
  setCustomerCurrency,
  testClockTimeOf,
} from './repo.js';
export type { CustomerRow } from './repo.js';
export { offlineCheckedTaxIds, checkedTaxIds, taxIdVerifier, NO_ONLINE_CHECK as NO_ONLINE_CHECK_VERIFIER, type TaxIdVerifier } from './tax-ids.js';
