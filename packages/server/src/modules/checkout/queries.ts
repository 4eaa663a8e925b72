/** What the checkout use cases above the modules (use-cases/checkout-page.ts, complete-checkout.ts, pay-due-invoice.ts) read and write of sessions. */
export { findSession, updateSession, type SessionRow } from './repo.js';
export { planName, targetState } from './repo/due.js';
