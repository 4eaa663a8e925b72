/** What other folders may use of subscriptions inside their own transactions: a one-time charge's grant, a test clock's subscriptions. */
export { insertSubscription, subscriptionsOnClock } from './repo.js';
export type { SubscriptionRow } from './repo.js';
