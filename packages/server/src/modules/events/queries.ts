/**
 * What other folders use of events: the job that an event buyers hear about queues (decision
 * 0067), a customer's events for its timeline (decision 0085), the channel on which queued
 * webhook deliveries are announced (decision 0119), and the events statement itself, which
 * the benchmark writes its webhook events with (bench-support.ts).
 */
export {
  COMPOSE_MAIL_JOB,
  MAILED_EVENT_TYPES,
  WEBHOOK_DELIVERIES_CHANNEL,
  countCustomerEvents,
  customerEvents,
  insertEvents,
  type EventRowInput,
} from './repo.js';
export { summarizeEvent, type EventSummary } from './summary.js';
