/**
 * What the benchmark (packages/bench) drives inside a server process of its own: the
 * renewal job run without HTTP, with the same configuration, database and logger as
 * `billow start`, and the statement that writes events with their webhook deliveries.
 * Not an API for anything else.
 */
export { YOUNG_GENERATION_FLAG } from './cluster.js';
export { loadConfig } from './config.js';
export { connectDatabase } from './db/connect.js';
export { BILL_SUBSCRIPTION_JOB } from './job-handlers/billing.js';
export { backgroundJobs } from './job-handlers/tasks.js';
export type { Clock } from './lib/clock.js';
export { createLogger } from './logger.js';
export { JobRunner, type JobHandlers } from './modules/jobs/runner.js';
export { insertEvents, type EventRowInput } from './modules/events/queries.js';
