import type { Selectable } from 'kysely';
import type { Executor } from '../../db/transaction.js';
import type { MailMessagesTable } from '../../db/schema.js';

export type MailRow = Selectable<MailMessagesTable>;
type Optional = 'event_id' | 'kind' | 'body_html' | 'reminder_id' | 'occurred_at' | 'from_name' | 'reply_to' | 'list_unsubscribe';
export type NewMail = Omit<MailRow, 'seq' | 'attempts' | 'locked_until' | 'last_error' | 'sent_at' | Optional> & Partial<Pick<MailRow, Optional>>;

export interface AttachmentRow {
  file_name: string;
  content_type: string;
  bytes: Uint8Array;
}

export async function insertMessage(db: Executor, row: NewMail): Promise<void> {
  await db.insertInto('mail_messages').values(row).execute();
}

/** A message written for a business event or a reminder: false when that event's message of that kind, or the reminder's, exists already. */
export async function insertEventMessage(db: Executor, row: NewMail, attachments: AttachmentRow[]): Promise<boolean> {
  const inserted = await db
    .insertInto('mail_messages')
    .values(row)
    // Either unique index (event and kind, or reminder) may be the one a second write meets.
    .onConflict((oc) => oc.doNothing())
    .returning('id')
    .executeTakeFirst();
  if (!inserted) return false;
  if (attachments.length > 0) {
    await db
      .insertInto('mail_attachments')
      .values(attachments.map((a, position) => ({ message_id: row.id, position, ...a })))
      .execute();
  }
  return true;
}

export function attachmentsOf(db: Executor, messageId: string): Promise<Array<AttachmentRow & { position: number }>> {
  return db
    .selectFrom('mail_attachments')
    .select(['position', 'file_name', 'content_type', 'bytes'])
    .where('message_id', '=', messageId)
    .orderBy('position')
    .execute();
}

/** The files of the given messages, without their bytes. */
export function attachmentListOf(db: Executor, messageIds: string[]) {
  if (messageIds.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('mail_attachments')
    .select((eb) => ['message_id', 'position', 'file_name', 'content_type', eb.fn<number>('octet_length', ['bytes']).as('size')])
    .where('message_id', 'in', messageIds)
    .orderBy('position')
    .execute();
}

export function messageOfEvent(db: Executor, eventId: string, kind: string) {
  return db.selectFrom('mail_messages').select('id').where('event_id', '=', eventId).where('kind', '=', kind).executeTakeFirst();
}

export function messageOfReminder(db: Executor, reminderId: string) {
  return db.selectFrom('mail_messages').select('id').where('reminder_id', '=', reminderId).executeTakeFirst();
}

/** A business event as written (modules/events), for the email it causes. */
export function findEvent(db: Executor, eventId: string) {
  return db
    .selectFrom('events as ev')
    .innerJoin('environments as e', 'e.id', 'ev.environment_id')
    .select(['ev.id', 'ev.type', 'ev.payload', 'ev.organization_id', 'ev.environment_id', 'ev.created_at', 'e.kind as environment'])
    .where('ev.id', '=', eventId)
    .executeTakeFirst();
}

/** Takes a queued message for one attempt (or one whose attempt outlived its lock); undefined when another has it or it is done. */
export function claimMessage(db: Executor, id: string, now: Date, lockedUntil: Date): Promise<MailRow | undefined> {
  return db
    .updateTable('mail_messages')
    .set((eb) => ({ status: 'sending', locked_until: lockedUntil, attempts: eb('attempts', '+', 1) }))
    .where('id', '=', id)
    .where((eb) => eb.or([eb('status', '=', 'pending'), eb.and([eb('status', '=', 'sending'), eb('locked_until', '<', now)])]))
    .returningAll()
    .executeTakeFirst();
}

export function findMessage(db: Executor, id: string): Promise<MailRow | undefined> {
  return db.selectFrom('mail_messages').selectAll().where('id', '=', id).executeTakeFirst();
}

/** Ends a message that left (`sent`) or is no longer worth sending (`expired`): its body, which may hold a code, is wiped. */
export async function finishMessage(db: Executor, id: string, status: 'sent' | 'expired', at: Date): Promise<void> {
  await db
    .updateTable('mail_messages')
    .set({ status, body_text: null, body_html: null, locked_until: null, sent_at: status === 'sent' ? at : null })
    .where('id', '=', id)
    .execute();
  await db.deleteFrom('mail_attachments').where('message_id', '=', id).execute();
}

/** The last attempt failed too: the message stops waiting, its bodies dropped as a sent one's are, the server's answer kept. */
export async function failMessage(db: Executor, id: string): Promise<void> {
  await db
    .updateTable('mail_messages')
    .set({ status: 'failed', body_text: null, body_html: null, locked_until: null })
    .where('id', '=', id)
    .where('status', '=', 'pending')
    .execute();
}

/** An attempt that failed: the message waits for the next one. */
export async function releaseMessage(db: Executor, id: string, error: string): Promise<void> {
  await db.updateTable('mail_messages').set({ status: 'pending', locked_until: null, last_error: error }).where('id', '=', id).execute();
}

/** The development inbox of an environment, newest first. */
export function inboxMessages(db: Executor, environmentId: string, limit: number): Promise<MailRow[]> {
  return db
    .selectFrom('mail_messages')
    .selectAll()
    .where('environment_id', '=', environmentId)
    .where('status', '=', 'inbox')
    .orderBy('seq', 'desc')
    .limit(limit)
    .execute();
}

export function inboxMessage(db: Executor, environmentId: string, id: string): Promise<MailRow | undefined> {
  return db
    .selectFrom('mail_messages')
    .selectAll()
    .where('environment_id', '=', environmentId)
    .where('status', '=', 'inbox')
    .where('id', '=', id)
    .executeTakeFirst();
}

export function environmentOf(db: Executor, environmentId: string) {
  return db
    .selectFrom('environments as e')
    .innerJoin('organizations as o', 'o.id', 'e.organization_id')
    .select(['e.id as environmentId', 'e.kind', 'o.id as organizationId', 'o.name as organizationName'])
    .where('e.id', '=', environmentId)
    .executeTakeFirst();
}

export async function sandboxOf(db: Executor, organizationId: string): Promise<string | undefined> {
  const row = await db
    .selectFrom('environments')
    .select('id')
    .where('organization_id', '=', organizationId)
    .where('kind', '=', 'sandbox')
    .executeTakeFirst();
  return row?.id;
}

/** Deletes the messages written before `before`, whatever their state; returns how many. */
export async function deleteMessagesBefore(db: Executor, before: Date): Promise<number> {
  const result = await db.deleteFrom('mail_messages').where('created_at', '<', before).executeTakeFirst();
  return Number(result.numDeletedRows);
}

export async function organizationSlug(db: Executor, organizationId: string): Promise<string | null> {
  const row = await db.selectFrom('organizations').select('slug').where('id', '=', organizationId).executeTakeFirst();
  return row?.slug ?? null;
}
