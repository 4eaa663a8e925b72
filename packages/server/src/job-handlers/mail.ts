import type { MailConfig } from '../config.js';
import type { Db } from '../db/connect.js';
import type { Clock } from '../lib/clock.js';
import type { JobHandlers } from '../modules/jobs/runner.js';
import { COMPOSE_MAIL_JOB, configuredMailer, deleteMessagesBefore, MailComposer, MailOutbox, SEND_MAIL_JOB } from '../modules/mail/queries.js';
import { deleteSignInsBefore } from '../modules/portal/queries.js';
import { stringField } from './payload.js';

const DAY_MS = 24 * 60 * 60 * 1000;
/** How long messages (the sandbox inbox included) and portal sign-ins are kept (decision 0038). */
export const MAIL_RETENTION_MS = 30 * DAY_MS;
export const SIGN_IN_RETENTION_MS = 7 * DAY_MS;

/**
 * The mail jobs (decisions 0038, 0067): compose-mail, which writes the email of a business event; send-mail, the durable retry of a message whose first attempt
 * failed or never ran; and an hourly purge of old messages and sign-ins.
 */
export function mailJobs(db: Db, clock: Clock, config: MailConfig, publicUrl: string | null = null): JobHandlers {
  const outbox = new MailOutbox(db, clock, configuredMailer(config));
  const composer = new MailComposer(db, clock, outbox, publicUrl);
  return {
    // The email a business event causes (decision 0067): queued with the event, written once.
    [COMPOSE_MAIL_JOB]: {
      retry: { attempts: 8, backoffMs: 30_000 },
      run: (payload) => composer.compose(stringField(payload, 'eventId')),
    },
    [SEND_MAIL_JOB]: {
      retry: { attempts: 8, backoffMs: 30_000 },
      run: async (payload) => {
        const messageId = stringField(payload, 'messageId');
        const outcome = await outbox.deliver(messageId);
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
