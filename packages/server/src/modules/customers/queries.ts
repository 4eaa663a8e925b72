/** What other folders may read of customers, and the customer lock purchases take, inside their own transactions. */
export { customersOnClock, customersWithEmail, findCustomer, lockCustomerRow, lockCustomerRowOfSubscription, testClockTimeOf, type CustomerRow } from './repo.js';
