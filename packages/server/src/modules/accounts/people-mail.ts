import type { Executor } from '../../db/transaction.js';
import type { MailOutbox } from '../mail/queries.js';
import type { PeopleMessage } from './messages.js';
import * as repo from './repo.js';

/**
 * Where an email to the seller's people goes (decision 0078): sent by the organization's
 * production mail when SMTP is configured, else kept in its sandbox's development inbox, so
 * that a trial installation still shows it. Written in the caller's transaction; the id to
 * deliver after the commit, or null (inbox, or no organization to send for).
 */
export async function queuePeopleMail(
  tx: Executor,
  mail: MailOutbox,
  message: PeopleMessage & { organizationId: string; to: string; sendBefore: Date },
): Promise<string | null> {
  const environment = mail.canSend('production') ? 'production' : 'sandbox';
  const target = (await repo.environmentsOfOrganization(tx, message.organizationId)).find((e) => e.kind === environment);
  if (!target) return null;
  return mail.queue(tx, {
    organizationId: message.organizationId,
    environmentId: target.id,
    environment,
    to: message.to,
    subject: message.subject,
    text: message.text,
    sendBefore: message.sendBefore,
  });
}
