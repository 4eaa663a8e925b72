import { REMINDER_DAYS, type EmailSettings, type EmailSettingsUpdate } from '@billow/contract';
import type { Db } from '../../db/connect.js';
import { inTransaction, type Executor } from '../../db/transaction.js';
import { recordAudit, type AuditableScope } from '../audit/queries.js';
import type { Clock } from '../../lib/clock.js';
import { reminderDaysOutOfRange } from './errors.js';
import { findSettings, saveSettings, type DaysColumn, type SettingsRow, type SwitchColumn } from './repo/settings.js';

type SwitchField = { [K in keyof EmailSettings]: EmailSettings[K] extends boolean ? K : never }[keyof EmailSettings];
type DaysField = keyof typeof REMINDER_DAYS;

/** The wire name of each switch and its column (the column is also the email's kind). */
const SWITCHES: Record<SwitchField, SwitchColumn> = {
  receipts: 'receipt',
  refunds: 'refund',
  paymentFailed: 'payment_failed',
  paymentRetryFailed: 'payment_retry_failed',
  cancelledUnpaid: 'cancelled_unpaid',
  subscriptionCancelled: 'subscription_cancelled',
  cancellationScheduled: 'cancellation_scheduled',
  subscriptionEnded: 'subscription_ended',
  trialEnding: 'trial_ending',
  upcomingRenewal: 'upcoming_renewal',
  cardExpiring: 'card_expiring',
};
const DAYS: Record<DaysField, DaysColumn> = {
  trialEndingDays: 'trial_ending_days',
  upcomingRenewalDays: 'upcoming_renewal_days',
  cardExpiringDays: 'card_expiring_days',
};

/** An environment without a row of settings: every kind on, the reminders' days at their defaults. */
export const DEFAULT_SETTINGS: SettingsRow = {
  ...(Object.fromEntries(Object.values(SWITCHES).map((column) => [column, true])) as Record<SwitchColumn, boolean>),
  trial_ending_days: REMINDER_DAYS.trialEndingDays.default,
  upcoming_renewal_days: REMINDER_DAYS.upcomingRenewalDays.default,
  card_expiring_days: REMINDER_DAYS.cardExpiringDays.default,
};

function view(row: SettingsRow): EmailSettings {
  const switches = Object.entries(SWITCHES).map(([field, column]) => [field, row[column]]);
  const days = Object.entries(DAYS).map(([field, column]) => [field, row[column]]);
  return Object.fromEntries([...switches, ...days]) as EmailSettings;
}

/** The settings of an environment, its defaults where it has set nothing. */
export async function settingsOf(db: Executor, environmentId: string): Promise<SettingsRow> {
  return (await findSettings(db, environmentId)) ?? DEFAULT_SETTINGS;
}

/** Whether an environment sends emails of a kind (decision 0067): on unless switched off. */
export async function kindEnabled(db: Executor, environmentId: string, kind: string): Promise<boolean> {
  const settings = await settingsOf(db, environmentId);
  return kind in settings ? settings[kind as SwitchColumn] : true;
}

/** The changes an update asks for, its days checked (the CLI's values have not been through the API's schema). */
function changesOf(update: EmailSettingsUpdate): Partial<SettingsRow> {
  const changes: Partial<SettingsRow> = {};
  for (const [field, column] of Object.entries(SWITCHES) as Array<[SwitchField, SwitchColumn]>) {
    const value = update[field];
    if (value !== undefined) changes[column] = value;
  }
  for (const [field, column] of Object.entries(DAYS) as Array<[DaysField, DaysColumn]>) {
    const value = update[field];
    if (value === undefined) continue;
    const { minimum, maximum } = REMINDER_DAYS[field];
    if (!Number.isInteger(value) || value < minimum || value > maximum) throw reminderDaysOutOfRange(field, minimum, maximum);
    changes[column] = value;
  }
  return changes;
}

/** GET/PATCH /email-settings/: which emails buyers get, and when the reminders go out, per environment. */
export class EmailSettingsService {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
  ) {}

  async get(scope: { environmentId: string }): Promise<EmailSettings> {
    return view(await settingsOf(this.db, scope.environmentId));
  }

  /** Saves the changes and, for a request's change, records them with before and after in the same transaction (decision 0077). */
  async update(scope: { environmentId: string } & Partial<AuditableScope>, update: EmailSettingsUpdate): Promise<EmailSettings> {
    const changes = changesOf(update);
    const now = this.clock.now();
    return inTransaction(this.db, async (tx) => {
      const before = view(await settingsOf(tx, scope.environmentId));
      const after = view(await saveSettings(tx, scope.environmentId, changes, now));
      if (scope.organizationId) {
        const change = { action: 'email_settings.updated' as const, resourceType: 'email_settings', resourceId: scope.environmentId, before, after };
        await recordAudit(tx, scope as AuditableScope, change, now);
      }
      return after;
    });
  }
}
