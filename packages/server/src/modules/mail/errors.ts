import { DomainError, invalid, notFound } from '../../lib/domain-error.js';

export const mailUnavailable = (): DomainError =>
  new DomainError('unavailable', 'mail_not_configured', 'Email is not configured for production: set BILLOW_SMTP_URL and BILLOW_MAIL_FROM');
export const inboxOnlyInSandbox = (): DomainError =>
  notFound('The development inbox exists only in the sandbox: production email is sent, not kept', 'mail_inbox_sandbox_only');
export const attachmentNotFound = (): DomainError => notFound('No such file in the development inbox', 'mail_attachment_not_found');
export const reminderDaysOutOfRange = (field: string, minimum: number, maximum: number): DomainError =>
  invalid(`${field} must be a whole number of days from ${minimum} to ${maximum}`, 'email_reminder_days_out_of_range');
