import type { Db } from '../db/connect.js';
import type { EntitlementChanges } from '../edge-cache/change-feed.js';
import type { Clock } from '../lib/clock.js';
import type { DunningSchedule } from '../modules/billing/renewal.compute.js';
import type { JobHandlers } from '../modules/jobs/runner.js';
import { Reminders } from '../modules/mail/queries.js';
import { ADVANCE_TEST_CLOCK_JOB } from '../modules/test-clocks/service.js';
import { runTestClockAdvance } from '../use-cases/advance-test-clock.js';
import { BillingEngine } from '../use-cases/billing-engine.js';
import { stringField } from './payload.js';

/**
 * The advance of a test clock: everything that falls due on its customers runs at its
 * simulated instant through the billing engine, with the timed reminders of buyer emails
 * recorded at theirs (decision 0071). A payment of a customer under way elsewhere is waited
 * for a little; an attempt that gives up is tried again after the backoff.
 */
export function testClockJobs(db: Db, clock: Clock, dunning: DunningSchedule, changes: EntitlementChanges): JobHandlers {
  const engine = new BillingEngine({ db, clock, changes, dunning });
  const reminders = new Reminders(db, clock);
  return {
    [ADVANCE_TEST_CLOCK_JOB]: {
      retry: { attempts: 5, backoffMs: 5_000 },
      run: (payload) => runTestClockAdvance(db, engine, stringField(payload, 'testClockId'), reminders),
    },
  };
}
