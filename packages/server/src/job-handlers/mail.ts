import type { MailConfig } from '../config.js';
import type { Db } from '../db/connect.js';
import type { Clock } from '../lib/clock.js';
import type { DunningSchedule } from '../modules/billing/renewal.compute.js';
import type { JobHandlers } from '../modules/jobs/runner.js';
import { COMPOSE_MAIL_JOB, configuredMailer, deleteMessagesBefore, MailComposer, MailOutbox, Reminders, SEND_MAIL_JOB } from '../modules/mail/queries.js';
import { deleteSignInsBefore } from '../modules/portal/queries.js';
import { stringField } from './payload.js';

const DAY_MS = 24 * 60 * 60 * 1000;
/** How long messages (the sandbox inbox included) and portal sign-ins are kept (decision 0038). */
export const MAIL_RETENTION_MS = 30 * DAY_MS;
export const SIGN_IN_RETENTION_MS = 7 * DAY_MS;

export const MAIL_REMINDERS_JOB = 'mail-reminders';
/** The least time between two sweeps for reminders: they fall due by the day, a minute late is on time. */
const REMINDER_SWEEP_MIN_MS = 60 * 1000;

export interface MailJobSettings {
  publicUrl?: string | null;
  /** The billing engine's: which retry of a failed payment is the last. */
  dunningDays?: DunningSchedule;
  /** The billing sweep's interval: reminders are swept with it (at most once a minute); 0: never (test clocks still record theirs). */
  sweepIntervalMs?: number;
}

/**
 * The mail jobs (decisions 0038, 0067, 0071): compose-mail, which writes the email of a business event or a
 * timed reminder; the sweep that records the reminders due in real time; send-mail, the durable retry of a
 * message whose first attempt failed or never ran; and an hourly purge of old messages and sign-ins.
 */
/**
 * How often the send-mail job tries a message before the message is failed: a minute apart,
 * then doubling, about 34 hours in all, so that an SMTP server down for a day loses nothing.
 */
const SEND_ATTEMPTS = 12;

export function mailJobs(db: Db, clock: Clock, config: MailConfig, settings: MailJobSettings = {}): JobHandlers {
  const outbox = new MailOutbox(db, clock, configuredMailer(config));
  const composer = new MailComposer(db, clock, outbox, settings.publicUrl ?? null, settings.dunningDays ?? []);
  const reminders = new Reminders(db, clock);
  const sweepMs = settings.sweepIntervalMs ?? 0;
  const sweep: JobHandlers = {
    [MAIL_REMINDERS_JOB]: {
      everyMs: Math.max(sweepMs, REMINDER_SWEEP_MIN_MS),
      run: async () => {
        const recorded = await reminders.sweep();
        return recorded > 0 ? `recorded ${recorded} reminders of trials ending, renewals and expiring cards` : undefined;
      },
    },
  };
  return {
    ...(sweepMs > 0 ? sweep : {}),
    // The email a business event causes (decision 0067), or a reminder (decision 0071): queued with it, written once.
    [COMPOSE_MAIL_JOB]: {
      retry: { attempts: 8, backoffMs: 30_000 },
      run: (payload) =>
        typeof payload.reminderId === 'string' ? composer.composeReminder(payload.reminderId) : composer.compose(stringField(payload, 'eventId')),
    },
    [SEND_MAIL_JOB]: {
      retry: { attempts: SEND_ATTEMPTS, backoffMs: 60_000 },
      run: async (payload, ctx) => {
        const messageId = stringField(payload, 'messageId');
        const outcome = await outbox.deliver(messageId).catch(async (error: unknown) => {
          // Refused through every retry (a bounce, a server that never takes it): failed, and nothing waits on it.
          if (ctx.attempt >= SEND_ATTEMPTS) await outbox.giveUp(messageId);
          throw error;
        });
        // Another attempt holds it: this one fails, and looks again after the backoff.
        if (outcome === 'busy') throw new Error(`message ${messageId} is being sent by another attempt`);
        return outcome === 'done' ? undefined : `${outcome} message ${messageId}`;
      },
    },
    'purge-mail-and-sign-ins': {
      everyMs: 60 * 60 * 1000,
      run: async () => {
        const now = clock.now().getTime();
        const messages = await deleteMessagesBefore(db, new Date(now - MAIL_RETENTION_MS));
        const signIns = await deleteSignInsBefore(db, new Date(now - SIGN_IN_RETENTION_MS));
        return messages + signIns > 0 ? `deleted ${messages} old messages and ${signIns} old portal sign-ins` : undefined;
      },
    },
  };
}
