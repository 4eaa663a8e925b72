import type { SubscriptionRow } from '../subscriptions/queries.js';

/** A timed reminder as the advance holds it: when it falls due; the rest is the reminders' own. */
export interface ClockReminder {
  at: Date;
}

/**
 * What an advance needs of the buyer emails' timed reminders (decision 0071), as an interface
 * the job handlers fill from modules/mail: which reminders fall due, and recording one at the
 * clock's time, so that they run in time order with what falls due for billing.
 */
export interface ClockReminders<R extends ClockReminder = ClockReminder> {
  /** The earliest reminder of each subscription due by `by` and not yet recorded; subscriptions without one left out. */
  dueFor(rows: SubscriptionRow[], by: Date): Promise<Map<string, R>>;
  /** Records the reminder as fallen due at `at`, once however often it is asked (false: it was recorded already). */
  record(row: SubscriptionRow, reminder: R, at: Date): Promise<boolean>;
}
