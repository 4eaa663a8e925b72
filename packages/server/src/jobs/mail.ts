import type { MailConfig } from '../config.js';
import type { Db } from '../db/connect.js';
import type { Clock } from '../lib/clock.js';
import type { JobHandlers } from '../modules/jobs/runner.js';
import { configuredMailer, MailOutbox, SEND_MAIL_JOB } from '../modules/mail/queries.js';
import { stringField } from './payload.js';

/** The send-mail job (decision 0038): the durable retry of a message whose first attempt failed or never ran. */
export function mailJobs(db: Db, clock: Clock, config: MailConfig): JobHandlers {
  const outbox = new MailOutbox(db, clock, configuredMailer(config));
  return {
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
  };
}
