/** The email settings of an environment (decisions 0067, 0071): a switch per kind of email, and the days of the timed reminders. */
import type { Executor } from '../../../db/transaction.js';

/** The switch columns of email_settings, one per kind of email; a column's name is its kind's. */
export const SWITCH_COLUMNS = [
  'receipt',
  'refund',
  'payment_failed',
  'payment_retry_failed',
  'cancelled_unpaid',
  'subscription_cancelled',
  'cancellation_scheduled',
  'subscription_ended',
  'trial_ending',
  'upcoming_renewal',
  'card_expiring',
] as const;
export const DAYS_COLUMNS = ['trial_ending_days', 'upcoming_renewal_days', 'card_expiring_days'] as const;

export type SwitchColumn = (typeof SWITCH_COLUMNS)[number];
export type DaysColumn = (typeof DAYS_COLUMNS)[number];
export type SettingsRow = Record<SwitchColumn, boolean> & Record<DaysColumn, number>;

const COLUMNS = [...SWITCH_COLUMNS, ...DAYS_COLUMNS];

export function findSettings(db: Executor, environmentId: string): Promise<SettingsRow | undefined> {
  return db.selectFrom('email_settings').select(COLUMNS).where('environment_id', '=', environmentId).executeTakeFirst();
}

/** Sets the given settings (the others kept, or their defaults for a new row); returns all of them. */
export function saveSettings(db: Executor, environmentId: string, changes: Partial<SettingsRow>, at: Date): Promise<SettingsRow> {
  return db
    .insertInto('email_settings')
    .values({ environment_id: environmentId, ...changes, updated_at: at })
    .onConflict((oc) => oc.column('environment_id').doUpdateSet({ ...changes, updated_at: at }))
    .returning(COLUMNS)
    .executeTakeFirstOrThrow();
}
