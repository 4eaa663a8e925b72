/**
 * Outgoing email (decision 0038). A message is written in the caller's transaction, never
 * sent inside it: in the sandbox it goes to the development inbox and stays there; in
 * production it is queued, with a `send-mail` job as its durable retry, and sent as soon
 * as the transaction commits (`deliverSoon`). An attempt claims the message (locked for
 * a while), so that the first send and the job never send it at once; a crash between
 * the send and its record sends it again after the lock (at least once, never lost).
 */
import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/connect.js';
import type { Executor } from '../../db/transaction.js';
import type { Clock } from '../../lib/clock.js';
import { enqueueJob } from '../jobs/service.js';
import type { MailAttachment, Mailer } from './mailer.js';
import { mailUnavailable } from './errors.js';
import * as repo from './repo.js';

export const SEND_MAIL_JOB = 'send-mail';
/** How long an attempt holds a message: past it, the attempt is taken for dead. */
const LOCK_MS = 2 * 60 * 1000;
/** The job waits this long behind the first attempt, which usually has sent the message by then. */
const JOB_DELAY_MS = 60 * 1000;
const MAX_ERROR_LENGTH = 1000;

export interface NewMessage {
  organizationId: string;
  environmentId: string;
  environment: 'sandbox' | 'production';
  to: string;
  subject: string;
  text: string;
  /** After this the message is worth nothing (the code it carries expired): it is not sent later. */
  sendBefore: Date;
  /** The same in HTML, sent beside the text (multipart/alternative); none: text only. */
  html?: string | null;
  /** The name it is from, at Billow's sending address; none: the address's own. */
  fromName?: string | null;
}

/** A message a business event causes (decision 0067), or a timed reminder (decision 0071): written once per (event, kind), or per reminder. */
export interface EventMessage extends NewMessage {
  eventId: string | null;
  reminderId: string | null;
  /** When what it tells happened, by the environment's clock. */
  occurredAt: Date;
  kind: string;
  html: string;
  attachments: MailAttachment[];
  /** Who it is from and where replies go (the seller), and how to unsubscribe (reminders only); null: none (decision 0075). */
  headers: MessageHeaders;
}

export interface MessageHeaders {
  fromName: string | null;
  replyTo: string | null;
  listUnsubscribe: string | null;
}

export type DeliveryOutcome = 'sent' | 'expired' | 'done' | 'busy';

export class MailOutbox {
  private readonly inFlight = new Set<Promise<unknown>>();

  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly mailer: Mailer | null,
    /** Where deliverSoon reports a failed first attempt. */
    private readonly log?: FastifyBaseLogger,
  ) {}

  /** Whether email reaches people of this environment: the sandbox always has its inbox; production needs SMTP. */
  canSend(environment: 'sandbox' | 'production'): boolean {
    return environment === 'sandbox' || this.mailer !== null;
  }

  /** The columns every message has: where it goes, what it says, until when it is worth sending. */
  private static baseRow(id: string, message: NewMessage, now: Date) {
    return {
      id,
      organization_id: message.organizationId,
      environment_id: message.environmentId,
      status: message.environment === 'sandbox' ? ('inbox' as const) : ('pending' as const),
      recipient: message.to,
      subject: message.subject,
      body_text: message.text,
      created_at: now,
      send_before: message.sendBefore,
    };
  }

  /** A written message: kept in the sandbox inbox (null), or its send-mail job queued behind the first attempt (its id). */
  private async queued(tx: Executor, id: string, message: NewMessage, now: Date): Promise<string | null> {
    if (message.environment === 'sandbox') return null;
    await enqueueJob(tx, { name: SEND_MAIL_JOB, payload: { messageId: id }, key: id, runAt: new Date(now.getTime() + JOB_DELAY_MS) });
    return id;
  }

  /** Writes the message in the caller's transaction; returns its id when it is to be sent (deliverSoon after commit), null for the inbox. */
  async queue(tx: Executor, message: NewMessage): Promise<string | null> {
    if (!this.canSend(message.environment)) throw mailUnavailable();
    const id = randomUUID();
    const now = this.clock.now();
    await repo.insertMessage(tx, { ...MailOutbox.baseRow(id, message, now), body_html: message.html ?? null, from_name: message.fromName ?? null });
    return this.queued(tx, id, message, now);
  }

  /**
   * Writes the message of a business event or reminder unless that event's message of that kind,
   * or that reminder's, exists (then 'duplicate'); returns its id when it is to be sent (deliverSoon after commit), null for the inbox.
   */
  async queueForEvent(tx: Executor, message: EventMessage): Promise<string | null | 'duplicate'> {
    if (!this.canSend(message.environment)) throw mailUnavailable();
    const id = randomUUID();
    const now = this.clock.now();
    const written = await repo.insertEventMessage(
      tx,
      {
        ...MailOutbox.baseRow(id, message, now),
        body_html: message.html,
        event_id: message.eventId,
        reminder_id: message.reminderId,
        occurred_at: message.occurredAt,
        kind: message.kind,
        from_name: message.headers.fromName,
        reply_to: message.headers.replyTo,
        list_unsubscribe: message.headers.listUnsubscribe,
      },
      message.attachments.map((a) => ({ file_name: a.fileName, content_type: a.contentType, bytes: a.bytes })),
    );
    if (!written) return 'duplicate';
    return this.queued(tx, id, message, now);
  }

  /** Sends a committed message now, without waiting for it (the job retries what fails). */
  deliverSoon(id: string): void {
    const attempt = this.deliver(id).catch((err: unknown) => {
      this.log?.warn({ err, messageId: id }, 'an email could not be sent; the send-mail job will try again');
    });
    this.inFlight.add(attempt);
    void attempt.finally(() => this.inFlight.delete(attempt));
  }

  /** Waits for the sends started by deliverSoon (at shutdown). */
  async settle(): Promise<void> {
    await Promise.allSettled([...this.inFlight]);
  }

  /** The job gave up on the message (every retry refused): it ends failed, and waits no more. */
  async giveUp(id: string): Promise<void> {
    await repo.failMessage(this.db, id);
  }

  /** One attempt at a queued message. Throws when the SMTP server refused it or could not be reached. */
  async deliver(id: string): Promise<DeliveryOutcome> {
    const now = this.clock.now();
    const message = await repo.claimMessage(this.db, id, now, new Date(now.getTime() + LOCK_MS));
    if (!message) {
      const row = await repo.findMessage(this.db, id);
      return row?.status === 'sending' ? 'busy' : 'done';
    }
    if (message.send_before.getTime() <= now.getTime() || message.body_text === null) {
      await repo.finishMessage(this.db, id, 'expired', now);
      return 'expired';
    }
    if (!this.mailer) {
      await repo.releaseMessage(this.db, id, 'BILLOW_SMTP_URL is not set: no SMTP server to send to');
      throw mailUnavailable();
    }
    try {
      const attachments = (await repo.attachmentsOf(this.db, id)).map((a) => ({ fileName: a.file_name, contentType: a.content_type, bytes: a.bytes }));
      await this.mailer.send({
        id,
        writtenAt: message.created_at,
        to: message.recipient,
        subject: message.subject,
        text: message.body_text,
        html: message.body_html,
        attachments,
        fromName: message.from_name,
        replyTo: message.reply_to,
        listUnsubscribe: message.list_unsubscribe,
      });
    } catch (error) {
      await repo.releaseMessage(this.db, id, (error instanceof Error ? error.message : String(error)).slice(0, MAX_ERROR_LENGTH));
      throw error;
    }
    await repo.finishMessage(this.db, id, 'sent', this.clock.now());
    return 'sent';
  }
}
