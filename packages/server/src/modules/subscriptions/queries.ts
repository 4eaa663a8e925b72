/**
 * What other folders may use of subscriptions inside their own transactions: a one-time charge's grant, a test clock's
 * subscriptions; and, for the emails that announce a renewal (modules/mail), what the next one will charge.
 */
export { insertSubscription, subscriptionsOnClock } from './repo.js';
export type { SubscriptionRow } from './repo.js';
export { upcomingInvoice } from './preview.js';
