/** What other folders use of events: the job that an event buyers hear about queues (decision 0067). */
export { COMPOSE_MAIL_JOB, MAILED_EVENT_TYPES } from './repo.js';
