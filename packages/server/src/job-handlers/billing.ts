import type { Db } from '../db/connect.js';
import { inTransaction } from '../db/transaction.js';
import type { EntitlementChanges } from '../edge-cache/change-feed.js';
import type { Clock } from '../lib/clock.js';
import type { DunningSchedule } from '../modules/billing/renewal.compute.js';
import type { JobHandlers } from '../modules/jobs/runner.js';
import { enqueueJobs } from '../modules/jobs/service.js';
import { BillingEngine } from '../use-cases/billing-engine.js';
import { stringField } from './payload.js';

export interface BillingSettings {
  /** How often subscriptions are looked at for what fell due; 0: never (test clocks still advance). */
  sweepIntervalMs: number;
  dunningDays: DunningSchedule;
}

export const BILL_SUBSCRIPTION_JOB = 'bill-subscription';
/** How many subscriptions one sweep queues at most; the next sweep takes the rest. */
const SWEEP_BATCH = 10_000;

/**
 * Queues a billing job for each real-time subscription with something due now (one job per
 * subscription at a time): those with a job still queued or running are not selected again,
 * so a sweep during a large run neither reads them back nor offers them to the insert.
 */
export async function enqueueDueBilling(db: Db, engine: BillingEngine): Promise<number> {
  const due = await engine.dueNow(SWEEP_BATCH, BILL_SUBSCRIPTION_JOB);
  if (due.length === 0) return 0;
  const jobs = due.map((row) => ({ name: BILL_SUBSCRIPTION_JOB, payload: { subscriptionId: row.id }, key: row.id }));
  return inTransaction(db, (tx) => enqueueJobs(tx, jobs));
}

/**
 * The billing engine's jobs in real time (decision 0029): a sweep that finds what fell due,
 * and a job per subscription that runs it. A test clock's advance is test-clocks.ts's.
 */
export function billingJobs(db: Db, clock: Clock, settings: BillingSettings, changes: EntitlementChanges): JobHandlers {
  const engine = new BillingEngine({ db, clock, changes, dunning: settings.dunningDays });
  const sweep: JobHandlers = {
    'billing-sweep': {
      everyMs: settings.sweepIntervalMs,
      run: async () => {
        const queued = await enqueueDueBilling(db, engine);
        return queued > 0 ? `queued ${queued} subscriptions with renewals, trial ends, dunning attempts or cancellations due` : undefined;
      },
    },
  };
  return {
    ...(settings.sweepIntervalMs > 0 ? sweep : {}),
    [BILL_SUBSCRIPTION_JOB]: {
      retry: { attempts: 8, backoffMs: 60_000 },
      run: async (payload) => {
        const ran = await engine.catchUp(stringField(payload, 'subscriptionId'));
        return ran > 0 ? `ran ${ran} billing items of subscription ${String(payload.subscriptionId)}` : undefined;
      },
    },
  };
}
