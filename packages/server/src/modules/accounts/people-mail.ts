import type { Executor } from '../../db/transaction.js';
import type { MailOutbox } from '../mail/queries.js';
import type { PeopleMessage } from './messages.js';
import * as repo from './repo.js';

/**
 * An email to the seller's people (decision 0078), sent by the organization's production mail:
 * only where SMTP is configured, never kept in a development inbox (which other members may
 * read, and its links open accounts). Written in the caller's transaction; the id to deliver
 * after the commit, or null when nothing is sent.
 */
export async function queuePeopleMail(
  tx: Executor,
  mail: MailOutbox,
  message: PeopleMessage & { organizationId: string; to: string; sendBefore: Date },
): Promise<string | null> {
  if (!mail.canSend('production')) return null;
  const target = (await repo.environmentsOfOrganization(tx, message.organizationId)).find((e) => e.kind === 'production');
  if (!target) return null;
  return mail.queue(tx, {
    organizationId: message.organizationId,
    environmentId: target.id,
    environment: 'production',
    to: message.to,
    subject: message.subject,
    text: message.text,
    html: message.html,
    fromName: message.fromName,
    sendBefore: message.sendBefore,
  });
}
