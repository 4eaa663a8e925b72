/** The timed reminders' records (decision 0071): one per (subscription, kind, occasion). */
import type { Selectable } from 'kysely';
import type { Executor } from '../../../db/transaction.js';
import type { MailRemindersTable } from '../../../db/schema.js';

export type ReminderRow = Selectable<MailRemindersTable>;

/** Records a reminder unless one of its subscription, kind and occasion exists: its id, or undefined. */
export async function insertReminder(db: Executor, row: Omit<ReminderRow, 'facts'> & { facts: Record<string, unknown> }): Promise<string | undefined> {
  const inserted = await db
    .insertInto('mail_reminders')
    .values({ ...row, facts: JSON.stringify(row.facts) })
    .onConflict((oc) => oc.columns(['subscription_id', 'kind', 'occasion']).doNothing())
    .returning('id')
    .executeTakeFirst();
  return inserted?.id;
}

/** The reminders recorded for these subscriptions. */
export function recordedReminders(db: Executor, subscriptionIds: string[]) {
  if (subscriptionIds.length === 0) return Promise.resolve([]);
  return db.selectFrom('mail_reminders').select(['subscription_id', 'kind', 'occasion']).where('subscription_id', 'in', subscriptionIds).execute();
}

/** A reminder, with its environment's kind, for the job that writes its email. */
export function findReminder(db: Executor, id: string) {
  return db
    .selectFrom('mail_reminders as r')
    .innerJoin('environments as e', 'e.id', 'r.environment_id')
    .selectAll('r')
    .select('e.kind as environment')
    .where('r.id', '=', id)
    .executeTakeFirst();
}
