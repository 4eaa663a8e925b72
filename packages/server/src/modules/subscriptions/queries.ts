/**
 * What other folders may use of subscriptions inside their own transactions: a one-time
 * charge's grant, a test clock's subscriptions, and the use cases above the modules
 * (use-cases/: subscribing, changing, renewing, collecting), which read, lock and write
 * subscription records through these; and, for the emails that announce a renewal
 * (modules/mail), what the next one will charge.
 */
export {
  billingStateOf,
  customerIdOf,
  dueSubscriptions,
  findSubscription,
  findSubscriptionById,
  insertSubscription,
  LIVE_SUCCESSOR_INDEX,
  subscriptionsOnClock,
  updateSubscription,
} from './repo.js';
export type { BillingState, SubscriptionRow } from './repo.js';
export { lockSubscriptionForRenewal, renewalQuoteReads, type RenewalReads } from './repo/renewal-reads.js';
export { upcomingInvoice } from './preview.js';
