/**
 * What other folders use of mail: the outbox that writes a message in their transaction
 * and sends it after (decision 0038), the mailer of a configuration, the composer of buyer
 * emails and their timed reminders (decisions 0067, 0071).
 */
export { configuredMailer, type Mailer, type OutgoingMail } from './mailer.js';
export { MailOutbox, SEND_MAIL_JOB, type NewMessage } from './outbox.js';
export { sandboxInboxUrl } from './inbox-access.js';
export { deleteMessagesBefore } from './repo.js';
export { MailComposer } from './compose.js';
export { COMPOSE_MAIL_JOB } from '../events/queries.js';
export { Reminders } from './reminders.js';
export { emailBody, type EmailBody, type EmailSeller, type Paragraph } from './emails/layout.js';
export { emailFormat, type EmailFormat } from './emails/format.js';
