/**
 * What other folders use of events: the job that an event buyers hear about queues (decision
 * 0067), and a customer's events for its timeline (decision 0085).
 */
export { COMPOSE_MAIL_JOB, MAILED_EVENT_TYPES, countCustomerEvents, customerEvents } from './repo.js';
export { summarizeEvent, type EventSummary } from './summary.js';
